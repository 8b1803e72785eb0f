/**
 * Demo data for the judge pool (/judgePool, `npm start`): every demo judge account gets its
 * pool record (link.ts) with a title, categories, expertise tags and this year's availability;
 * 李评审, 陈评审 and 刘评审 also judged last year's Zhejiang contest (when the defence demo
 * made it), so their history spans two years — the scores and the published fit of this year's
 * 人工智能应用组 (results and complaints demos) give 陈评审–何评审 works scored, an on-time
 * rate, a judge effect and a disagreement rate. Six people without an account: two Jiangsu
 * professors entered by root (their contacts are hidden from the demo contest admin), three
 * entered by the contest admin, and 王建国 entered twice (a duplicate to merge).
 * Runs once (the first pool-only person's email marks it).
 */
import type { Db } from "../db/index";
import type { JudgePersonCreate } from "../../shared/judge-pool/schema";
import { insertPerson, setAvailability, setCategories, setTags } from "../judge-pool/persons";
import { linkJudgeAccounts } from "../judge-pool/link";

const MARK = "sunlq@nju.example.edu.cn";

/** [大类] or [大类, 小类] by name. */
type Cat = [string] | [string, string];

interface Profile {
  title: string;
  categories: Cat[];
  tags: string[];
  available: boolean | null;
  note?: string;
  schoolName?: string;
  province?: string;
}

const JUDGES: Record<string, Profile> = {
  judge: {
    title: "教授",
    categories: [["软件应用与开发"], ["大数据应用"]],
    tags: ["软件工程", "大数据"],
    available: true,
    note: "7 月中旬可参加现场评审",
  },
  judge2: {
    title: "副教授",
    categories: [["人工智能应用"], ["软件应用与开发", "Web应用与开发"]],
    tags: ["机器学习", "Web 开发"],
    available: true,
  },
  judge3: {
    title: "教授",
    categories: [["人工智能应用"]],
    tags: ["计算机视觉", "自然语言处理"],
    available: false,
    note: "今年下半年在国外访学",
  },
  judge4: { title: "副教授", categories: [["人工智能应用"], ["物联网应用"]], tags: ["物联网", "嵌入式"], available: null },
  // The national contest's judges (national-demo.ts).
  national_judge1: { title: "教授", categories: [["人工智能应用"]], tags: ["机器学习", "计算机视觉"], available: true },
  national_judge2: {
    title: "教授",
    categories: [["人工智能应用"], ["大数据应用"]],
    tags: ["自然语言处理", "大数据"],
    available: true,
  },
  national_judge3: { title: "副教授", categories: [["人工智能应用"]], tags: ["模式识别"], available: true },
  national_judge4: {
    title: "副教授",
    categories: [["人工智能应用"], ["物联网应用"]],
    tags: ["嵌入式智能", "物联网"],
    available: true,
  },
  judge5: {
    title: "高级工程师",
    categories: [["大数据应用"], ["(AI+)信息可视化设计"]],
    tags: ["大数据", "数据可视化"],
    available: true,
    schoolName: "杭州云栖智能科技有限公司",
    province: "浙江省",
  },
};

