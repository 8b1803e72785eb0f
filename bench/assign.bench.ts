/**
 * npm run bench:assign — the min-cost-flow assigner at national scale.
 *
 * Generates (seeded, deterministic) 50,000 works of 700 schools with uneven sizes (Zipf-like:
 * a few schools send ~1,000 works, many send a handful), each with 1–2 advisors of its school,
 * some co-advised by a judge of another school, 2,000 judges (teachers of ~500 schools, a few
 * from industry without a school) with capacities 80–120, some declared conflicts (works and
 * schools) and a few existing assignments to keep; N = 3 reviews per work. Runs the assigner,
 * then VERIFIES the result independently of it (straight on conflict.ts): every work exactly N
 * distinct judges, zero conflicts, group respected, every capacity respected.
 * Progress goes to stderr; the last stdout line is one JSON object:
 * {"works","judges","reviews","seconds","conflicts","loadSpread","maxLoad","minLoad","peakRssMB"}.
 * WORKS, JUDGES, SEED, PROVINCE=1 (national option: avoid the own province), GROUPS=<k> (judge
 * groups per category), EXISTING=<k> (every work already has k judges), CAPACITY=<lo>-<hi>
 * change the instance. When the instance is infeasible the proposal is verified as partial and
 * the reasons are printed.
 */
import { schools as makeSchools, rng } from "../src/server/seed/generate";
import { conflictsFor } from "../src/server/judging/conflict";
import { minCostFlow } from "../src/server/judging/assign";
import type { AssignGroup, AssignInput, AssignJudge, AssignWork } from "../src/server/judging/assign";

const WORKS = Number(process.env.WORKS ?? 50_000);
const JUDGES = Number(process.env.JUDGES ?? 2_000);
const SCHOOLS = 700;
const JUDGE_SCHOOLS = 500;
const N = 3;
const SEED = Number(process.env.SEED ?? 2026);
const PROVINCE = process.env.PROVINCE === "1";
const GROUPS = Number(process.env.GROUPS ?? 0);
/** Every work already has this many judges (default: 1% of the works have one). */
const EXISTING = process.env.EXISTING === undefined ? undefined : Number(process.env.EXISTING);
const [CAP_LO, CAP_HI] = (process.env.CAPACITY ?? "80-120").split("-").map(Number);

const mem = () => `RSS ${Math.round(process.memoryUsage().rss / 1048576)} MB`;
const log = (msg: string) => process.stderr.write(`${msg}（${mem()}）\n`);
const seconds = (from: number) => Math.round((performance.now() - from) / 10) / 100;

