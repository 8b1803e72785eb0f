/**
 * Demo data of the public main page (issue 14): a few more national news items (earlier
 * dates, so the list has a history) and the best works: the top published awards of the
 * demo (the latest contest's first), three of them published on 优秀作品 and one chosen but
 * not yet published.
 */
import { sql, type Transaction } from "kysely";
import type { Db } from "../db";
import type { DB } from "../db/schema";
import { resultsPublished } from "../judging/service/results/publish";

const NEWS: { days: number; title: string; body: string }[] = [
  {
    days: 3,
    title: "关于做好本届大赛作品原创性审查工作的通知",
    body: "<p>为维护大赛的公平公正，本届大赛继续对全部参赛作品进行<strong>查重与原创性审查</strong>。形式审查阶段发现的疑似重复作品将并排比对，经核实抄袭的作品取消参赛资格。</p><p>请各参赛学校在校级赛阶段做好作品原创性的初审工作。</p>",
  },
  {
    days: 8,
    title: "大赛组委会召开本届赛事工作会议",
    body: "<p>大赛组委会日前召开本届赛事工作会议，总结上一届大赛的组织经验，部署本届校级赛、省级赛和国赛的各项工作。会议要求各省级赛承办单位按时完成网络评审和现场答辩的组织工作。</p>",
  },
  {
    days: 15,
    title: "上一届大赛获奖证书可在线核验",
    body: "<p>上一届大赛的获奖证书均带有核验二维码。用人单位和学校可在「证书查询」页面输入证书编号和持证人姓名，或扫描证书上的二维码，核验证书真伪。</p>",
  },
  {
    days: 30,
    title: "大赛评审专家库征集通知",
    body: "<p>大赛面向全国高校征集评审专家。入库专家须具有副高级及以上职称，熟悉相关作品类别，能够参加网络评审或现场答辩。请有意向的教师通过所在学校推荐。</p>",
  },
];

const TEXTS = [
  "作品立意新颖，技术路线完整，界面美观，现场演示流畅，获评委一致好评。",
  "以真实需求为出发点，数据处理与模型设计扎实，具有较好的推广价值。",
  "团队分工明确，文档规范，作品完成度高，体现了扎实的工程能力。",
  "创意突出，交互体验出色，是本届同类作品中的佼佼者。",
];

/** More news (inside seedDemo's transaction). */
export async function seedMainpageDemo(trx: Transaction<DB>, rootId: number, now: string) {
  const at = (days: number) => new Date(Date.parse(now) - days * 86400000).toISOString();
  await trx
    .insertInto("news")
    .values(
      NEWS.map((n) => ({
        contest_id: null,
        title: n.title,
        body: n.body,
        cover: null,
        status: "published" as const,
        publish_at: at(n.days),
        created_by: rootId,
        created_at: at(n.days),
        updated_at: at(n.days),
      })),
    )
    .execute();
  // A draft never shows publicly.
  await trx
    .insertInto("news")
    .values({
      contest_id: null,
      title: "（草稿）国赛现场决赛安排",
      body: "<p>待定。</p>",
      cover: null,
      status: "draft",
      publish_at: null,
      created_by: rootId,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/**
 * The best works: the top published awards (run after the results demos publish theirs).
 * False when there are already best works or no published award.
 */
export async function seedBestWorksDemo(db: Db): Promise<boolean> {
  if (await db.selectFrom("best_work").select("id").limit(1).executeTakeFirst()) return false;
  const root = await db.selectFrom("app_user").select("id").where("username", "=", "root").executeTakeFirst();
  const now = new Date().toISOString();
  const awarded = await db
    .selectFrom("contest_result")
    .innerJoin("award_level", "award_level.id", "contest_result.award_level_id")
    .select(["contest_result.work_id", "contest_result.contest_id"])
    .where(resultsPublished("contest_result.contest_id"))
    .innerJoin("contest", "contest.id", "contest_result.contest_id")
    .orderBy("contest.year", "desc")
    .orderBy("award_level.sort")
    .orderBy(sql`contest_result.rank`)
    .orderBy("contest_result.work_id")
    .limit(4)
    .execute();
  if (!awarded.length) return false;
  const rootId = root?.id ?? null;
  await db
    .insertInto("best_work")
    .values(
      awarded.map((a, i) => ({
        work_id: a.work_id,
        contest_id: a.contest_id,
        sort: i + 1,
        text: TEXTS[i % TEXTS.length],
        published: i < 3 ? 1 : 0,
        published_at: i < 3 ? now : null,
        updated_by: rootId,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.column("work_id").doNothing())
    .execute();
  return true;
}
