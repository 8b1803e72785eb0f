/**
 * The to-do items of users, computed from each domain's own state with that domain's scope
 * functions (nothing is copied or stored): co-author confirmations, missing teacher
 * self-evaluations, works waiting for the school, format reviews, unscored works, defence
 * sessions, complaints whose next step is the user's, judge invitations. Which kinds a user
 * gets is the policy's (`todo.<kind>`, `read`); each kind is then scoped like its pages.
 *
 * Every kind is computed for a set of users at once (set-based queries for the whole set:
 * the daily digest passes pages of users); the endpoint is the same function for one user,
 * so the digest and /index can never disagree.
 */
import { sql } from "kysely";
import type { Policy } from "../../shared/access";
import type { ComplaintState } from "../../shared/complaint/states";
import { COMPLAINT_STATE_NAMES } from "../../shared/complaint/states";
import { ROLE } from "../../shared/roles";
import { TODO_KINDS, todoObject, type TodoItem, type TodoKind, type TodoReply } from "../../shared/todo/schema";
import { EDITABLE_STATES } from "../../shared/work/states";
import type { Db } from "../db";
import type { User } from "../db/schema";
import { principalOf } from "../plugins/access";
import { reviewScope, reviewWorks } from "../review/scope";
import { arbitratorSees, findComplaint, handledContests, memberContestIds } from "../complaint/scope";
import { NEXT_STEP } from "../complaint/reminders";
import { assignmentsOf, judgedContestsOf, type JudgedContest } from "../judging/service/judge";
import { slotTime } from "../judging/draw";
import { workLocksOfMany } from "../work/rules";
import { complaintLabel } from "../../shared/complaint/labels";
import { complaintPartyItems } from "./party";
import { promotionItems } from "./promotion";

type Stage = "registration" | "school_review" | "format_review" | "online_judging";

/** The end of each contest's stage (the first of `stages` that is set), or null: one query for all the contests. */
async function stageEnds(db: Db, contestIds: Iterable<number>, stages: Stage[]): Promise<Map<number, string | null>> {
  const ids = [...new Set(contestIds)];
  const out = new Map<number, string | null>(ids.map((id) => [id, null]));
  if (!ids.length) return out;
  const rows = await db
    .selectFrom("contest_stage")
    .select(["contest_id", "stage", "ends_at"])
    .where("contest_id", "in", ids)
    .where("stage", "in", stages)
    .execute();
  for (const id of ids) {
    for (const st of stages) {
      const r = rows.find((x) => x.contest_id === id && x.stage === st);
      if (r) {
        out.set(id, r.ends_at);
        break;
      }
    }
  }
  return out;
}

/** Items per user id. */
type Items = Map<number, TodoItem[]>;
/** One kind's items for a set of users (those the policy gives the kind), set-based. */
type Producer = (db: Db, users: User[], now: Date) => Promise<Items>;

const push = (out: Items, userId: number, item: TodoItem) => {
  const list = out.get(userId);
  if (list) list.push(item);
  else out.set(userId, [item]);
};
const ids = (users: User[]) => users.map((u) => u.id);

/** A co-author asked to confirm taking part: one item per work, answered in place on /index. */
const coauthor: Producer = async (db, users) => {
  const rows = await db
    .selectFrom("work_author as a")
    .innerJoin("work", "work.id", "a.work_id")
    .innerJoin("contest", "contest.id", "work.contest_id")
    // Its registration end (the due date; contest_stage has at most one row per contest and stage): no second round trip.
    .leftJoin("contest_stage as reg", (j) =>
      j.onRef("reg.contest_id", "=", "work.contest_id").on("reg.stage", "=", "registration"),
    )
    .select([
      "a.user_id",
      "work.id",
      "work.name",
      "work.version",
      "work.contest_id",
      "contest.name as contest_name",
      "reg.ends_at as due_at",
    ])
    .where("a.user_id", "in", ids(users))
    .where("a.confirmed", "=", 0)
    .where("work.status", "!=", "disqualified")
    .orderBy("work.id")
    .execute();
  const out: Items = new Map();
  for (const r of rows) {
    push(out, r.user_id, {
      key: `coauthor:${r.id}`,
      kind: "coauthor",
      title: `确认参加作品《${r.name}》`,
      detail: `${r.contest_name} · 编号 ${r.id} · 确认后第一作者才能提交`,
      count: 1,
      dueAt: r.due_at ?? null,
      link: `/author/work-management?work=${r.id}`,
      menu: "/author/work-management",
      workId: Number(r.id),
      version: r.version,
    });
  }
  return out;
};

