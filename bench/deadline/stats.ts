/**
 * bench:deadline's pure arithmetic: percentiles, one step's summary from the recorded
 * requests, whether a step held the aims of issue 30, and which step to report.
 */

/** What a request was, for the figures: the p99 aims are per kind. */
export type Kind = "login" | "save" | "upload" | "video" | "submit" | "list" | "read" | "action";

/** One finished request (or a request that failed before any reply). */
export interface Sample {
  kind: Kind;
  /** the load step of the flow that made it */
  step: number;
  /** performance.now() at the start */
  at: number;
  ms: number;
  /** "ok" 2xx; "refused" an expected refusal (e.g. 409 for a stale version); "error" anything else */
  outcome: "ok" | "refused" | "error";
  /** bytes sent (uploads) */
  bytes?: number;
}

/** The aims of issue 30 (this 2-core machine), milliseconds at p99. */
export const AIMS = { login: 500, save: 200, submit: 300, list: 100, upload: 2000 } as const;

/** The nearest-rank percentile (p in 0–100) of unsorted values; 0 when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

const median = (values: readonly number[]) => percentile(values, 50);

export interface StepSummary {
  step: number;
  /** flows a minute started (the arrival rate) */
  rate: number;
  holdS: number;
  flows: number;
  submits: number;
  submitsPerMin: number;
  /** people online at once (mean of the samples taken during the step) */
  users: number;
  p99: { login: number; save: number; upload: number; submit: number; list: number };
  /** the 200 MB videos' slowest time */
  videoMaxMs: number;
  errors: number;
  refused: number;
  /** all the step's upload bytes over the time its uploads were under way, MB/s */
  uploadMBps: number;
  /** the median of each attachment's own speed, MB/s */
  fileMedianMBps: number;
  uploadBytes: number;
}

const MB = 1024 * 1024;

/** Summarises the samples of one step (those whose flow started in it). */
export function summarise(
  step: number,
  rate: number,
  holdS: number,
  flows: number,
  samples: readonly Sample[],
  userCounts: readonly number[],
): StepSummary {
  const mine = samples.filter((s) => s.step === step);
  const okMs = (k: Kind) => mine.filter((s) => s.kind === k && s.outcome === "ok").map((s) => s.ms);
  const uploads = mine.filter((s) => (s.kind === "upload" || s.kind === "video") && s.outcome === "ok");
  const bytes = uploads.reduce((sum, s) => sum + (s.bytes ?? 0), 0);
  const span = uploads.length ? Math.max(...uploads.map((s) => s.at + s.ms)) - Math.min(...uploads.map((s) => s.at)) : 0;
  const submits = okMs("submit").length;
  return {
    step,
    rate,
    holdS,
    flows,
    submits,
    submitsPerMin: Math.round((submits / holdS) * 60),
    users: userCounts.length ? Math.round(userCounts.reduce((a, b) => a + b, 0) / userCounts.length) : 0,
    p99: {
      login: Math.round(percentile(okMs("login"), 99)),
      save: Math.round(percentile(okMs("save"), 99)),
      upload: Math.round(percentile(okMs("upload"), 99)),
      submit: Math.round(percentile(okMs("submit"), 99)),
      list: Math.round(percentile(okMs("list"), 99)),
    },
    videoMaxMs: Math.round(Math.max(0, ...okMs("video"))),
    errors: mine.filter((s) => s.outcome === "error").length,
    refused: mine.filter((s) => s.outcome === "refused").length,
    uploadMBps: span > 0 ? Math.round((bytes / MB / (span / 1000)) * 10) / 10 : 0,
    fileMedianMBps:
      Math.round(
        median(uploads.filter((s) => s.kind === "upload").map((s) => (s.bytes ?? 0) / MB / (s.ms / 1000 || 1e-3))) * 10,
      ) / 10,
    uploadBytes: bytes,
  };
}

/** Why a step did not hold (empty: it held): errors, a p99 over its aim, or flows that did not all submit. */
export function shortfalls(s: StepSummary): string[] {
  const out: string[] = [];
  if (s.errors) out.push(`${s.errors} 个错误`);
  for (const k of Object.keys(AIMS) as (keyof typeof AIMS)[])
    if (s.p99[k] >= AIMS[k]) out.push(`${k} p99 ${s.p99[k]} ms ≥ ${AIMS[k]} ms`);
  if (s.submits < s.flows) out.push(`只有 ${s.submits}/${s.flows} 个流程提交成功`);
  return out;
}

/** The step to report: the highest-rate step that held; null when none did. */
export function heldStep(steps: readonly StepSummary[]): StepSummary | null {
  const held = steps.filter((s) => shortfalls(s).length === 0);
  return held.length ? held.reduce((a, b) => (b.rate > a.rate ? b : a)) : null;
}
