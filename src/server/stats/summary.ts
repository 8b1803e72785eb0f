/**
 * The user centre's compact figures (GET /Backend/Stats/summary): three per admin role, over
 * the newest year in the caller's scope (resolveScope without a query).
 * - root: works submitted (submitted_at set) against last year by the same date; works waiting
 *   for format review against all works in format review; overdue complaints against open ones.
 * - contest admin: works received (accepted and on) against last year by the same date; format
 *   review pending against all in format review; judging scores submitted against expected.
 * - school admin: works submitted against last year by the same date; works waiting for the
 *   school's review (submitted) against all entered; works returned (by the school or by
 *   format review) against all entered.
 */
import { sql } from "kysely";
import { ROLE } from "../../shared/roles";
import { FORMAT_PENDING_STATES, FORMAT_REVIEW_STATES, type WorkState } from "../../shared/work/states";
import type { SummaryFigure, SummaryReply } from "../../shared/stats/schema";
import type { Handle } from "../work/repository";
import { contestIn, num, worksOf, type Scope, type WorkFilter } from "./scope";
import { complaints } from "./complaints";

const count = async (db: Handle, f: WorkFilter, states?: readonly WorkState[]) =>
  num(
    (
      await worksOf(db, f)
        .$if(!!states, (q) => q.where("work.status", "in", [...states!]))
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Works of the filter submitted (submitted_at set), up to `until` when given. */
const submitted = async (db: Handle, f: WorkFilter, until?: string) =>
  num(
    (
      await worksOf(db, f)
        .where("work.submitted_at", "is not", null)
        .$if(!!until, (q) => q.where("work.submitted_at", "<=", until!))
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

const yearAgo = (now: Date) => {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() - 1);
  return d.toISOString();
};

/** Works that reached the contest (accepted and on), by their first accept up to `until`. */
const received = async (db: Handle, f: WorkFilter, until?: string) =>
  num(
    (
      await db
        .selectFrom("work_log")
        .select(sql<number>`count(distinct work_log.work_id)`.as("n"))
        .where("work_log.action", "=", "accept")
        .where("work_log.work_id", "in", worksOf(db, f).select("work.id"))
        .$if(!!until, (q) => q.where("work_log.at", "<=", until!))
        .executeTakeFirstOrThrow()
    ).n,
  );

export async function summary(db: Handle, s: Scope, now = new Date()): Promise<SummaryReply> {
  const f = s.current;
  const p = s.previous;
  const ago = yearAgo(now);
  const lastYear = "去年同日";
  const formatPending = async (): Promise<SummaryFigure> => ({
    key: "formatPending",
    label: "待形式审查作品",
    value: await count(db, f, FORMAT_PENDING_STATES),
    compare: await count(db, f, FORMAT_REVIEW_STATES),
    compareLabel: "形式审查作品总数",
    link: "/statistics?tab=progress",
  });
  let figures: SummaryFigure[];
  if (s.role === ROLE.schoolAdmin) {
    const entered = (await count(db, f)) - (await count(db, f, ["draft"]));
    figures = [
      {
        key: "submitted",
        label: "已提交作品",
        value: await submitted(db, f),
        compare: p ? await submitted(db, p, ago) : null,
        compareLabel: p ? lastYear : null,
        link: "/statistics?tab=timeline",
      },
      {
        key: "schoolReview",
        label: "待学校审核作品",
        value: await count(db, f, ["submitted"]),
        compare: entered,
        compareLabel: "已提交作品总数",
        link: "/school/WorkManagement",
      },
      {
        key: "returned",
        label: "退回修改的作品",
        value: await count(db, f, ["returned", "format_returned"]),
        compare: entered,
        compareLabel: "已提交作品总数",
        link: "/statistics?tab=breakdown",
      },
    ];
  } else if (s.role === ROLE.contestAdmin) {
    const scores = await db
      .selectFrom("judge_assignment as a")
      .leftJoin("judge_score as js", (j) => j.onRef("js.assignment_id", "=", "a.id").on("js.superseded_at", "is", null))
      .select([
        (eb) => eb.fn.countAll<number>().as("expected"),
        sql<number>`sum(case when js.status = 'submitted' then 1 else 0 end)`.as("submitted"),
      ])
      .where(contestIn(f, "a.contest_id"))
      .executeTakeFirstOrThrow();
    figures = [
      {
        key: "received",
        label: "省赛已接收作品",
        value: await received(db, f),
        compare: p ? await received(db, p, ago) : null,
        compareLabel: p ? lastYear : null,
        link: "/statistics?tab=timeline",
      },
      await formatPending(),
      {
        key: "scoresIn",
        label: "已提交评分",
        value: num(scores.submitted),
        compare: num(scores.expected),
        compareLabel: "应评分数",
        link: "/statistics?tab=progress",
      },
    ];
  } else {
    const c = await complaints(db, s, now.toISOString());
    figures = [
      {
        key: "submitted",
        label: "已提交作品",
        value: await submitted(db, f),
        compare: p ? await submitted(db, p, ago) : null,
        compareLabel: p ? lastYear : null,
        link: "/statistics?tab=timeline",
      },
      await formatPending(),
      {
        key: "complaintsOverdue",
        label: "逾期未处理的申诉",
        value: c.totals.overdue,
        compare: c.totals.open,
        compareLabel: "处理中的申诉",
        link: "/statistics?tab=complaints",
      },
    ];
  }
  return { year: f.year, figures };
}
