/**
 * Demo data for complaints and arbitration (`npm start`): the Zhejiang provincial contest's
 * results (computed by results-demo.ts) get their awards allocated, 优秀指导教师 and 优秀组织奖
 * proposed by their rules, and are published by the contest admin (certificates for authors,
 * teachers and schools), which opens a 7-day publicity period (公示); the demo complaint reviewer
 * (complaint_reviewer) and admin (complaint_admin) handle the contest and the demo arbitrator
 * (arbitrator) arbitrates it. Three complaints about works of the 人工智能应用组, filed and
 * moved through the complaint service like real ones (history, work log):
 *
 * - a visitor's 投诉 (王公众, visitor@example.com) of plagiarism, accepted and waiting for
 *   the reviewer's opinion (待审核);
 * - the first author's 申诉 about the score of 渔船作业行为智能监测, reviewed and decided
 *   (rejected, no change) — within the arbitration deadline, so the author can request
 *   arbitration (待仲裁 after that);
 * - a logged-in student's 投诉 of a repeat entry, decided (rejected) and closed after the
 *   arbitration deadline (已结案).
 *
 * The awarded works are promoted, so publishing enters them in the national contest (issue 14).
 *
 * Runs once, after seedResultsDemo (false when its works are missing or a complaint exists).
 */
import type { Db } from "../db/index";
import type { User } from "../db/schema";
import { receivingContestId } from "../work/rules";
import { allocateResults, promoteResults, publishResults } from "../judging/service/results";
import { activePublication } from "../judging/service/results/change";
import { honourLevels, proposeHonours } from "../judging/service/results/honours";
import { fileComplaint } from "../complaint/filing";
import { takeStep, type StepDeps } from "../complaint/transition";
import { RESULTS_DEMO_WORKS } from "./results-demo";

export const DEMO_VISITOR = { name: "王公众", email: "visitor@example.com", phone: "13912345678" };