function makeInput(): AssignInput {
  const r = rng(SEED);
  const schoolRows = makeSchools(r, SCHOOLS).map((s, i) => ({ id: i + 1, province: s.province }));
  // Uneven sizes: weight 1/rank^0.9 after a seeded shuffle of ranks.
  const rank = schoolRows.map((_, i) => i + 1);
  for (let i = rank.length - 1; i > 0; i--) {
    const k = r.int(0, i);
    [rank[i], rank[k]] = [rank[k], rank[i]];
  }
  const cum: number[] = [];
  let total = 0;
  for (const k of rank) cum.push((total += 1 / Math.pow(k, 0.9)));
  const pickSchool = () => {
    const x = r.next() * total;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return schoolRows[lo];
  };
  const teacher = (schoolId: number, k: number) => 1_000_000 + schoolId * 1_000 + k;

  // Judges: teachers of ~500 schools (the larger ones more likely), 3% from industry.
  const judgeSchools = new Set<number>();
  while (judgeSchools.size < JUDGE_SCHOOLS) judgeSchools.add(pickSchool().id);
  const js = [...judgeSchools].map((id) => schoolRows[id - 1]);
  const judges: AssignJudge[] = [];
  const perSchool = new Map<number, number>();
  for (let i = 0; i < JUDGES; i++) {
    if (r.next() < 0.03) {
      judges.push({ id: 2_000_000 + i, schoolId: null, province: null, capacity: r.int(CAP_LO, CAP_HI) });
      continue;
    }
    const s = i < js.length ? js[i] : r.pick(js);
    const k = (perSchool.get(s.id) ?? 0) + 1;
    perSchool.set(s.id, k);
    judges.push({ id: teacher(s.id, 500 + k), schoolId: s.id, province: s.province, capacity: r.int(CAP_LO, CAP_HI) });
  }

  const works: AssignWork[] = [];
  for (let i = 1; i <= WORKS; i++) {
    const s = pickSchool();
    const advisorIds = [teacher(s.id, r.int(1, 40))];
    if (r.next() < 0.4) advisorIds.push(teacher(s.id, r.int(1, 40)));
    // Some works are co-advised by a judge of another school: a personal (advisor) conflict.
    if (r.next() < 0.005) advisorIds[advisorIds.length - 1] = r.pick(judges).id;
    works.push({
      id: 2026_000_000 + i,
      schoolId: s.id,
      province: s.province,
      advisorIds,
      authorIds: [3_000_000 + i * 5, 3_000_000 + i * 5 + 1],
      needed: N,
    });
  }
  // Declared conflicts: 5% of judges name 1–3 works, 1% a school.
  for (const j of judges) {
    if (r.next() < 0.05) j.declared = { workIds: Array.from({ length: r.int(1, 3) }, () => r.pick(works).id) };
    if (r.next() < 0.01) j.declared = { ...j.declared, schoolIds: [pickSchool().id] };
  }

  let groups: AssignGroup[] | undefined;
  if (GROUPS > 0) {
    const ids: number[][] = Array.from({ length: GROUPS }, () => []);
    judges.forEach((j, i) => ids[i % GROUPS].push(j.id));
    groups = ids.map((judgeIds, g) => ({ id: g + 1, name: `第 ${g + 1} 组`, judgeIds }));
    works.forEach((w) => (w.groupId = r.int(1, GROUPS)));
  }
  const input: AssignInput = { works, judges, groups, conflictOptions: { avoidProvince: PROVINCE } };

  // Existing assignments to keep: by default 1% of the works have one valid judge already.
  const opts = input.conflictOptions!;
  const groupOf = new Map<number, Set<number>>((groups ?? []).map((g) => [g.id as number, new Set(g.judgeIds)]));
  const count = new Map<number, number>();
  for (const w of works) {
    const k = EXISTING ?? (r.next() < 0.01 ? 1 : 0);
    const ids = new Set<number>();
    for (let t = 0; t < 50 && ids.size < k; t++) {
      const j = r.pick(judges);
      if (
        (count.get(j.id) ?? 0) < j.capacity - 3 &&
        conflictsFor(j, w, opts).length === 0 &&
        (w.groupId === undefined || groupOf.get(w.groupId as number)!.has(j.id))
      )
        ids.add(j.id);
    }
    if (ids.size) w.existingJudgeIds = [...ids];
    for (const id of ids) count.set(id, (count.get(id) ?? 0) + 1);
  }
  return input;
}

