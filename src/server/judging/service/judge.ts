/**
 * What a judge sees (/judge, /judge/Online/:contestId): the contests they judge in, the
 * works assigned to them there — only those, and only while the contest still judges the
 * work — and one assigned work's judging view: its fields, attachments and the rubric of
 * its category, without authors, teachers, school or the teacher's self-evaluation (blind
 * review). Everything else, a work of the judge's own school included, answers 404 — the
 * same reply whether the work exists or not.
 *
 * Judges are role-4 contest_member "judge" users; users flagged as school-contest judges
 * (teachers) judge their own school's school-level contest.
 */
import { notFound } from "../../../shared/errors";
import { ROLE } from "../../../shared/roles";
import { GROUP_NAMES, FIELDS, type WorkField } from "../../../shared/work/fields";
import type { JudgeContest, JudgeWorkItem, JudgeWorkView } from "../../../shared/judging/schema";
import type { Deduction } from "../../../shared/work-type/schema";
import type { Db } from "../../db";
import type { User } from "../../db/schema";
import { currentFiles, requirementsOf, toFileView } from "../../work/files/repository";
import * as repo from "../../work/repository";
import { parseAi } from "../../work/view";
import { as404, poolWorks, type ContestInfo } from "./contest";

export const NOT_JUDGED = "赛事不存在或您不是该赛事的评委";
export const NOT_ASSIGNED = "作品不存在或未分配给您";

/** The fields a judge sees, in the order of the registration form (no 指导老师自评: it names people). */
const JUDGE_FIELDS: WorkField[] = [
  "summary",
  "designIdea",
  "keyPoints",
  "openSource",
  "installGuide",
  "otherNotes",
  "deployLink1",
  "deployLink2",
];

export interface JudgedContest extends ContestInfo {
  year: number;
  as: JudgeContest["as"];
}

export async function judgedContests(db: Db, user: User): Promise<JudgedContest[]> {
  return (await judgedContestsOf(db, [user])).get(user.id) ?? [];
}

/** judgedContests for many users at once (the to-do digest's pages of users): two queries in all. */
export async function judgedContestsOf(db: Db, users: readonly User[]): Promise<Map<number, JudgedContest[]>> {
  const cols = ["contest.id", "contest.name", "contest.level", "contest.school_id", "contest.year"] as const;
  const out = new Map<number, JudgedContest[]>();
  const judges = users.filter((u) => u.user_type === ROLE.judge).map((u) => u.id);
  if (judges.length) {
    const rows = await db
      .selectFrom("contest")
      .innerJoin("contest_member", "contest_member.contest_id", "contest.id")
      .select([...cols, "contest_member.user_id"])
      .where("contest_member.user_id", "in", judges)
      .where("contest_member.role", "=", "judge")
      .where("contest.archived", "=", 0)
      .execute();
    for (const { user_id, ...r } of rows) out.set(user_id, [...(out.get(user_id) ?? []), { ...r, as: "judge" as const }]);
  }
  const schoolJudges = users.filter((u) => u.is_school_contest_judge && u.school_id !== null);
  if (schoolJudges.length) {
    const rows = await db
      .selectFrom("contest")
      .select(cols)
      .where("contest.level", "=", "school")
      .where("contest.school_id", "in", [...new Set(schoolJudges.map((u) => u.school_id!))])
      .where("contest.archived", "=", 0)
      .execute();
    for (const u of schoolJudges) {
      const mine = out.get(u.id) ?? [];
      for (const r of rows)
        if (r.school_id === u.school_id && !mine.some((o) => o.id === r.id))
          mine.push({ ...r, as: "school_contest_judge" as const });
      out.set(u.id, mine);
    }
  }
  for (const list of out.values()) list.sort((a, b) => b.year - a.year || a.id - b.id);
  return out;
}

export async function requireJudgedContest(db: Db, user: User, contestId: number): Promise<JudgedContest> {
  const c = (await judgedContests(db, user)).find((x) => x.id === contestId);
  if (!c) throw notFound(NOT_JUDGED);
  return c;
}

/**
 * The assignments (judge_assignment as "ja", its work as "aw", the judge as "ju") of `judgeIds`
 * in contest c whose work the contest still judges — never a work of the judge's own school
 * outside a school contest. No columns selected. The one definition of "assigned to the judge":
 * assignedWorks is it for one judge, the to-do digest counts it for many at once.
 */
export function assignmentsOf(db: Db, c: ContestInfo, judgeIds: readonly number[]) {
  let q = db
    .selectFrom("judge_assignment as ja")
    .innerJoin("work as aw", "aw.id", "ja.work_id")
    .innerJoin("app_user as ju", "ju.id", "ja.judge_id")
    .where("ja.contest_id", "=", c.id)
    .where("ja.judge_id", "in", [...judgeIds])
    .where("ja.work_id", "in", poolWorks(db, c).select("work.id"));
  if (c.level !== "school")
    q = q.where((eb) => eb.or([eb("ju.school_id", "is", null), eb("aw.school_id", "!=", eb.ref("ju.school_id"))]));
  return q;
}

/** The judge's assigned works the contest still judges (assignmentsOf), as a query on "work". */
export function assignedWorks(db: Db, user: User, c: ContestInfo) {
  return db.selectFrom("work").where("work.id", "in", assignmentsOf(db, c, [user.id]).select("ja.work_id"));
}