/** The advising teacher's 指导老师自评 missing on a draft or returned work whose 大类 requires it (and the field is not locked). */
const teacherReview: Producer = async (db, users, now) => {
  const rows = await db
    .selectFrom("work_teacher as t")
    .innerJoin("work", "work.id", "t.work_id")
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .innerJoin("contest", "contest.id", "work.contest_id")
    // Its registration end (the due date; contest_stage has at most one row per contest and stage): no second round trip.
    .leftJoin("contest_stage as reg", (j) =>
      j.onRef("reg.contest_id", "=", "work.contest_id").on("reg.stage", "=", "registration"),
    )
    .select(["t.user_id", "work.id", "work.name", "work.contest_id", "contest.name as contest_name", "reg.ends_at as due_at"])
    .where("t.user_id", "in", ids(users))
    .where("cat.teacher_review_required", "=", 1)
    .where("work.status", "in", [...EDITABLE_STATES])
    .where((eb) => eb.or([eb("work.teacher_review", "is", null), eb(sql`trim(${sql.ref("work.teacher_review")})`, "=", "")]))
    .orderBy("work.id")
    .execute();
  const locks = await workLocksOfMany(
    db,
    rows.map((r) => ({ id: Number(r.id), contest_id: r.contest_id })),
    now,
  );
  const out: Items = new Map();
  for (const r of rows) {
    if (locks.get(Number(r.id))!.has("teacherReview")) continue;
    push(out, r.user_id, {
      key: `teacherReview:${r.id}`,
      kind: "teacherReview",
      title: `填写《${r.name}》的指导老师自评`,
      detail: `${r.contest_name} · 编号 ${r.id} · 本作品大类要求提交前填写`,
      count: 1,
      dueAt: r.due_at ?? null,
      link: `/teacher/WorkManagement?review=${r.id}`,
      menu: "/teacher/WorkManagement",
    });
  }
  return out;
};

/** The school admin's own school: works submitted (to review) and approved (to recommend), per contest. */
const schoolReview: Producer = async (db, users) => {
  const schools = [...new Set(users.filter((u) => u.school_id !== null).map((u) => u.school_id!))];
  if (!schools.length) return new Map();
  const rows = await db
    .selectFrom("work")
    .innerJoin("contest", "contest.id", "work.contest_id")
    .select([
      "work.school_id",
      "work.contest_id",
      "contest.name as contest_name",
      "work.status",
      (eb) => eb.fn.countAll<number>().as("n"),
    ])
    .where("work.school_id", "in", schools)
    .where("work.status", "in", ["submitted", "school_approved"])
    .groupBy(["work.school_id", "work.contest_id", "contest.name", "work.status"])
    .orderBy("work.contest_id")
    .orderBy("work.status")
    .execute();
  const ends = await stageEnds(
    db,
    rows.map((r) => r.contest_id),
    ["school_review", "registration"],
  );
  const out: Items = new Map();
  for (const u of users) {
    for (const r of rows) {
      if (r.school_id !== u.school_id) continue;
      const review = r.status === "submitted";
      push(out, u.id, {
        key: `schoolReview:${r.contest_id}:${r.status}`,
        kind: "schoolReview",
        title: review ? `${Number(r.n)} 件作品待学校审核` : `${Number(r.n)} 件已审核作品待推荐`,
        detail: r.contest_name,
        count: Number(r.n),
        dueAt: ends.get(r.contest_id) ?? null,
        link: `/school/WorkManagement?status=${r.status}`,
        menu: "/school/WorkManagement",
      });
    }
  }
  return out;
};

/** The states waiting for a format review step (the item's count and the works list's filter). */
const FORMAT_PENDING = ["accepted", "format_resubmitted"] as const;

const directAdminContests = async (db: Db, userId: number) =>
  (
    await db.selectFrom("contest_member").select("contest_id").where("user_id", "=", userId).where("role", "=", "admin").execute()
  ).map((r) => r.contest_id);

/**
 * Works waiting for format review in the contests the user reviews (reviewer membership, or a
 * contest admin's contests): each user's scope (reviewScope: reviewers and contest admins are
 * few), then each contest's count once for all of them.
 */
