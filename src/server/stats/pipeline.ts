/**
 * The pipeline (GET /Backend/Stats/pipeline): how many works stand in each state of the works
 * state machine (WORK_STATES, so a new state appears by itself), per contest the works are
 * registered in (work.contest_id: the works list's contest filter, so a bar opens the list
 * with contestId and status). One GROUP BY over the work table (index work_stats, 0039).
 */
import { WORK_STATES, WORK_STATE_NAMES } from "../../shared/work/states";
import type { PipelineContest, PipelineReply } from "../../shared/stats/schema";
import type { Handle } from "../work/repository";
import { num, worksOf, type Scope } from "./scope";

const zeros = () => Object.fromEntries(WORK_STATES.map((s) => [s, 0])) as Record<string, number>;

export async function pipeline(db: Handle, s: Scope): Promise<Omit<PipelineReply, "scope">> {
  const rows = await worksOf(db, s.current)
    .select(["work.contest_id", "work.status", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy(["work.contest_id", "work.status"])
    .execute();
  const ids = [...new Set(rows.map((r) => Number(r.contest_id)))];
  const names = new Map(
    ids.length
      ? (await db.selectFrom("contest").select(["id", "name", "level", "parent_id"]).where("id", "in", ids).execute()).map(
          (c) => [Number(c.id), c],
        )
      : [],
  );
  const byContest = new Map<number, PipelineContest>();
  const totals = zeros();
  let total = 0;
  for (const r of rows) {
    const id = Number(r.contest_id);
    let c = byContest.get(id);
    if (!c) {
      const n = names.get(id);
      c = {
        contestId: id,
        contestName: n?.name ?? String(id),
        level: n?.level ?? "",
        parentId: n?.parent_id == null ? null : Number(n.parent_id),
        counts: zeros(),
        total: 0,
      };
      byContest.set(id, c);
    }
    const n = num(r.n);
    c.counts[r.status] = (c.counts[r.status] ?? 0) + n;
    c.total += n;
    totals[r.status] = (totals[r.status] ?? 0) + n;
    total += n;
  }
  return {
    states: WORK_STATES.map((state) => ({ state, name: WORK_STATE_NAMES[state] })),
    contests: [...byContest.values()].sort((a, b) => b.total - a.total || a.contestId - b.contestId),
    totals,
    total,
  };
}