/** Independent verification on conflict.ts; returns the figures or throws on the first failure. */
function verify(
  input: AssignInput,
  rows: readonly { workId: number; judgeId: number }[],
  shortfalls: readonly { workId: number; proposed: number }[],
) {
  const short = new Map(shortfalls.map((s) => [s.workId, s.proposed]));
  const opts = input.conflictOptions ?? { avoidProvince: false };
  const judges = new Map(input.judges.map((j) => [j.id, j]));
  const groups = new Map((input.groups ?? []).map((g) => [g.id, new Set(g.judgeIds)]));
  const byWork = new Map<number, number[]>(input.works.map((w) => [w.id, [...(w.existingJudgeIds ?? [])]]));
  const load = new Map(input.judges.map((j) => [j.id, j.load ?? 0]));
  for (const w of input.works) for (const j of w.existingJudgeIds ?? []) load.set(j, load.get(j)! + 1);
  let conflicts = 0;
  for (const { workId, judgeId } of rows) {
    const list = byWork.get(workId);
    if (!list) throw new Error(`unknown work ${workId}`);
    list.push(judgeId);
    load.set(judgeId, (load.get(judgeId) ?? Number.NaN) + 1);
  }
  for (const w of input.works) {
    const list = byWork.get(w.id)!;
    const expected = short.has(w.id) ? (w.existingJudgeIds?.length ?? 0) + short.get(w.id)! : (w.needed ?? 3);
    if (list.length !== expected) throw new Error(`work ${w.id} has ${list.length} judges, expected ${expected}`);
    if (new Set(list).size !== list.length) throw new Error(`work ${w.id} has a judge twice`);
    for (const id of list) {
      const j = judges.get(id);
      if (!j) throw new Error(`unknown judge ${id}`);
      if (conflictsFor(j, w, opts).length) conflicts++;
      if (w.groupId !== undefined && !groups.get(w.groupId)!.has(id)) throw new Error(`judge ${id} not in the group of ${w.id}`);
    }
  }
  for (const j of input.judges) if (load.get(j.id)! > j.capacity) throw new Error(`judge ${j.id} over capacity`);
  const loads = [...load.values()];
  const maxLoad = loads.reduce((a, b) => Math.max(a, b), 0);
  const minLoad = loads.reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
  return { conflicts, maxLoad, minLoad, loadSpread: maxLoad - minLoad };
}

function main() {
  let t0 = performance.now();
  const input = makeInput();
  const existing = input.works.reduce((a, w) => a + (w.existingJudgeIds?.length ?? 0), 0);
  const advisorJudges = new Set(input.judges.map((j) => j.id));
  const crossAdvised = input.works.filter((w) => w.advisorIds.some((a) => advisorJudges.has(a))).length;
  const declared = input.judges.reduce(
    (a, j) => a + (j.declared?.workIds?.length ?? 0) + (j.declared?.schoolIds?.length ?? 0),
    0,
  );
  log(
    `生成：${input.works.length} 件作品，${input.judges.length} 位评委，已有分配 ${existing}，由评委指导的作品 ${crossAdvised}，申报回避 ${declared} 条${PROVINCE ? "，同省回避" : ""}${GROUPS ? `，${GROUPS} 个评审组` : ""}；${seconds(t0)} s`,
  );

  t0 = performance.now();
  const result = minCostFlow.propose(input, minCostFlow.defaults);
  const secs = seconds(t0);
  log(`分配：${secs} s，完整 ${result.complete}，新分配 ${result.rows.length} 条，统计 ${JSON.stringify(result.stats)}`);
  if (!result.complete)
    log(
      `未能完整分配（${result.shortfalls.length} 件作品缺评委），原因：\n  ${result.issues
        .slice(0, 5)
        .map((i) => i.message)
        .join("\n  ")}`,
    );

  t0 = performance.now();
  const v = verify(input, result.rows, result.shortfalls);
  log(
    `独立校验（每件作品评委数${result.complete ? "均为 " + N : "与所报缺额一致"}、评委不重复、无回避冲突、不超容量、组别正确）：通过，回避冲突 ${v.conflicts}，负载 ${v.minLoad}–${v.maxLoad}；${seconds(t0)} s`,
  );
  if (v.maxLoad !== result.maxLoad || v.minLoad !== result.minLoad) throw new Error("load figures disagree with the verifier");

  const peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(
    JSON.stringify({
      works: input.works.length,
      judges: input.judges.length,
      reviews: input.works.length * N,
      seconds: secs,
      conflicts: v.conflicts,
      loadSpread: v.loadSpread,
      maxLoad: v.maxLoad,
      minLoad: v.minLoad,
      peakRssMB,
    }),
  );
}

main();
