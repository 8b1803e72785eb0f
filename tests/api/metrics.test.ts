/**
 * GET /metrics (src/server/metrics) on both dialects. With METRICS_TOKEN: refused without
 * the token or with a wrong one; with it, Prometheus text holding the requests by route
 * pattern with their latency histogram, a rate-limit refusal, read-cache hits, job and
 * queue gauges, the PostgreSQL pool and the process's memory — and still an answer when a
 * database read fails. Without a token: only a direct loopback caller may scrape; anyone
 * else, or a request passed on by a proxy, gets the 404 of an unknown path. METRICS=0
 * removes the route.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQueue } from "../../src/server/jobs/queue";
import { Client, DIALECTS, makeApp, ORIGIN, type TestApp } from "../helpers/app";
import { waitJob } from "../helpers/jobs";
import { importXlsx, sheetFile } from "../helpers/xlsx";

const TOKEN = "metrics-test-token-5f2c9a7e";
const PROM_TYPE = "text/plain; version=0.0.4; charset=utf-8";
const NOT_FOUND = { error: 404, info: "请求的接口不存在" };

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Parses the Prometheus text exposition format strictly: every line is # HELP, # TYPE or a
 * sample whose family was declared by a # TYPE line; anything else throws.
 */
function parseProm(text: string): Sample[] {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const suffixes: Record<string, string[]> = {
    counter: [""],
    gauge: [""],
    histogram: ["_bucket", "_sum", "_count"],
    summary: ["", "_sum", "_count"],
    untyped: [""],
  };
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1], type[2]);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/.test(line)) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus line: ${line}`);
    const [, name, rawLabels = "", rawValue] = m;
    const family = [...types].find(([f, t]) => suffixes[t].some((s) => name === f + s));
    if (!family) throw new Error(`sample of an undeclared family: ${line}`);
    const labels: Record<string, string> = {};
    const labelRe = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;
    let at = 0;
    while (at < rawLabels.length) {
      labelRe.lastIndex = at;
      const l = labelRe.exec(rawLabels);
      if (!l) throw new Error(`bad labels: ${line}`);
      labels[l[1]] = l[2].replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
      at = labelRe.lastIndex;
    }
    // Prometheus reads values as Go's ParseFloat does: NaN in any case (prom-client writes "Nan").
    const value =
      rawValue === "+Inf" ? Infinity : rawValue === "-Inf" ? -Infinity : /^nan$/i.test(rawValue) ? NaN : Number(rawValue);
    if (Number.isNaN(value) && !/^nan$/i.test(rawValue)) throw new Error(`bad value: ${line}`);
    samples.push({ name, labels, value });
  }
  return samples;
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

const HEADERS = ["学校代码", "学校名称", "省份", "曾用名（以、分隔）", "联系方式"];

describe.each(DIALECTS)("metrics with a token on %s", (dialect) => {
  let t: TestApp;
  let root: Client;
  const scrape = (headers: Record<string, string> = {}, remoteAddress?: string) =>
    t.app.inject({ method: "GET", url: "/metrics", headers, ...(remoteAddress ? { remoteAddress } : {}) });
  const scrapeOk = async () => {
    const r = await scrape({ authorization: `Bearer ${TOKEN}` });
    expect(r.statusCode).toBe(200);
    return { r, samples: parseProm(r.body) };
  };

  beforeAll(async () => {
    t = await makeApp(dialect, { env: { METRICS_TOKEN: TOKEN, LOGIN_RATE_MAX: "2" } });
    root = new Client(t);
    await root.login("root", "admin");
  });
  afterAll(async () => t?.close());

  it("refuses a scrape without the token or with a wrong one, loopback or not", async () => {
    const refused: Record<string, string>[] = [
      {},
      { authorization: "Bearer wrong-token-0000000000" },
      { authorization: TOKEN },
      { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` },
    ];
    for (const headers of refused) {
      const r = await scrape(headers);
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({ error: 401, info: expect.stringContaining("监控令牌") });
      expect(r.headers["www-authenticate"]).toMatch(/^Bearer/);
      expect(r.headers["set-cookie"]).toBeUndefined();
    }
    // The token is what counts: from another address, through a proxy, it is let in.
    const far = await scrape({ authorization: `Bearer ${TOKEN}`, "x-forwarded-for": "198.51.100.4" }, "203.0.113.7");
    expect(far.statusCode).toBe(200);
  });

  it("answers Prometheus text with requests by route pattern, latencies, refusals, cache hits, jobs, queue tasks and the process", async () => {
    // An export (its job polled at GET /Backend/Common/job/:id) that ends failed by hand,
    // and an import whose dry run waits for confirmation.
    const ex = await root.post("/Backend/Admin/school/export", { province: "江苏省" });
    expect(ex.status).toBe(202);
    const exportId = ex.body.data.jobId as string;
    expect((await waitJob(root, exportId)).status).toBe("done");
    await t.db.updateTable("job").set({ status: "failed" }).where("id", "=", exportId).execute();
    const { dry } = await importXlsx(
      root,
      "/Backend/Admin/school",
      await sheetFile("学校", [HEADERS, ["MTR001", "监控测试学院", "江苏省", "", ""]]),
    );
    expect(dry.status).toBe("ready");

    // A task nobody works on stays queued.
    const probe = await startQueue(t.db, dialect, t.config, () => {});
    try {
      await probe.send("metrics-probe", { n: 1 });
    } finally {
      await probe.stop();
    }

    // Two wrong passwords, then the login limit (LOGIN_RATE_MAX=2) refuses the third.
    const login = () =>
      t.app.inject({
        method: "POST",
        url: "/Backend/Common/account/login",
        remoteAddress: "192.0.2.50",
        payload: { username: "student", password: "wrong-pass1", page: "student" },
        headers: { origin: ORIGIN, host: "localhost:80" },
      });
    expect([(await login()).statusCode, (await login()).statusCode, (await login()).statusCode]).toEqual([401, 401, 429]);

    // The same works page twice: the second is served from the "works" read cache.
    for (let i = 0; i < 2; i++) expect((await root.get("/Backend/Admin/work?pageSize=10")).status).toBe(200);
    expect((await root.get("/Backend/no-such-api/42")).status).toBe(404);

    const { r, samples } = await scrapeOk();
    expect(r.headers["content-type"]).toBe(PROM_TYPE);
    expect(r.headers["set-cookie"]).toBeUndefined();

    const job = { route: "/Backend/Common/job/:id", method: "GET", status_code: "200" };
    const polls = valueOf(samples, "saiwu_http_requests_total", job)!;
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(r.body).not.toContain(exportId);
    expect(valueOf(samples, "saiwu_http_request_duration_seconds_count", job)).toBe(polls);
    expect(valueOf(samples, "saiwu_http_request_duration_seconds_bucket", { ...job, le: "+Inf" })).toBe(polls);
    expect(valueOf(samples, "saiwu_http_request_duration_seconds_bucket", { ...job, le: "10" })).toBeGreaterThan(0);
    expect(valueOf(samples, "saiwu_http_request_duration_seconds_bucket", { ...job, le: "0.005" })).toBeLessThanOrEqual(polls);
    expect(valueOf(samples, "saiwu_http_request_duration_seconds_sum", job)).toBeGreaterThan(0);
    expect(
      valueOf(samples, "saiwu_http_requests_total", {
        route: "/Backend/Common/account/login",
        method: "POST",
        status_code: "429",
      }),
    ).toBe(1);
    expect(
      valueOf(samples, "saiwu_http_requests_total", { route: "unmatched", method: "GET", status_code: "404" }),
    ).toBeGreaterThanOrEqual(1);
    // Scrapes themselves are not counted.
    expect(samples.some((s) => s.labels.route === "/metrics")).toBe(false);

    expect(valueOf(samples, "saiwu_rate_limit_refusals_total", { rule: "login" })).toBe(1);
    // Rules that refused nothing yet are there at 0, so their first refusal shows as an increase.
    expect(valueOf(samples, "saiwu_rate_limit_refusals_total", { rule: "certificate-verify" })).toBe(0);
    expect(valueOf(samples, "saiwu_rate_limit_refusals_total", { rule: "api-token" })).toBe(0);
    expect(valueOf(samples, "saiwu_read_cache_hits_total", { cache: "works" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, "saiwu_read_cache_misses_total", { cache: "works" })).toBeGreaterThanOrEqual(1);

    expect(valueOf(samples, "saiwu_jobs", { kind: "import", state: "ready" })).toBe(1);
    expect(valueOf(samples, "saiwu_jobs", { kind: "export", state: "failed" })).toBe(1);
    expect(valueOf(samples, "saiwu_jobs", { kind: "task", state: "queued" })).toBe(0);
    expect(valueOf(samples, "saiwu_queue_tasks", { queue: "metrics-probe", state: "queued" })).toBe(1);
    expect(valueOf(samples, "saiwu_metrics_source_up", { source: "jobs" })).toBe(1);
    expect(valueOf(samples, "saiwu_metrics_source_up", { source: "queue" })).toBe(1);

    if (dialect === "postgres") {
      expect(valueOf(samples, "saiwu_db_pool_max_connections")).toBe(10);
      expect(valueOf(samples, "saiwu_db_pool_connections", { state: "idle" })).toBeGreaterThanOrEqual(0);
      expect(valueOf(samples, "saiwu_db_pool_connections", { state: "in_use" })).toBeGreaterThanOrEqual(0);
      expect(valueOf(samples, "saiwu_db_pool_waiting_requests")).toBeGreaterThanOrEqual(0);
    } else {
      expect(valueOf(samples, "saiwu_db_pool_max_connections")).toBeUndefined();
    }
    expect(valueOf(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(valueOf(samples, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
  });

  it("still answers with the other series when a database read fails", async () => {
    await t.db.schema.alterTable("job").renameTo("job_moved_away").execute();
    try {
      const { samples } = await scrapeOk();
      expect(valueOf(samples, "saiwu_metrics_source_up", { source: "jobs" })).toBe(0);
      expect(valueOf(samples, "saiwu_metrics_source_up", { source: "queue" })).toBe(1);
      expect(samples.some((s) => s.name === "saiwu_jobs")).toBe(false);
      expect(
        valueOf(samples, "saiwu_http_requests_total", { route: "/Backend/Common/job/:id", method: "GET", status_code: "200" }),
      ).toBeGreaterThan(0);
      expect(valueOf(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
    } finally {
      await t.db.schema.alterTable("job_moved_away").renameTo("job").execute();
    }
    const { samples } = await scrapeOk();
    expect(valueOf(samples, "saiwu_metrics_source_up", { source: "jobs" })).toBe(1);
    expect(valueOf(samples, "saiwu_jobs", { kind: "import", state: "ready" })).toBe(1);
  });
});

describe.each(DIALECTS)("metrics without a token on %s", (dialect) => {
  let t: TestApp;
  const scrape = (headers: Record<string, string> = {}, remoteAddress?: string) =>
    t.app.inject({ method: "GET", url: "/metrics", headers, ...(remoteAddress ? { remoteAddress } : {}) });

  beforeAll(async () => {
    t = await makeApp(dialect, { seed: false });
  });
  afterAll(async () => t?.close());

  it("lets a direct loopback caller scrape, with no session or same-origin check and no cookie", async () => {
    const r = await scrape();
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toBe(PROM_TYPE);
    expect(valueOf(parseProm(r.body), "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect((await scrape({}, "::1")).statusCode).toBe(200);
    // A stale session cookie and a foreign page's Origin change nothing and set nothing.
    const odd = await scrape({ cookie: "saiwu_sid=not-a-session", origin: "https://evil.example" });
    expect(odd.statusCode).toBe(200);
    expect(odd.headers["set-cookie"]).toBeUndefined();
  });

  it("answers 404, like an unknown path, to other addresses and to requests passed on by a proxy", async () => {
    for (const [headers, remote] of [
      [{}, "203.0.113.7"],
      [{ "x-forwarded-for": "203.0.113.7" }, undefined],
      [{ "x-forwarded-for": "127.0.0.1" }, undefined],
      [{ forwarded: "for=203.0.113.7" }, undefined],
      [{ "x-real-ip": "203.0.113.7" }, "::1"],
    ] as const) {
      const r = await scrape({ ...headers }, remote);
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual(NOT_FOUND);
    }
    // A bearer token does not stand in for loopback when none is configured.
    expect((await scrape({ authorization: `Bearer ${TOKEN}` }, "203.0.113.7")).statusCode).toBe(404);
  });
});

describe("METRICS=0", () => {
  it("registers no /metrics route at all, even with a token and from loopback", async () => {
    const t = await makeApp("sqlite", { seed: false, env: { METRICS: "0", METRICS_TOKEN: TOKEN } });
    try {
      const r = await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual(NOT_FOUND);
      expect(t.app.hasRoute({ method: "GET", url: "/metrics" })).toBe(false);
    } finally {
      await t.close();
    }
  });
});
