/**
 * bench:deadline's open arrival model: for each step a rate of team flows a minute, started
 * at exponential intervals (Poisson arrivals from a seeded stream) for HOLD_S seconds,
 * whether or not earlier flows have finished; readers (READERS_PER_FLOW a flow) and school
 * admin batches (one per ADMIN_EVERY flows) arrive alongside. One team in a minute sends the
 * 200 MB video. After the last step no new flows start and the bench waits for the rest.
 */
import { rng } from "../../src/server/seed/generate";
import type { Ledger } from "./ledger";
import { Recorder } from "./people";
import type { DeadlinePlan } from "./seed";
import { readerVisit, schoolBatch, teamFlow, type FlowCtx } from "./flows";
import { summarise, type StepSummary } from "./stats";

export interface LoadOptions {
  steps: number[];
  holdS: number;
  readersPerFlow: number;
  adminEvery: number;
  /** seconds between 200 MB videos (0: none) */
  videoEveryS: number;
  log: (msg: string) => void;
}

export interface LoadResult {
  steps: StepSummary[];
  rec: Recorder;
}

/** How many team flows the steps may start (with room for Poisson's variation). */
export const flowsNeeded = (steps: number[], holdS: number) =>
  Math.ceil(steps.reduce((s, rate) => s + (rate * holdS) / 60, 0) * 1.25) + 20;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runLoad(bases: string[], plan: DeadlinePlan, ledger: Ledger, o: LoadOptions): Promise<LoadResult> {
  const rec = new Recorder();
  const r = rng(30);
  const sessions = new Map<string, string>();
  let routed = 0;
  let nextTeam = 0;
  let lastVideo = -Infinity;
  const running: Promise<unknown>[] = [];
  const flowsOf: number[] = [];
  const users: number[][] = o.steps.map(() => []);
  const schools = [...plan.schoolAdmins.keys()];
  let step = 0;
  const sampler = setInterval(() => users[step]?.push(rec.online), 1000);
  const ctx = (bigVideo: boolean): FlowCtx => ({
    rec,
    ledger,
    plan,
    step,
    base: () => bases[routed++ % bases.length],
    random: () => r.next(),
    sessions,
    bigVideo,
  });
  const keep = (p: Promise<unknown>) =>
    running.push(
      p.catch((e: unknown) => {
        rec.failures.push(`flow crashed: ${(e as Error).stack ?? String(e)}`.slice(0, 500));
      }),
    );
  try {
    for (step = 0; step < o.steps.length; step++) {
      const rate = o.steps[step];
      const t0 = performance.now();
      const end = t0 + o.holdS * 1000;
      let flows = 0;
      let readers = 0;
      o.log(`第 ${step + 1} 级：每分钟 ${rate} 个提交流程，持续 ${o.holdS} s`);
      // Poisson arrivals: the first at once, then exponential gaps with mean 60/rate s.
      for (let at = t0; at < end; at += (-Math.log(1 - r.next()) * 60_000) / rate) {
        const wait = at - performance.now();
        if (wait > 0) await sleep(wait);
        if (nextTeam >= plan.teams.length) {
          o.log("没有更多准备好的作品（WORKS/STEPS/HOLD_S 与种子数量不符），停止开始新流程");
          break;
        }
        const video = o.videoEveryS > 0 && performance.now() - lastVideo >= o.videoEveryS * 1000;
        if (video) lastVideo = performance.now();
        keep(teamFlow(plan.teams[nextTeam++], ctx(video)));
        flows++;
        for (readers += o.readersPerFlow; readers >= 1; readers--) keep(readerVisit(ctx(false)));
        if (flows % o.adminEvery === 0) keep(schoolBatch(schools[Math.floor(r.next() * schools.length)], ctx(false)));
      }
      const late = end - performance.now();
      if (late > 0) await sleep(late);
      flowsOf.push(flows);
    }
    o.log(`不再开始新流程，等待 ${rec.online} 人完成`);
    const t = performance.now();
    await Promise.all(running);
    o.log(`全部完成，等待 ${Math.round((performance.now() - t) / 1000)} s`);
  } finally {
    clearInterval(sampler);
  }
  return {
    rec,
    steps: o.steps.map((rate, i) => summarise(i, rate, o.holdS, flowsOf[i] ?? 0, rec.samples, users[i])),
  };
}
