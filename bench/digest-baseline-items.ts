/**
 * The to-do items as they were computed before issue 15's batching (one query set per user,
 * and per item), frozen here ONLY as the baseline of `npm run bench:digest`; the platform uses
 * src/server/todo/items.ts. Not imported by anything else.
 */
/**
 * The to-do items of one user, computed from each domain's own state with that domain's
 * scope functions (nothing is copied or stored): co-author confirmations, missing teacher
 * self-evaluations, works waiting for the school, format reviews, unscored works, defence
 * sessions, complaints whose next step is the user's, judge invitations. Which kinds a user
 * gets is the policy's (`todo.<kind>`, `read`); each kind is then scoped like its pages.
 */
import { sql } from "kysely";
import type { Policy } from "../src/shared/access";
import type { ComplaintState } from "../src/shared/complaint/states";
import { COMPLAINT_STATE_NAMES } from "../src/shared/complaint/states";
import { ROLE } from "../src/shared/roles";
import { TODO_KINDS, todoObject, type TodoItem, type TodoKind, type TodoReply } from "../src/shared/todo/schema";
import { EDITABLE_STATES } from "../src/shared/work/states";
import type { Db } from "../src/server/db";
import type { User } from "../src/server/db/schema";
import { principalOf } from "../src/server/plugins/access";
import { reviewScope, reviewWorks } from "../src/server/review/scope";
import { arbitratorSees, findComplaint, handledContests, memberContestIds } from "../src/server/complaint/scope";
import { NEXT_STEP } from "../src/server/complaint/reminders";
import { assignedWorks, judgedContests } from "../src/server/judging/service/judge";
import { workLocksOf } from "../src/server/work/rules";
import { complaintPartyItems } from "../src/server/todo/party";
import { promotionItems } from "../src/server/todo/promotion";

type Stage = "registration" | "school_review" | "format_review" | "online_judging";

/** The end of a contest stage (the first of `stages` that is set), or null. */
async function stageEnd(db: Db, contestId: number, stages: Stage[]): Promise<string | null> {
  const rows = await db
    .selectFrom("contest_stage")
    .select(["stage", "ends_at"])
    .where("contest_id", "=", contestId)
    .where("stage", "in", stages)
    .execute();
  for (const s of stages) {
    const r = rows.find((x) => x.stage === s);
    if (r) return r.ends_at;
  }
  return null;
}

type Producer = (db: Db, user: User, now: Date) => Promise<TodoItem[]>;

/** A co-author asked to confirm taking part: one item per work, answered in place on /index. */
const coauthor: Producer = async (db, user) => {
  const rows = await db
    .selectFrom("work_author as a")
    .innerJoin("work", "work.id", "a.work_id")
    .innerJoin("contest", "contest.id", "work.contest_id")
    .select(["work.id", "work.name", "work.version", "work.contest_id", "contest.name as contest_name"])
    .where("a.user_id", "=", user.id)
    .where("a.confirmed", "=", 0)
    .where("work.status", "!=", "disqualified")
    .orderBy("work.id")
    .execute();
  const out: TodoItem[] = [];
  for (const r of rows) {
    out.push({
      key: `coauthor:${r.id}`,
      kind: "coauthor",
      title: `确认参加作品《${r.name}》`,
      detail: `${r.contest_name} · 编号 ${r.id} · 确认后第一作者才能提交`,
      count: 1,
      dueAt: await stageEnd(db, r.contest_id, ["registration"]),
      link: `/author/work-management?work=${r.id}`,
      menu: "/author/work-management",
      workId: Number(r.id),
      version: r.version,
    });
  }
  return out;
};

/** The advising teacher's 指导老师自评 missing on a draft or returned work whose 大类 requires it (and the field is not locked). */
const teacherReview: Producer = async (db, user, now) => {
  const rows = await db
    .selectFrom("work_teacher as t")
    .innerJoin("work", "work.id", "t.work_id")
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .innerJoin("contest", "contest.id", "work.contest_id")
    .select(["work.id", "work.name", "work.contest_id", "contest.name as contest_name"])
    .where("t.user_id", "=", user.id)
    .where("cat.teacher_review_required", "=", 1)
    .where("work.status", "in", [...EDITABLE_STATES])
    .where((eb) => eb.or([eb("work.teacher_review", "is", null), eb(sql`trim(${sql.ref("work.teacher_review")})`, "=", "")]))
    .orderBy("work.id")
    .execute();
  const out: TodoItem[] = [];
  for (const r of rows) {
    if ((await workLocksOf(db, { id: Number(r.id), contest_id: r.contest_id }, now)).has("teacherReview")) continue;
    out.push({
      key: `teacherReview:${r.id}`,
      kind: "teacherReview",
      title: `填写《${r.name}》的指导老师自评`,
      detail: `${r.contest_name} · 编号 ${r.id} · 本作品大类要求提交前填写`,
      count: 1,
      dueAt: await stageEnd(db, r.contest_id, ["registration"]),
      link: `/teacher/WorkManagement?review=${r.id}`,
      menu: "/teacher/WorkManagement",
    });
  }
  return out;
};