const formatReview: Producer = async (db, users) => {
  const scopes = new Map<number, number[]>();
  for (const u of users) {
    // A contest admin's own contests only: a national admin's scope also holds the provincial
    // contests below, whose format review is their own admins' (issue 29).
    const scope = u.user_type === ROLE.contestAdmin ? await directAdminContests(db, u.id) : await reviewScope(db, u);
    if (scope !== "all" && scope.length) scopes.set(u.id, scope);
  }
  const wanted = [...new Set([...scopes.values()].flat())];
  if (!wanted.length) return new Map();
  const contests = await db
    .selectFrom("contest")
    .select(["id", "name"])
    .where("id", "in", wanted)
    .where("level", "!=", "school")
    .where("archived", "=", 0)
    .orderBy("id")
    .execute();
  const counts = new Map<number, number>();
  for (const c of contests)
    counts.set(
      c.id,
      Number(
        (
          await reviewWorks(db, c.id, FORMAT_PENDING)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );
  const ends = await stageEnds(
    db,
    contests.filter((c) => counts.get(c.id)).map((c) => c.id),
    ["format_review"],
  );
  const out: Items = new Map();
  for (const u of users) {
    const scope = scopes.get(u.id);
    if (!scope) continue;
    const admin = u.user_type === ROLE.contestAdmin;
    for (const c of contests) {
      const n = counts.get(c.id)!;
      if (!n || !scope.includes(c.id)) continue;
      push(out, u.id, {
        key: `formatReview:${c.id}`,
        kind: "formatReview",
        title: `${n} 件作品待形式审查`,
        detail: c.name,
        count: n,
        dueAt: ends.get(c.id) ?? null,
        link: admin ? `/WorkManagement?contestId=${c.id}&status=${FORMAT_PENDING.join(",")}` : `/ContestReviewer/Review/${c.id}`,
        menu: admin ? "/WorkManagement" : "/ContestReviewer/SelectContest",
      });
    }
  }
  return out;
};

/** The judge's assigned works without a submitted score, per contest, while its online judging has not ended: one count per contest, grouped by judge. */
const judging: Producer = async (db, users, now) => {
  const judged = await judgedContestsOf(db, users);
  const byContest = new Map<number, { c: JudgedContest; judges: number[] }>();
  for (const [userId, list] of judged)
    for (const c of list) {
      const e = byContest.get(c.id) ?? { c, judges: [] };
      e.judges.push(userId);
      byContest.set(c.id, e);
    }
  const ends = await stageEnds(db, byContest.keys(), ["online_judging"]);
  const counts = new Map<string, number>();
  for (const { c, judges } of byContest.values()) {
    const end = ends.get(c.id) ?? null;
    if (end && Date.parse(end) <= now.getTime()) continue;
    const rows = await assignmentsOf(db, c, judges)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("judge_score as s")
              .select("s.id")
              .whereRef("s.work_id", "=", "ja.work_id")
              .where("s.contest_id", "=", c.id)
              .whereRef("s.judge_id", "=", "ja.judge_id")
              .where("s.status", "=", "submitted")
              .where("s.superseded_at", "is", null),
          ),
        ),
      )
      .select(["ja.judge_id", (eb) => eb.fn.count<number>("ja.work_id").distinct().as("n")])
      .groupBy("ja.judge_id")
      .execute();
    for (const r of rows) counts.set(`${r.judge_id}:${c.id}`, Number(r.n));
  }
  const out: Items = new Map();
  for (const u of users) {
    for (const c of judged.get(u.id) ?? []) {
      const n = counts.get(`${u.id}:${c.id}`);
      if (!n) continue;
      const end = ends.get(c.id) ?? null;
      const school = c.as === "school_contest_judge";
      push(out, u.id, {
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
  }
  return out;
};

/** A defence session leaves the to-do centre this long after it ended (its last work's slot). */
export const DEFENCE_KEPT_MS = 7 * 86400_000;

/** When a session ends: its start plus every work's slot; null without a start. */
export const sessionEnd = (startsAt: string | null, works: number, minutesPerWork: number) =>
  slotTime(startsAt, works + 1, minutesPerWork);

/** Defence sessions of the judge's groups (member or 专家组长) not yet signed off, until 7 days after the session ended. */
const defence: Producer = async (db, users, now) => {
  const judged = await judgedContestsOf(db, users);
  const contestsOf = new Map<number, Set<number>>();
  for (const [userId, list] of judged) {
    const mine = list.filter((c) => c.as === "judge").map((c) => c.id);
    if (mine.length) contestsOf.set(userId, new Set(mine));
  }
  if (!contestsOf.size) return new Map();
  const judges = [...contestsOf.keys()];
  const contests = [...new Set([...contestsOf.values()].flatMap((s) => [...s]))];
  const participants = db
    .selectFrom("judge_group_member")
    .select(["judge_group_member.group_id as group_id", "judge_group_member.user_id as user_id"])
    .where("judge_group_member.user_id", "in", judges)
    .union(
      db
        .selectFrom("judge_group")
        .select(["judge_group.id as group_id", "judge_group.leader_id as user_id"])
        .where("judge_group.leader_id", "in", judges)
        .$narrowType<{ user_id: number }>(),
    );
  const rows = await db
    .selectFrom("defence_session as s")
    .innerJoin("judge_group as g", "g.id", "s.group_id")
    .innerJoin("contest", "contest.id", "s.contest_id")
    .innerJoin(participants.as("p"), "p.group_id", "s.group_id")
    .select([
      "p.user_id",
      "s.id",
      "s.contest_id",
      "s.starts_at",
      "s.minutes_per_work",
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
    .where("s.contest_id", "in", contests)
    .where("s.signed_off_at", "is", null)
    .orderBy("s.starts_at")
    .orderBy("s.id")
    .execute();
  const out: Items = new Map();
  for (const s of rows) {
    const userId = Number(s.user_id);
    if (!contestsOf.get(userId)?.has(s.contest_id)) continue;
    const works = Number(s.works ?? 0);
    const end = sessionEnd(s.starts_at, works, s.minutes_per_work);
    if (end && Date.parse(end) <= now.getTime() - DEFENCE_KEPT_MS) continue;
    push(out, userId, {
      key: `defence:${s.id}`,
      kind: "defence" as const,
      title: `${s.group_name}现场答辩${s.leader_id === userId ? "（专家组长，评分后签署）" : ""}`,
      detail: `${s.contest_name}${s.place ? ` · ${s.place}` : ""} · ${works} 件作品`,
      count: Math.max(1, works),
      dueAt: s.starts_at,
      link: `/judge/Offline/${s.contest_id}`,
      menu: "/judge",
    });
  }
  return out;
};

const COMPLAINT_PAGES: Record<string, string> = { arbitration_requested: "/Arbitrate", arbitrated: "/admin/ArbitrateManagement" };

/**
 * Complaints whose next step is the user's (the reminders' rule), in the contests the user
 * handles or arbitrates: each handler's scope (handlers are few), then one query for all.
 */
const complaint: Producer = async (db, users) => {
  const who = new Map<number, { user: User; states: ComplaintState[]; scope: number[] | "all"; arbitrator: boolean }>();
  for (const user of users) {
    const states = (Object.keys(NEXT_STEP) as ComplaintState[]).filter((s) => NEXT_STEP[s]!.roles.includes(user.user_type));
    if (!states.length) continue;
    const arbitrator = user.user_type === ROLE.arbitrator;
    let scope: number[] | "all";
    if (arbitrator) scope = await memberContestIds(db, user.id, "arbitrator");
    else if (states.every((s) => NEXT_STEP[s]!.member === null)) scope = user.user_type === ROLE.root ? "all" : [];
    else scope = await handledContests(db, user);
    if (scope !== "all" && !scope.length) continue;
    who.set(user.id, { user, states, scope, arbitrator });
  }
  if (!who.size) return new Map();
  const all = [...who.values()];
  let q = db
    .selectFrom("complaint")
    .innerJoin("work", "work.id", "complaint.work_id")
    .select([
      "complaint.id",
      "complaint.type",
      "complaint.contest_id",
      "complaint.state",
      "complaint.due_at",
      "complaint.arbitration_due_at",
      "work.id as work_id",
      "work.name",
    ])
    .where("complaint.state", "in", [...new Set(all.flatMap((w) => w.states))]);
  if (!all.some((w) => w.scope === "all"))
    q = q.where("complaint.contest_id", "in", [...new Set(all.flatMap((w) => w.scope as number[]))]);
  const rows = await q.orderBy("complaint.due_at").orderBy("complaint.id").execute();
  const out: Items = new Map();
  for (const { user, states, scope, arbitrator } of all) {
    const mine = rows
      .filter((r) => states.includes(r.state as ComplaintState) && (scope === "all" || scope.includes(r.contest_id)))
      .slice(0, 500);
    for (const r of mine) {
      if (arbitrator && !(await arbitratorSees(db, user, (await findComplaint(db, r.id))!))) continue;
      const page = COMPLAINT_PAGES[r.state] ?? "/ComplaintManagement";
      push(out, user.id, {
        key: `complaint:${r.id}:${r.state}`,
        kind: "complaint",
        title: `${complaintLabel(r)}：${COMPLAINT_STATE_NAMES[r.state as ComplaintState]}`,
        detail: `作品 ${r.work_id}《${r.name}》`,
        count: 1,
        dueAt: r.due_at,
        link: page === "/admin/ArbitrateManagement" ? page : `${page}?id=${r.id}`,
        menu: page,
      });
    }
  }
  return out;
};

/** Judge invitations sent to the account's email and still open. */
const judgeInvite: Producer = async (db, users, now) => {
  const byEmail = new Map<string, number[]>();
  for (const u of users)
    if (u.email) byEmail.set(u.email.trim().toLowerCase(), [...(byEmail.get(u.email.trim().toLowerCase()) ?? []), u.id]);
  if (!byEmail.size) return new Map();
  const rows = await db
    .selectFrom("judge_invitation as i")
    .innerJoin("contest", "contest.id", "i.contest_id")
    .select(["i.id", "i.email", "i.answer_by", "contest.name as contest_name"])
    .where("i.email", "in", [...byEmail.keys()])
    .where("i.status", "=", "sent")
    .where("i.answer_by", ">", now.toISOString())
    .orderBy("i.answer_by")
    .orderBy("i.id")
    .execute();
  const out: Items = new Map();
  for (const r of rows) {
    for (const userId of byEmail.get(r.email) ?? []) {
      push(out, userId, {
        key: `judgeInvite:${r.id}`,
        kind: "judgeInvite" as const,
        title: `答复「${r.contest_name}」的评委邀请`,
        detail: "接受或谢绝邀请",
        count: 1,
        dueAt: r.answer_by,
        link: "/judgePool",
        menu: "/judgePool",
      });
    }
  }
  return out;
};

const PRODUCERS: Record<TodoKind, Producer> = {
  coauthor,
  teacherReview,
  schoolReview,
  formatReview,
  judging,
  defence,
  complaint,
  complaintParty: complaintPartyItems,
  judgeInvite,
  promotion: promotionItems,
};

/** The kinds the policy gives this user. */
export async function kindsOf(policy: Policy, user: User): Promise<TodoKind[]> {
  const p = principalOf(user);
  const out: TodoKind[] = [];
  for (const k of TODO_KINDS) if (await policy.can(p, todoObject(k), "read")) out.push(k);
  return out;
}

const byDue = (a: TodoItem, b: TodoItem) => (a.dueAt ?? "9999").localeCompare(b.dueAt ?? "9999");

/**
 * The to-do items of many users at once (a page of the digest): for each kind, one set of
 * queries for all the users the policy gives that kind. Every user of `users` has an entry.
 */
export async function todoItemsOf(
  db: Db,
  policy: Policy,
  users: readonly User[],
  now = new Date(),
): Promise<Map<number, TodoItem[]>> {
  // The policy's answer depends on the principal only: asked once per distinct principal.
  const kindsByPrincipal = new Map<string, Promise<TodoKind[]>>();
  const kinds = new Map<number, TodoKind[]>();
  for (const u of users) {
    const key = JSON.stringify(principalOf(u));
    if (!kindsByPrincipal.has(key)) kindsByPrincipal.set(key, kindsOf(policy, u));
    kinds.set(u.id, await kindsByPrincipal.get(key)!);
  }
  const produced = new Map<TodoKind, Items>();
  for (const k of TODO_KINDS) {
    const mine = users.filter((u) => kinds.get(u.id)!.includes(k));
    if (mine.length) produced.set(k, await PRODUCERS[k](db, mine, now));
  }
  const out = new Map<number, TodoItem[]>();
  for (const u of users) {
    const items: TodoItem[] = [];
    for (const k of kinds.get(u.id)!) items.push(...(produced.get(k)?.get(u.id) ?? []).sort(byDue));
    out.set(u.id, items);
  }
  return out;
}

/** One user's items (GET /Backend/UserCenter/todo): todoItemsOf for that user alone. */
export async function todoItems(db: Db, policy: Policy, user: User, now = new Date()): Promise<TodoItem[]> {
  return (await todoItemsOf(db, policy, [user], now)).get(user.id)!;
}

export function summarise(items: TodoItem[]): TodoReply {
  const badges: Record<string, number> = {};
  for (const i of items) badges[i.menu] = (badges[i.menu] ?? 0) + i.count;
  return { items, badges, total: items.reduce((s, i) => s + i.count, 0) };
}