export async function myJudgeContests(db: Db, user: User): Promise<JudgeContest[]> {
  const out: JudgeContest[] = [];
  for (const c of await judgedContests(db, user)) {
    const n = await assignedWorks(db, user, c)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const groups = await db
      .selectFrom("judge_group_member")
      .innerJoin("judge_group", "judge_group.id", "judge_group_member.group_id")
      .select("judge_group.name")
      .where("judge_group.contest_id", "=", c.id)
      .where("judge_group_member.user_id", "=", user.id)
      .orderBy("judge_group.id")
      .execute();
    out.push({
      id: c.id,
      name: c.name,
      level: c.level,
      year: c.year,
      as: c.as,
      assigned: Number(n.n),
      groups: groups.map((g) => g.name),
    });
  }
  return out;
}

export const withNames = (q: ReturnType<typeof assignedWorks>, contestId: number) =>
  q
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .leftJoin("work_category as sub", "sub.id", "work.subcategory_id")
    .leftJoin("judge_group_work as gw", (j) => j.onRef("gw.work_id", "=", "work.id").on("gw.contest_id", "=", contestId))
    .leftJoin("judge_group as jg", "jg.id", "gw.group_id")
    .select([
      "work.id",
      "work.name",
      "work.category_id",
      "cat.name as category_name",
      "work.subcategory_id",
      "sub.name as subcategory_name",
      "work.group_type",
      "jg.id as jg_id",
      "jg.name as jg_name",
    ]);

type NamedRow = Awaited<ReturnType<ReturnType<typeof withNames>["executeTakeFirstOrThrow"]>>;
export const toItem = (r: NamedRow): JudgeWorkItem => ({
  id: Number(r.id),
  name: r.name,
  category: { id: r.category_id, name: r.category_name },
  subcategory: r.subcategory_id !== null ? { id: r.subcategory_id, name: r.subcategory_name ?? "" } : null,
  group: r.group_type,
  judgeGroup: r.jg_id !== null ? { id: r.jg_id, name: r.jg_name ?? "" } : null,
});

export async function myAssignedWorks(db: Db, user: User, contestId: number): Promise<JudgeWorkItem[]> {
  const c = await requireJudgedContest(db, user, contestId);
  const rows = await withNames(assignedWorks(db, user, c), c.id)
    .orderBy("work.id")
    .execute();
  const own = await repo.nationalFieldsOf(
    db,
    c.id,
    rows.map((r) => Number(r.id)),
  );
  return rows.map((r) => ({ ...toItem(r), name: own.get(Number(r.id))?.name ?? r.name }));
}

/** The assigned work, or 404 — also for a contest the user does not judge. */
export async function requireAssigned(db: Db, user: User, contestId: number, workId: number) {
  const c = await requireJudgedContest(db, user, contestId).catch(as404(NOT_ASSIGNED));
  const row = await withNames(assignedWorks(db, user, c), c.id)
    .where("work.id", "=", workId)
    .executeTakeFirst();
  if (!row) throw notFound(NOT_ASSIGNED);
  return { c, row };
}

export async function judgeWorkView(db: Db, user: User, contestId: number, workId: number): Promise<JudgeWorkView> {
  const { c, row } = await requireAssigned(db, user, contestId, workId);
  // A national entry is judged on its own values of the fields changed in the national round (migration 0029).
  const w = { ...(await repo.findWork(db, workId))!, ...(await repo.nationalFieldsOf(db, c.id, [workId])).get(workId) };
  const requirements = await requirementsOf(db, w.category_id);
  const files = (await currentFiles(db, w.id)).map((f) => {
    const { uploadedBy: _u, ...rest } = toFileView(f, requirements);
    return rest;
  });
  const items = await db
    .selectFrom("rubric_item")
    .select(["id", "name", "max_points", "description", "sort"])
    .where("category_id", "=", w.category_id)
    .orderBy("sort")
    .orderBy("id")
    .execute();
  const cat = await db.selectFrom("work_category").select("deductions").where("id", "=", w.category_id).executeTakeFirstOrThrow();
  return {
    ...toItem(row),
    name: w.name,
    contest: { id: c.id, name: c.name },
    groupName: GROUP_NAMES[w.group_type],
    fields: [
      { key: "name", label: FIELDS.name.label, value: w.name },
      ...JUDGE_FIELDS.map((k) => ({ key: k, label: FIELDS[k].label, value: w[repo.COLUMN[k]] as string | null })),
    ],
    aiDeclaration: parseAi(w.ai_declaration),
    files,
    rubric: {
      items: items.map((i) => ({ id: i.id, name: i.name, maxPoints: i.max_points, description: i.description, sort: i.sort })),
      deductions: JSON.parse(cat.deductions) as Deduction[],
      total: items.reduce((s, i) => s + i.max_points, 0),
    },
  };
}

/** A current attachment of an assigned work, for the judge's download. */
export async function judgeFile(db: Db, user: User, contestId: number, workId: number, fileId: number) {
  await requireAssigned(db, user, contestId, workId);
  const f = (await currentFiles(db, workId)).find((x) => x.id === fileId);
  if (!f) throw notFound("附件不存在");
  return f;
}