/** The school admin's own school: works submitted (to review) and approved (to recommend), per contest. */
const schoolReview: Producer = async (db, user) => {
  if (user.school_id === null) return [];
  const rows = await db
    .selectFrom("work")
    .innerJoin("contest", "contest.id", "work.contest_id")
    .select(["work.contest_id", "contest.name as contest_name", "work.status", (eb) => eb.fn.countAll<number>().as("n")])
    .where("work.school_id", "=", user.school_id)
    .where("work.status", "in", ["submitted", "school_approved"])
    .groupBy(["work.contest_id", "contest.name", "work.status"])
    .orderBy("work.contest_id")
    .execute();
  const out: TodoItem[] = [];
  for (const r of rows) {
    const review = r.status === "submitted";
    out.push({
      key: `schoolReview:${r.contest_id}:${r.status}`,
      kind: "schoolReview",
      title: review ? `${Number(r.n)} 件作品待学校审核` : `${Number(r.n)} 件已审核作品待推荐`,
      detail: r.contest_name,
      count: Number(r.n),
      dueAt: await stageEnd(db, r.contest_id, ["school_review", "registration"]),
      link: `/school/WorkManagement?status=${r.status}`,
      menu: "/school/WorkManagement",
    });
  }
  return out;
};

/** Works waiting for format review in the contests the user reviews (reviewer membership, or a contest admin's contests). */
const formatReview: Producer = async (db, user) => {
  const scope = await reviewScope(db, user);
  if (scope === "all" || !scope.length) return [];
  const contests = await db
    .selectFrom("contest")
    .select(["id", "name"])
    .where("id", "in", scope)
    .where("level", "!=", "school")
    .where("archived", "=", 0)
    .orderBy("id")
    .execute();
  const admin = user.user_type === ROLE.contestAdmin;
  const out: TodoItem[] = [];
  for (const c of contests) {
    const n = Number(
      (
        await reviewWorks(db, c.id, ["accepted", "format_resubmitted"])
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    if (!n) continue;
    out.push({
      key: `formatReview:${c.id}`,
      kind: "formatReview",
      title: `${n} 件作品待形式审查`,
      detail: c.name,
      count: n,
      dueAt: await stageEnd(db, c.id, ["format_review"]),
      link: admin ? `/WorkManagement?contestId=${c.id}` : `/ContestReviewer/Review/${c.id}`,
      menu: admin ? "/WorkManagement" : "/ContestReviewer/SelectContest",
    });
  }
  return out;
};

/** The judge's assigned works without a submitted score, per contest, while its online judging has not ended. */
const judging: Producer = async (db, user, now) => {
  const out: TodoItem[] = [];
  for (const c of await judgedContests(db, user)) {
    const end = await stageEnd(db, c.id, ["online_judging"]);
    if (end && Date.parse(end) <= now.getTime()) continue;
    const n = Number(
      (
        await assignedWorks(db, user, c)
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom("judge_score as s")
                  .select("s.id")
                  .whereRef("s.work_id", "=", "work.id")
                  .where("s.contest_id", "=", c.id)
                  .where("s.judge_id", "=", user.id)
                  .where("s.status", "=", "submitted")
                  .where("s.superseded_at", "is", null),
              ),
            ),
          )
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    if (!n) continue;
    const school = c.as === "school_contest_judge";
    out.push({
      key: `judging:${c.id}`,
      kind: "judging",
      title: `${n} 件作品待评分`,
      detail: `${c.name}${end ? " · 网络评审截止" : ""}`,
      count: n,
      dueAt: end,
      link: school ? `/teacher/SchoolContestJudge/${c.id}` : `/judge/Online/${c.id}`,
      menu: "/judge",
    });
  }
  return out;
};

/** Defence sessions of the judge's groups (member or 专家组长) not yet signed off. */
const defence: Producer = async (db, user, now) => {
  const contests = (await judgedContests(db, user)).filter((c) => c.as === "judge");
  if (!contests.length) return [];
  const rows = await db
    .selectFrom("defence_session as s")
    .innerJoin("judge_group as g", "g.id", "s.group_id")
    .innerJoin("contest", "contest.id", "s.contest_id")
    .select([
      "s.id",
      "s.contest_id",
      "s.starts_at",
      "s.place",
      "g.name as group_name",
      "contest.name as contest_name",
      "g.leader_id",
      (eb) =>
        eb
          .selectFrom("defence_slot")
          .select((e) => e.fn.countAll<number>().as("n"))
          .whereRef("defence_slot.session_id", "=", "s.id")
          .as("works"),
    ])
    .where(
      "s.contest_id",
      "in",
      contests.map((c) => c.id),
    )
    .where("s.signed_off_at", "is", null)
    .where((eb) =>
      eb.or([
        eb("g.leader_id", "=", user.id),
        eb("s.group_id", "in", eb.selectFrom("judge_group_member").select("group_id").where("user_id", "=", user.id)),
      ]),
    )
    .orderBy("s.starts_at")
    .orderBy("s.id")
    .execute();
  return rows
    .filter((s) => !s.starts_at || Date.parse(s.starts_at) > now.getTime() - 7 * 86400_000)
    .map((s) => ({
      key: `defence:${s.id}`,
      kind: "defence" as const,
      title: `${s.group_name}现场答辩${s.leader_id === user.id ? "（专家组长，评分后签署）" : ""}`,
      detail: `${s.contest_name}${s.place ? ` · ${s.place}` : ""} · ${Number(s.works ?? 0)} 件作品`,
      count: Math.max(1, Number(s.works ?? 0)),
      dueAt: s.starts_at,
      link: `/judge/Offline/${s.contest_id}`,
      menu: "/judge",
    }));
};

const COMPLAINT_PAGES: Record<string, string> = { arbitration_requested: "/Arbitrate", arbitrated: "/admin/ArbitrateManagement" };

/** Complaints whose next step is the user's (the reminders' rule), in the contests the user handles or arbitrates. */
const complaint: Producer = async (db, user) => {
  const states = (Object.keys(NEXT_STEP) as ComplaintState[]).filter((s) => NEXT_STEP[s]!.roles.includes(user.user_type));
  if (!states.length) return [];
  const arbitrator = user.user_type === ROLE.arbitrator;
  let scope: number[] | "all";
  if (arbitrator) scope = await memberContestIds(db, user.id, "arbitrator");
  else if (states.every((s) => NEXT_STEP[s]!.member === null)) scope = user.user_type === ROLE.root ? "all" : [];
  else scope = await handledContests(db, user);
  if (scope !== "all" && !scope.length) return [];
  let q = db
    .selectFrom("complaint")
    .innerJoin("work", "work.id", "complaint.work_id")
    .select([
      "complaint.id",
      "complaint.state",
      "complaint.due_at",
      "complaint.arbitration_due_at",
      "work.id as work_id",
      "work.name",
    ])
    .where("complaint.state", "in", states);
  if (scope !== "all") q = q.where("complaint.contest_id", "in", scope);
  const rows = await q.orderBy("complaint.due_at").orderBy("complaint.id").limit(500).execute();
  const out: TodoItem[] = [];
  for (const r of rows) {
    if (arbitrator && !(await arbitratorSees(db, user, (await findComplaint(db, r.id))!))) continue;
    const page = COMPLAINT_PAGES[r.state] ?? "/ComplaintManagement";
    out.push({
      key: `complaint:${r.id}:${r.state}`,
      kind: "complaint",
      title: `申诉 #${r.id}：${COMPLAINT_STATE_NAMES[r.state as ComplaintState]}`,
      detail: `作品 ${r.work_id}《${r.name}》`,
      count: 1,
      dueAt: r.due_at,
      link: page === "/admin/ArbitrateManagement" ? page : `${page}?id=${r.id}`,
      menu: page,
    });
  }
  return out;
};

/** Judge invitations sent to the account's email and still open. */
const judgeInvite: Producer = async (db, user, now) => {
  if (!user.email) return [];
  const rows = await db
    .selectFrom("judge_invitation as i")
    .innerJoin("contest", "contest.id", "i.contest_id")
    .select(["i.id", "i.answer_by", "contest.name as contest_name"])
    .where("i.email", "=", user.email.trim().toLowerCase())
    .where("i.status", "=", "sent")
    .where("i.answer_by", ">", now.toISOString())
    .orderBy("i.answer_by")
    .execute();
  return rows.map((r) => ({
    key: `judgeInvite:${r.id}`,
    kind: "judgeInvite" as const,
    title: `答复「${r.contest_name}」的评委邀请`,
    detail: "接受或谢绝邀请",
    count: 1,
    dueAt: r.answer_by,
    link: "/judgePool",
    menu: "/judgePool",
  }));
};

const PRODUCERS: Record<TodoKind, Producer> = {
  coauthor,
  teacherReview,
  schoolReview,
  formatReview,
  judging,
  defence,
  complaint,
  // Added after the baseline (issue 29): the platform's own producers, one user at a time.
  complaintParty: async (db, user, now) => (await complaintPartyItems(db, [user], now)).get(user.id) ?? [],
  judgeInvite,
  promotion: async (db, user, now) => (await promotionItems(db, [user], now)).get(user.id) ?? [],
};

/** The kinds the policy gives this user. */
export async function kindsOf(policy: Policy, user: User): Promise<TodoKind[]> {
  const p = principalOf(user);
  const out: TodoKind[] = [];
  for (const k of TODO_KINDS) if (await policy.can(p, todoObject(k), "read")) out.push(k);
  return out;
}

const byDue = (a: TodoItem, b: TodoItem) => (a.dueAt ?? "9999").localeCompare(b.dueAt ?? "9999");

export async function todoItems(db: Db, policy: Policy, user: User, now = new Date()): Promise<TodoItem[]> {
  const out: TodoItem[] = [];
  for (const k of await kindsOf(policy, user)) out.push(...(await PRODUCERS[k](db, user, now)).sort(byDue));
  return out;
}

export function summarise(items: TodoItem[]): TodoReply {
  const badges: Record<string, number> = {};
  for (const i of items) badges[i.menu] = (badges[i.menu] ?? 0) + i.count;
  return { items, badges, total: items.reduce((s, i) => s + i.count, 0) };
}
