/**
 * Review and judging progress (GET /Backend/Stats/progress):
 * - format review: the works in scope by their format review state now, and per reviewer the
 *   works they passed, returned and rejected (work_log: each work counted once per action and
 *   reviewer) with their last decision;
 * - per judging group of the contests in scope: its works, the judge assignments (scores
 *   expected) and the submitted scores not superseded, and the share in;
 * - per judge and group: assigned, started (a score saved), finished (submitted), the last
 *   score change, stragglers first;
 * - the defence sessions: drawn, signed off, their slots and the slots with a score.
 * A school admin gets the own works' format review counts only (no reviewers, groups or judges).
 * With a school or province chosen, assignments and scores follow that school's works.
 */
import { sql } from "kysely";
import type { GroupProgress, JudgeProgress, ProgressReply } from "../../shared/stats/schema";
import type { Handle } from "../work/repository";
import { contestIn, narrowed, num, worksOf, type Scope } from "./scope";

const FORMAT_ACTIONS = { format_pass: "passed", format_return: "returned", format_reject: "rejected" } as const;

export async function progress(db: Handle, s: Scope): Promise<Omit<ProgressReply, "scope">> {
  const f = s.current;
  const states = await worksOf(db, f)
    .where("work.status", "in", ["accepted", "format_resubmitted", "format_passed", "format_returned", "format_rejected"])
    .select(["work.status", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy("work.status")
    .execute();
  const by = new Map(states.map((r) => [r.status as string, num(r.n)]));
  const formatReview = {
    pending: (by.get("accepted") ?? 0) + (by.get("format_resubmitted") ?? 0),
    passed: by.get("format_passed") ?? 0,
    returned: by.get("format_returned") ?? 0,
    rejected: by.get("format_rejected") ?? 0,
    reviewers: [] as ProgressReply["formatReview"]["reviewers"],
  };
  const empty = { sessions: 0, drawn: 0, signedOff: 0, slots: 0, scoredSlots: 0 };
  if (s.schoolOnly) return { formatReview, groups: [], judges: [], defence: empty };
  const [reviewers, judges, groupWorks, defence] = await Promise.all([
    reviewerRows(db, s),
    judgeRows(db, s),
    db
      .selectFrom("judge_group_work")
      .select(["judge_group_work.group_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where(contestIn(f, "judge_group_work.contest_id"))
      .$if(narrowed(f), (q) => q.where("judge_group_work.work_id", "in", worksOf(db, f).select("work.id")))
      .groupBy("judge_group_work.group_id")
      .execute(),
    defenceFigures(db, s),
  ]);
  formatReview.reviewers = reviewers;
  const groups = await groupRows(db, s, judges, new Map(groupWorks.map((g) => [Number(g.group_id), num(g.n)])));
  return { formatReview, groups, judges, defence };
}

async function reviewerRows(db: Handle, s: Scope) {
  const rows = await db
    .selectFrom(
      db
        .selectFrom("work_log")
        .select(["work_log.user_id", "work_log.action", "work_log.work_id", (eb) => eb.fn.max("work_log.at").as("at")])
        .where("work_log.action", "in", Object.keys(FORMAT_ACTIONS))
        .where("work_log.user_id", "is not", null)
        .where("work_log.work_id", "in", worksOf(db, s.current).select("work.id"))
        .groupBy(["work_log.user_id", "work_log.action", "work_log.work_id"])
        .as("d"),
    )
    .innerJoin("app_user", "app_user.id", "d.user_id")
    .select([
      "d.user_id",
      "app_user.name",
      "d.action",
      (eb) => eb.fn.countAll<number>().as("n"),
      (eb) => eb.fn.max("d.at").as("last"),
    ])
    .groupBy(["d.user_id", "app_user.name", "d.action"])
    .execute();
  const out = new Map<number, ProgressReply["formatReview"]["reviewers"][number]>();
  for (const r of rows) {
    const id = Number(r.user_id);
    let x = out.get(id);
    if (!x) out.set(id, (x = { userId: id, name: r.name, passed: 0, returned: 0, rejected: 0, total: 0, lastAt: null }));
    const n = num(r.n);
    x[FORMAT_ACTIONS[r.action as keyof typeof FORMAT_ACTIONS]] += n;
    x.total += n;
    const last = r.last === null ? null : String(r.last);
    if (last && (!x.lastAt || last > x.lastAt)) x.lastAt = last;
  }
  return [...out.values()].sort((a, b) => b.total - a.total || a.userId - b.userId);
}

async function judgeRows(db: Handle, s: Scope): Promise<JudgeProgress[]> {
  const f = s.current;
  const rows = await db
    .selectFrom("judge_assignment as a")
    .leftJoin("judge_score as js", (j) => j.onRef("js.assignment_id", "=", "a.id").on("js.superseded_at", "is", null))
    .innerJoin("app_user as u", "u.id", "a.judge_id")
    .leftJoin("judge_group as g", "g.id", "a.group_id")
    .select([
      "a.contest_id",
      "a.judge_id",
      "u.name",
      "a.group_id",
      "g.name as group_name",
      (eb) => eb.fn.countAll<number>().as("assigned"),
      (eb) => eb.fn.count<number>("js.id").as("started"),
      sql<number>`sum(case when js.status = 'submitted' then 1 else 0 end)`.as("finished"),
      (eb) => eb.fn.max("js.updated_at").as("last"),
    ])
    .where(contestIn(f, "a.contest_id"))
    .$if(narrowed(f), (q) => q.where("a.work_id", "in", worksOf(db, f).select("work.id")))
    .groupBy(["a.contest_id", "a.judge_id", "u.name", "a.group_id", "g.name"])
    .execute();
  const list = rows.map((r) => ({
    judgeId: Number(r.judge_id),
    name: r.name,
    contestId: Number(r.contest_id),
    groupId: r.group_id === null ? null : Number(r.group_id),
    groupName: r.group_name ?? null,
    assigned: num(r.assigned),
    started: num(r.started),
    finished: num(r.finished),
    lastActivityAt: r.last === null || r.last === undefined ? null : String(r.last),
  }));
  const done = (j: JudgeProgress) => (j.assigned ? j.finished / j.assigned : 1);
  return list.sort(
    (a, b) =>
      done(a) - done(b) ||
      (a.lastActivityAt ?? "").localeCompare(b.lastActivityAt ?? "") ||
      a.judgeId - b.judgeId ||
      (a.groupId ?? 0) - (b.groupId ?? 0),
  );
}

async function groupRows(db: Handle, s: Scope, judges: JudgeProgress[], works: Map<number, number>): Promise<GroupProgress[]> {
  const groups = await db
    .selectFrom("judge_group")
    .select(["id", "name", "contest_id"])
    .where(contestIn(s.current, "judge_group.contest_id"))
    .orderBy("id")
    .execute();
  const sums = new Map<number, { expected: number; submitted: number }>();
  for (const j of judges) {
    if (j.groupId === null) continue;
    const x = sums.get(j.groupId) ?? { expected: 0, submitted: 0 };
    x.expected += j.assigned;
    x.submitted += j.finished;
    sums.set(j.groupId, x);
  }
  return groups.map((g) => {
    const id = Number(g.id);
    const x = sums.get(id) ?? { expected: 0, submitted: 0 };
    return {
      groupId: id,
      name: g.name,
      contestId: Number(g.contest_id),
      works: works.get(id) ?? 0,
      expected: x.expected,
      submitted: x.submitted,
      share: x.expected ? x.submitted / x.expected : 0,
    };
  });
}

async function defenceFigures(db: Handle, s: Scope) {
  const f = s.current;
  const [sessions, slots] = await Promise.all([
    db
      .selectFrom("defence_session")
      .select([
        (eb) => eb.fn.countAll<number>().as("n"),
        (eb) => eb.fn.count<number>("drawn_at").as("drawn"),
        (eb) => eb.fn.count<number>("signed_off_at").as("signed"),
      ])
      .where(contestIn(f, "defence_session.contest_id"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("defence_slot")
      .innerJoin("defence_session", "defence_session.id", "defence_slot.session_id")
      .select([
        (eb) => eb.fn.countAll<number>().as("n"),
        sql<number>`sum(case when exists (select 1 from defence_score where defence_score.slot_id = defence_slot.id) then 1 else 0 end)`.as(
          "scored",
        ),
      ])
      .where(contestIn(f, "defence_session.contest_id"))
      .$if(narrowed(f), (q) => q.where("defence_slot.work_id", "in", worksOf(db, f).select("work.id")))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    sessions: num(sessions.n),
    drawn: num(sessions.drawn),
    signedOff: num(sessions.signed),
    slots: num(slots.n),
    scoredSlots: num(slots.scored),
  };
}