const POOL_ONLY: { by: "root" | "contest_admin"; person: Omit<JudgePersonCreate, "categoryIds"> & { categories: Cat[] } }[] = [
  {
    by: "root",
    person: {
      name: "孙立群",
      schoolName: "南京大学",
      title: "教授",
      email: MARK,
      phone: "13851000001",
      categories: [["(AI+)数媒静态设计"]],
      tags: ["交互设计", "数字媒体"],
      available: true,
    },
  },
  {
    by: "root",
    person: {
      name: "吴海峰",
      schoolName: "东南大学",
      title: "副教授",
      email: "wuhf@seu.example.edu.cn",
      categories: [["物联网应用"]],
      tags: ["物联网"],
      available: false,
      availabilityNote: "今年带队参赛，需回避",
    },
  },
  {
    by: "contest_admin",
    person: {
      name: "周晓梅",
      schoolName: "浙江师范大学",
      title: "副教授",
      email: "zhouxm@zjnu.example.edu.cn",
      phone: "13957000002",
      categories: [["微课与AI辅助教学"]],
      tags: ["微课与教学"],
      available: true,
    },
  },
  {
    by: "contest_admin",
    person: {
      name: "郑雅文",
      schoolName: "温州大学",
      title: "讲师",
      email: "zhengyw@wzu.example.edu.cn",
      categories: [["(AI+)数媒动漫与短片", "动画"]],
      tags: ["动画", "数字媒体"],
    },
  },
  {
    by: "contest_admin",
    person: {
      name: "王建国",
      schoolName: "浙江理工大学",
      title: "教授",
      email: "wangjg@zstu.example.edu.cn",
      categories: [["软件应用与开发", "管理信息系统"]],
      tags: ["信息管理"],
      available: true,
    },
  },
  {
    by: "contest_admin",
    person: {
      name: "王建国",
      schoolName: "浙江理工大学",
      phone: "13967000003",
      categories: [["大数据应用"]],
      tags: ["数据库"],
      note: "与上一条可能是同一人",
    },
  },
];

export async function seedJudgePoolDemo(db: Db): Promise<boolean> {
  if (await db.selectFrom("judge_person").select("id").where("email", "=", MARK).executeTakeFirst()) return false;
  const cats = await db.selectFrom("work_category").select(["id", "name", "parent_id"]).execute();
  const catId = ([top, sub]: Cat) => {
    const t = cats.find((c) => c.parent_id === null && c.name === top);
    const s = sub ? cats.find((c) => c.parent_id === t?.id && c.name === sub) : t;
    if (!s) throw new Error(`demo category ${top}/${sub ?? ""} missing`);
    return s.id;
  };
  const users = new Map(
    (
      await db
        .selectFrom("app_user")
        .select(["id", "username"])
        .where("username", "in", ["root", "contest_admin", ...Object.keys(JUDGES)])
        .execute()
    ).map((u) => [u.username, u.id]),
  );
  await db.transaction().execute(async (trx) => {
    await linkJudgeAccounts(trx);
    for (const [username, p] of Object.entries(JUDGES)) {
      const userId = users.get(username);
      if (userId === undefined) continue;
      const person = await trx.selectFrom("judge_person").select("id").where("user_id", "=", userId).executeTakeFirstOrThrow();
      await trx
        .updateTable("judge_person")
        .set({ title: p.title, ...(p.schoolName ? { school_name: p.schoolName, province: p.province ?? null } : {}) })
        .where("id", "=", person.id)
        .execute();
      await setCategories(trx, person.id, p.categories.map(catId));
      await setTags(trx, person.id, p.tags);
      await setAvailability(trx, person.id, p.available, p.note ?? "");
    }
    // Last year's Zhejiang contest (defence demo): three of them judged it.
    const past = await trx
      .selectFrom("contest")
      .select(["id", "year"])
      .where("level", "=", "provincial")
      .where("province", "=", "浙江省")
      .where("archived", "=", 1)
      .orderBy("year", "desc")
      .executeTakeFirst();
    if (past) {
      const at = new Date(`${past.year}-07-01T09:00:00+08:00`).toISOString();
      const rows = ["judge", "judge2", "judge3"]
        .filter((u) => users.has(u))
        .map((u) => ({ contest_id: past.id, user_id: users.get(u)!, role: "judge" as const, created_at: at }));
      if (rows.length) await trx.insertInto("contest_member").values(rows).execute();
    }
    for (const { by, person } of POOL_ONLY) {
      const { categories, ...rest } = person;
      await insertPerson(trx, users.get(by) ?? null, { ...rest, categoryIds: categories.map(catId) });
    }
  });
  return true;
}
