/**
 * Load shedding: when this process is over capacity, an API request is answered at once with
 * 503, a Chinese message and Retry-After instead of queueing until it times out; as soon as
 * the load drops, requests are served again. Two signals, each with its own limit
 * (config.overload, env OVERLOAD_*; docs/operations.md):
 * - requests in flight: more API requests at once than the limit (requests waiting for the
 *   database or a disk pile up here while the event loop itself stays idle);
 * - event-loop delay: the mean lag of a 10 ms timer over a sample window, over the limit in
 *   SUSTAINED_SAMPLES windows in a row (the one JavaScript thread is too busy to take more;
 *   one long stall — a start-up, a large synchronous task — is not an overload).
 * Only /Backend/ paths are shed: the probes (/healthz, /readyz), /metrics and the front end's
 * files are always answered, as load balancers and monitoring need them.
 *
 * Own plugin rather than @fastify/under-pressure: that one has no in-flight signal, cannot
 * exempt paths without a pressureHandler of our own, and its default refusal is a bare
 * FST_UNDER_PRESSURE error that our error handler (plugins/errors.ts) would answer as 500.
 * What is left of it is the event-loop histogram below.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { FastifyInstance } from "fastify";
import type { Config } from "../config";

export const BUSY_INFO = "服务器繁忙，请稍后重试";
/** The histogram's resolution: its timer is due every this many milliseconds. */
const RESOLUTION_MS = 10;
/** Sample windows in a row with the lag over its limit before requests are refused. */
const SUSTAINED_SAMPLES = 2;

const shed = (url: string) => url === "/Backend" || url.startsWith("/Backend/");

/** Why a request was refused: the label of its series in /metrics (saiwu_overload_refusals_total). */
export type OverloadReason = "in_flight" | "event_loop";
/** The metrics label of each signal. */
const REASON: Record<"inFlight" | "eventLoop", OverloadReason> = { inFlight: "in_flight", eventLoop: "event_loop" };

/** `onRefused` counts each refusal (metrics/registry.ts, saiwu_overload_refusals_total). */
export function registerOverload(app: FastifyInstance, limits: Config["overload"], onRefused?: (reason: OverloadReason) => void) {
  const { maxInFlight, maxEventLoopDelayMs, sampleMs, retryAfterSeconds } = limits;
  let inFlight = 0;
  let lagMs = 0;
  /** sample windows in a row with the lag over the limit */
  let lagging = 0;
  /** the signal refusing requests now, for logging each episode once */
  let refusing: "inFlight" | "eventLoop" | null = null;

  if (maxEventLoopDelayMs > 0) {
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    let timer: NodeJS.Timeout | undefined;
    // From the app's readiness on: the start-up (loading, migrations) stalls the loop by design.
    app.addHook("onReady", async () => {
      histogram.enable();
      timer = setInterval(() => {
        // The timer's own interval is no delay; an empty window (a loop blocked throughout) is.
        lagMs = histogram.count ? Math.max(0, histogram.mean / 1e6 - RESOLUTION_MS) : sampleMs;
        lagging = lagMs > maxEventLoopDelayMs ? lagging + 1 : 0;
        histogram.reset();
      }, sampleMs);
      timer.unref();
    });
    app.addHook("onClose", async () => {
      clearInterval(timer);
      histogram.disable();
    });
  }

  /** The signal over its limit now, or null. */
  const overloaded = () =>
    maxInFlight > 0 && inFlight >= maxInFlight
      ? "inFlight"
      : maxEventLoopDelayMs > 0 && lagging >= SUSTAINED_SAMPLES
        ? "eventLoop"
        : null;

  app.addHook("onRequest", async (req, reply) => {
    if (!shed(req.url)) return;
    const why = overloaded();
    if (why !== refusing) {
      if (why === "inFlight") req.log.warn(`服务器过载，暂时拒绝新请求：同时处理的请求达 ${inFlight} 个（上限 ${maxInFlight}）`);
      else if (why)
        req.log.warn(`服务器过载，暂时拒绝新请求：事件循环延迟 ${Math.round(lagMs)} ms（上限 ${maxEventLoopDelayMs} ms）`);
      else req.log.info("负载已回落，恢复处理请求");
      refusing = why;
    }
    if (why) {
      onRefused?.(REASON[why]);
      return reply
        .code(503)
        .header("retry-after", String(retryAfterSeconds))
        .send({ error: 503, info: BUSY_INFO, data: { retryAfter: retryAfterSeconds } });
    }
    inFlight++;
    let done = false;
    // 'close' comes after the reply is sent and also when the client goes away mid-request.
    reply.raw.once("close", () => {
      if (!done) inFlight--;
      done = true;
    });
  });
}
