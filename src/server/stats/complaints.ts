/**
 * Complaints (GET /Backend/Stats/complaints), per contest of the scope (complaint.contest_id;
 * a school admin, or a chosen school or province: the complaints about those works):
 * filed (every complaint), decided (decision_at set), upheld (the decision in force — the
 * arbitrator's revised outcome when revised, else the decision — upheld or partly upheld),
 * in arbitration (arbitration_requested, arbitrated), open (not refused, closed or withdrawn)
 * and overdue (open with due_at passed), and the count per state. One GROUP BY.
 */
import { sql } from "kysely";
import { COMPLAINT_STATES, OPEN_STATES } from "../../shared/complaint/states";
import type { ComplaintContestStats, ComplaintStatsReply } from "../../shared/stats/schema";
import type { Handle } from "../work/repository";
import { contestIn, narrowed, num, worksOf, type Scope } from "./scope";

const inList = (xs: readonly string[]) =>
  sql.join(
    xs.map((x) => sql.lit(x)),
    sql`, `,
  );

export async function complaints(
  db: Handle,
  s: Scope,
  now = new Date().toISOString(),
): Promise<Omit<ComplaintStatsReply, "scope">> {
  const f = s.current;
  const open = inList(OPEN_STATES);
  const upheld = sql`case when c.arb_outcome = 'revise' and c.arb_revised_outcome is not null then c.arb_revised_outcome else c.decision_outcome end in ('upheld', 'partly_upheld')`;
  const rows = await db
    .selectFrom("complaint as c")
    .innerJoin("contest", "contest.id", "c.contest_id")
    .select([
      "c.contest_id",
      "contest.name",
      "c.state",
      (eb) => eb.fn.countAll<number>().as("filed"),
      sql<number>`sum(case when c.decision_at is not null then 1 else 0 end)`.as("decided"),
      sql<number>`sum(case when ${upheld} then 1 else 0 end)`.as("upheld"),
      sql<number>`sum(case when c.state in (${open}) and c.due_at is not null and c.due_at < ${now} then 1 else 0 end)`.as(
        "overdue",
      ),
    ])
    .where(contestIn(f, "c.contest_id"))
    .$if(s.schoolOnly || narrowed(f), (q) => q.where("c.work_id", "in", worksOf(db, f).select("work.id")))
    .groupBy(["c.contest_id", "contest.name", "c.state"])
    .execute();
  const zero = () => ({ filed: 0, decided: 0, upheld: 0, inArbitration: 0, overdue: 0, open: 0 });
  const totals = zero();
  const states = Object.fromEntries(COMPLAINT_STATES.map((st) => [st, 0])) as Record<string, number>;
  const byContest = new Map<number, ComplaintContestStats>();
  for (const r of rows) {
    const id = Number(r.contest_id);
    let c = byContest.get(id);
    if (!c) byContest.set(id, (c = { contestId: id, contestName: r.name, ...zero() }));
    const filed = num(r.filed);
    const add = {
      filed,
      decided: num(r.decided),
      upheld: num(r.upheld),
      inArbitration: r.state === "arbitration_requested" || r.state === "arbitrated" ? filed : 0,
      overdue: num(r.overdue),
      open: (OPEN_STATES as readonly string[]).includes(r.state) ? filed : 0,
    };
    for (const k of Object.keys(add) as (keyof typeof add)[]) {
      c[k] += add[k];
      totals[k] += add[k];
    }
    states[r.state] = (states[r.state] ?? 0) + filed;
  }
  return { contests: [...byContest.values()].sort((a, b) => b.filed - a.filed || a.contestId - b.contestId), totals, states };
}