export async function seedComplaintsDemo(db: Db, publicUrl = "http://localhost:8080"): Promise<boolean> {
  if (await db.selectFrom("complaint").select("id").executeTakeFirst()) return false;
  const names = RESULTS_DEMO_WORKS.map((w) => w.name);
  const works = await db
    .selectFrom("work")
    .innerJoin("contest", "contest.id", "work.contest_id")
    .select(["work.id", "work.name", "contest.id as contest_id", "contest.level", "contest.parent_id"])
    .where("work.name", "in", names)
    .execute();
  if (works.length !== names.length) return false;
  const byName = new Map(works.map((w) => [w.name, Number(w.id)]));
  // The contest that judged them: the provincial contest their school contests recommended them to.
  const contestId = receivingContestId({ level: works[0].level, id: works[0].contest_id, parent_id: works[0].parent_id });
  const users = await db
    .selectFrom("app_user")
    .selectAll()
    .where("username", "in", ["contest_admin", "complaint_reviewer", "complaint_admin", "arbitrator", "student"])
    .execute();
  const u = (name: string) => users.find((x) => x.username === name) as User;
  if (users.length < 5) return false;

  // Publish the results (awards allocated by the ratios) unless they are already published.
  if (!(await activePublication(db, contestId))) {
    await allocateResults(db, u("contest_admin"), contestId, {});
    // 优秀指导教师 and 优秀组织奖 by their rules, so teacher and school certificates exist too.
    const contest = await db.selectFrom("contest").select("level").where("id", "=", contestId).executeTakeFirstOrThrow();
    for (const level of await honourLevels(db, contest.level))
      await proposeHonours(db, u("contest_admin"), contestId, { awardLevelId: level.id });
    // The awarded works are promoted (within the quota); publishing enters them in the national
    // contest (src/server/national/entries.ts), whose admin (national_admin) reviews them.
    await promoteResults(db, u("contest_admin"), contestId, {});
    await publishResults(db, u("contest_admin"), contestId, { confirmIncomplete: true, note: "浙江省级赛结果公示（演示）" });
  }
  const at = new Date().toISOString();
  await db
    .insertInto("contest_member")
    .values([
      { contest_id: contestId, user_id: u("complaint_reviewer").id, role: "complaint", created_at: at },
      { contest_id: contestId, user_id: u("complaint_admin").id, role: "complaint", created_at: at },
      { contest_id: contestId, user_id: u("arbitrator").id, role: "arbitrator", created_at: at },
    ])
    .execute();

  // The demo does not mail anybody.
  const deps: StepDeps = { db, mailer: { send: async () => {}, describe: () => "none" }, publicUrl };
  const reviewer = { user: u("complaint_reviewer") };
  const admin = { user: u("complaint_admin") };

  // 1. A visitor's 投诉, accepted, waiting for the reviewer's opinion.
  const visitor = { user: null, visitorEmail: DEMO_VISITOR.email };
  const c1 = await fileComplaint(db, visitor, {
    type: "complaint",
    workId: byName.get("茶园病虫害图像识别系统")!,
    category: "plagiarism",
    text: "<p>该作品演示视频中的识别界面与某公开课程项目几乎一致，模型结构和数据集说明也与该项目的开源仓库相同，疑似抄袭，请核查。</p>",
    name: DEMO_VISITOR.name,
    phone: DEMO_VISITOR.phone,
  });
  await takeStep(deps, reviewer, c1, "accept", {});

  // 2. The first author's 申诉 about the score, decided (rejected) — arbitration may be requested.
  const fishing = byName.get("渔船作业行为智能监测")!;
  const firstAuthor = await db
    .selectFrom("work_author")
    .innerJoin("app_user", "app_user.id", "work_author.user_id")
    .selectAll("app_user")
    .where("work_author.work_id", "=", fishing)
    .where("work_author.rank", "=", 1)
    .executeTakeFirstOrThrow();
  const c2 = await fileComplaint(
    db,
    { user: firstAuthor as User },
    {
      type: "appeal",
      workId: fishing,
      category: "score",
      text: "<p>我们的作品在真实渔船上完成了三个月的部署测试，但网评成绩明显偏低，怀疑评委未查看部署测试报告，申请复核评分。</p>",
    },
  );
  await takeStep(deps, admin, c2, "accept", {});
  await takeStep(deps, reviewer, c2, "opinion", {
    outcome: "rejected",
    action: "no_change",
    reason: "<p>三位评委的评分均在正常范围内且相互一致，评分表中已对部署测试给出评价，建议维持原成绩。</p>",
  });
  await takeStep(deps, admin, c2, "decide", {
    outcome: "rejected",
    action: "no_change",
    reason: "<p>经核查，评委已查看部署测试报告，评分一致且符合评分标准，申诉不成立，维持原成绩。</p>",
  });

  // 3. A student's 投诉, decided (rejected) and closed after the arbitration deadline.
  const c3 = await fileComplaint(
    db,
    { user: u("student") },
    {
      type: "complaint",
      workId: byName.get("计量仪表读数自动识别")!,
      category: "repeat_entry",
      text: "<p>该作品疑似与去年另一比赛的参赛作品相同，属于重复参赛，请核查。</p>",
    },
  );
  await takeStep(deps, reviewer, c3, "accept", {});
  await takeStep(deps, reviewer, c3, "opinion", {
    outcome: "rejected",
    action: "no_change",
    reason: "<p>经比对，两件作品的功能、代码和文档均不相同，不属于重复参赛。</p>",
  });
  await takeStep(deps, admin, c3, "decide", {
    outcome: "rejected",
    action: "no_change",
    reason: "<p>投诉不成立：两件作品内容不同，不构成重复参赛。</p>",
  });
  await db
    .updateTable("complaint")
    .set({ arbitration_due_at: new Date(Date.now() - 3600_000).toISOString() })
    .where("id", "=", c3)
    .execute();
  await takeStep(deps, admin, c3, "close", {});
  return true;
}
