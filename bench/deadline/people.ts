/**
 * A simulated person of bench:deadline: one session cookie, its requests sent over real
 * HTTP (fetch) to one server process (as a sticky load balancer routes a browser), with the
 * browser's headers (Accept, our Origin on writes). Every request is timed into the
 * Recorder with its kind and outcome: 2xx "ok", a status the caller expects as a refusal
 * (409 after a co-worker's change, a quota) "refused", anything else or no answer "error".
 */
import type { Kind, Sample } from "./stats";

export interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the envelope's data differs per route
  body: { error: number; info: string; data?: any };
}

/** Where the samples and the worst failures go; people online are counted for sustainedUsers. */
export class Recorder {
  samples: Sample[] = [];
  /** the first failures in full, for the report */
  failures: string[] = [];
  online = 0;
  /** 503 replies (the server shedding load) */
  busy = 0;

  add(s: Sample, what: string, detail?: string) {
    this.samples.push(s);
    if (s.outcome === "error" && this.failures.length < 30) this.failures.push(`${what}: ${detail ?? ""}`.slice(0, 300));
  }
}

const TIMEOUT_MS = Number(process.env.REQUEST_TIMEOUT_S ?? 60) * 1000;
const BUSY_RETRIES = 3;

/** When a 503 asks to try again (its data.retryAfter, seconds), in ms; 1 s if it does not say. */
export const retryAfterMs = (r: Reply) => 1000 * (Number((r.body.data as { retryAfter?: number } | undefined)?.retryAfter) || 1);

export interface CallOptions {
  json?: unknown;
  /** a streamed body (an upload) */
  body?: AsyncIterable<Buffer>;
  headers?: Record<string, string>;
  refusals?: number[];
  /** bytes sent, for the upload figures */
  bytes?: number;
  timeoutMs?: number;
}

export class Person {
  cookie = "";
  constructor(
    readonly base: string,
    readonly rec: Recorder,
    readonly step: number,
  ) {}

  /**
   * One request; `refusals`: statuses that count as an expected refusal rather than an error.
   * A 503 (the server shedding load) is an error of its step, and the person does what the
   * screen's message asks: tries again after Retry-After (a request without a streamed body,
   * at most BUSY_RETRIES times).
   */
  async call(kind: Kind, method: string, path: string, o: CallOptions = {}): Promise<Reply> {
    for (let attempt = 0; ; attempt++) {
      const r = await this.once(kind, method, path, o);
      if (r.status !== 503 || o.body || attempt >= BUSY_RETRIES) return r;
      await new Promise((ok) => setTimeout(ok, retryAfterMs(r)));
    }
  }

  private async once(kind: Kind, method: string, path: string, o: CallOptions): Promise<Reply> {
    const headers: Record<string, string> = { accept: "application/json", ...o.headers };
    if (this.cookie) headers.cookie = this.cookie;
    if (method !== "GET") headers.origin = this.base;
    if (o.json !== undefined) headers["content-type"] = "application/json";
    const at = performance.now();
    let reply: Reply;
    try {
      const res = await fetch(this.base + path, {
        method,
        headers,
        body: o.json !== undefined ? JSON.stringify(o.json) : (o.body as unknown as BodyInit | undefined),
        signal: AbortSignal.timeout(o.timeoutMs ?? TIMEOUT_MS),
        ...(o.body ? { duplex: "half" } : {}),
      } as RequestInit);
      const set = res.headers.getSetCookie().find((c) => c.startsWith("saiwu_sid="));
      if (set) this.cookie = set.split(";")[0];
      const text = await res.text();
      let body: Reply["body"];
      try {
        body = JSON.parse(text) as Reply["body"];
      } catch {
        body = { error: -1, info: text.slice(0, 200) };
      }
      reply = { status: res.status, body };
      if (res.status === 503) this.rec.busy++;
    } catch (e) {
      const ms = performance.now() - at;
      this.rec.add({ kind, step: this.step, at, ms, outcome: "error" }, `${method} ${path}`, (e as Error).message);
      return { status: 0, body: { error: -1, info: (e as Error).message } };
    }
    const ms = performance.now() - at;
    const outcome = reply.status >= 200 && reply.status < 300 ? "ok" : o.refusals?.includes(reply.status) ? "refused" : "error";
    this.rec.add(
      { kind, step: this.step, at, ms, outcome, ...(o.bytes ? { bytes: o.bytes } : {}) },
      `${method} ${path} → ${reply.status}`,
      reply.body.info,
    );
    return reply;
  }

  get(kind: Kind, path: string) {
    return this.call(kind, "GET", path);
  }

  /** Logs in through the login page's call; true when the session was opened. */
  async login(username: string, password: string, page: "student" | "teacher" | "admin"): Promise<boolean> {
    const r = await this.call("login", "POST", "/Backend/Common/account/login", { json: { username, password, page } });
    return r.status === 200 && this.cookie !== "";
  }
}

/** Counts a person online (for sustainedUsers) while `run` is under way. */
export async function online<T>(rec: Recorder, run: () => Promise<T>): Promise<T> {
  rec.online++;
  try {
    return await run();
  } finally {
    rec.online--;
  }
}
