/**
 * Property-based fuzzing of the whole API: every route the app registers (read from Fastify,
 * tests/helpers/routes.ts, so a route added later is fuzzed without touching this file; its
 * schemas from the OpenAPI document, a route hidden from it gets its path parameters as text),
 * as an anonymous visitor and as each demo role, with generated path parameters, query strings
 * and JSON bodies, valid and broken (multipart routes get a bogus body). Every reply must
 * be below 500 and the JSON envelope { error, info } (file downloads may answer with the
 * file), and a refused write (≥ 400 on POST/PUT/PATCH/DELETE) must leave every table as
 * it was (row count and checksum).
 *
 * FUZZ_SEED (default fixed) and FUZZ_RUNS (requests per route and role) vary the run;
 * FUZZ_ONLY=<regex> limits it to matching "METHOD /path" routes.
 *
 * NOT_FUZZED lists the few registered routes left out, each with its reason; the test fails on
 * a registered route that is neither fuzzed nor listed, and on a listed route that is gone.
 */
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { openapiOperations, type Operation } from "../helpers/openapi";
import { registeredRoutes } from "../helpers/routes";
import { fuzzyArb, validArb, type FuzzContext } from "../helpers/fuzz-input";
import { dbState, stateDiff, tableNames, type DbState } from "../helpers/db-state";
import { DEMO_ACCOUNTS } from "../../src/server/seed/demo";
import { trackerOf } from "../../src/server/db/changes";
import { STATS_DASHBOARDS, statsExportPath } from "../../src/shared/stats/schema";

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 3);
const ONLY = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : null;

/** Routes whose successful reply is a file rather than the JSON envelope (their refusals are envelopes). */
const FILE_ROUTES = new Set([
  "GET /Backend/Common/job/{id}/download",
  "GET /Backend/Admin/school/template",
  "GET /Backend/Admin/major/template",
  "GET /Backend/Admin/award/template",
  "GET /Backend/Admin/contest/template",
  "GET /Backend/Admin/user/template",
  "GET /Backend/JudgePool/persons/template",
  "GET /Backend/Work/work/{id}/files/{fileId}/download",
  "GET /Backend/Judge/contest/{contestId}/work/{workId}/file/{fileId}",
  "GET /Backend/ContestAdmin/judging/{contestId}/results/export",
  "GET /Backend/Defence/session/{sessionId}/work/{workId}/files/{fileId}",
  "GET /Backend/Defence/reply/{code}/files/{fileId}",
  "GET /Backend/Certificate/background/{sha256}",
  "POST /Backend/Certificate/templates/preview",
  "GET /Backend/Certificate/mine/{id}/pdf",
  // Each statistics dashboard's figures as .xlsx (stats/routes.ts).
  ...STATS_DASHBOARDS.map((d) => `GET ${statsExportPath(d)}`),
  // The signed-in person's data as a JSON file (my-data/routes.ts).
  "GET /Backend/Common/account/my-data",
  // The public key list without the envelope (for verifiers elsewhere).
  "GET /.well-known/certificate-keys.json",
]);

/** Registered routes the fuzz leaves out ("METHOD /path"; a method alone: every route of it), and why. */
const NOT_FUZZED: Record<string, string> = {
  OPTIONS: "the CORS preflight answer of crud/rest.ts (no body, no handler logic; Fastify prints its path as *)",
  "GET /Backend/docs": "the OpenAPI viewer (@fastify/swagger-ui): a redirect and static files, not the API",
  "GET /Backend/docs/": "the OpenAPI viewer's page",
  "GET /Backend/docs/*": "the OpenAPI viewer's static files",
  "GET /Backend/docs/json": "the OpenAPI document as the viewer reads it (the same as /Backend/openapi.json)",
  "GET /Backend/docs/yaml": "the OpenAPI document in YAML for the viewer",
  "GET /Backend/docs/static/index.html": "the OpenAPI viewer's page",
  "GET /Backend/docs/static/swagger-initializer.js": "the OpenAPI viewer's script",
  "GET /Backend/openapi.json": "the OpenAPI document itself, read by this test to build its requests",
  "GET /healthz": "the liveness probe outside /Backend: plain JSON by design, no input (tests/api/health*.test.ts)",
  "GET /readyz": "the readiness probe outside /Backend: plain JSON by design, no input (tests/api/health*.test.ts)",
  "GET /metrics": "Prometheus text outside /Backend with its own access rule (metrics/access.ts), no input",
};
const notFuzzed = (method: string, path: string) => NOT_FUZZED[method] ?? NOT_FUZZED[`${method} ${path}`];

/** Every registered route not left out, with its OpenAPI schemas (or, hidden from the document, text path parameters). */
async function fuzzedOperations(t: TestApp): Promise<Operation[]> {
  const documented = new Map((await openapiOperations(t)).map((o) => [`${o.method} ${o.path}`, o]));
  const ops: Operation[] = [];
  for (const { method, path } of registeredRoutes(t.app)) {
    if (notFuzzed(method, path)) continue;
    const params = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      in: "path" as const,
      name,
      required: true,
      schema: { type: "string", maxLength: 40 },
    }));
    ops.push(documented.get(`${method} ${path}`) ?? { method, path, params, multipart: false });
  }
  return ops.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const PAGE: Record<number, "student" | "teacher" | "admin"> = { 100: "student", 99: "teacher" };

interface Req {
  path: Record<string, unknown>;
  /** a raw, possibly badly encoded path segment in place of the first parameter */
  rawSegment?: string;
  query: Record<string, unknown>;
  body?: { json: unknown } | { raw: string; type: string } | { none: true };
}

const BOGUS_MULTIPART: Req["body"][] = [
  { none: true },
  { json: { kind: "summary" } },
  { raw: "not a form", type: "multipart/form-data" },
  { raw: '--x\r\nContent-Disposition: form-data; name="kind"\r\n\r\nppt\r\n--x--\r\n', type: "multipart/form-data; boundary=x" },
  {
    raw: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\nPK\u0003\u0004garbage\r\n--x--\r\n',
    type: "multipart/form-data; boundary=x",
  },
];
const BROKEN_BODIES: Req["body"][] = [
  { raw: "{", type: "application/json" },
  { raw: "", type: "application/json" },
  { raw: "null", type: "application/json" },
  { raw: "[1,2]", type: "application/json" },
  { raw: '"text"', type: "application/json" },
  { raw: "a=1&b=2", type: "application/x-www-form-urlencoded" },
  { raw: "plain", type: "text/plain" },
  { none: true },
];
const RAW_SEGMENTS = ["%", "%E0%A4%A", "..", "%2e%2e", "1;drop", "1%00", "９", " 1", "1.0", "0x1f", "-0", "1e3"];

function requestArb(op: Operation, ctx: FuzzContext, fuzzy: boolean): fc.Arbitrary<Req> {
  const value = fuzzy ? fuzzyArb : validArb;
  const pathModel: Record<string, fc.Arbitrary<unknown>> = {};
  const queryModel: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredQuery: string[] = [];
  for (const p of op.params) {
    if (p.in === "path") pathModel[p.name] = value(p.schema, ctx);
    else {
      queryModel[p.name] = value(p.schema, ctx);
      if (p.required && !fuzzy) requiredQuery.push(p.name);
    }
  }
  let body: fc.Arbitrary<Req["body"]> = fc.constant(undefined);
  if (op.multipart) body = fc.constantFrom(...BOGUS_MULTIPART);
  else if (op.body) {
    const json = value(op.body, ctx).map((j) => ({ json: j }));
    body = fuzzy ? fc.oneof({ weight: 4, arbitrary: json }, { weight: 1, arbitrary: fc.constantFrom(...BROKEN_BODIES) }) : json;
  } else if (UNSAFE.has(op.method))
    body = fuzzy
      ? fc.oneof(fc.constant({ none: true as const }), fc.constant({ json: {} }), fc.constantFrom(...BROKEN_BODIES))
      : fc.constant({ json: {} });
  return fc.record(
    {
      path: fc.record(pathModel),
      rawSegment:
        fuzzy && Object.keys(pathModel).length
          ? fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) })
          : fc.constant(undefined),
      query: fc.record(queryModel, { requiredKeys: requiredQuery }),
      body,
    },
    { requiredKeys: ["path", "query"] },
  );
}

/** A per-route seed offset, so that FUZZ_ONLY replays the same requests as the full run. */
const hash = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 0);

/** encodeURIComponent, with a lone surrogate sent as its (invalid) UTF-8 bytes instead of throwing. */
const encode = (s: string) => [...s].map((c) => (/[\uD800-\uDFFF]/.test(c) ? "%ED%A0%80" : encodeURIComponent(c))).join("");

const text = (v: unknown) => (typeof v === "string" ? v : typeof v === "object" && v !== null ? JSON.stringify(v) : String(v));

function urlOf(op: Operation, req: Req) {
  let first = true;
  const path = op.path.replace(/\{(\w+)\}/g, (_, name) => {
    const seg = first && req.rawSegment !== undefined ? req.rawSegment : encode(text(req.path[name]));
    first = false;
    return seg;
  });
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) qs.append(k, text(item));
  }
  const q = qs.toString();
  return q ? `${path}?${q}` : path;
}

describe.each(DIALECTS)("fuzzing every route on %s", (dialect) => {
  let t: TestApp;
  let ops: Operation[];
  let tables: string[];
  let ctx: FuzzContext;
  const demoIds = new Set<number>();
  const roles: { name: string; client: Client; page?: "student" | "teacher" | "admin" }[] = [];

  beforeAll(async () => {
    t = await makeApp(dialect, { env: { LOGIN_RATE_MAX: "100000", MAIL_RATE_MAX: "100000" } });
    ops = (await fuzzedOperations(t)).filter((o) => !ONLY || ONLY.test(`${o.method} ${o.path}`));
    tables = await tableNames(t.db, dialect);
    const maxIds = await Promise.all(
      [
        "school",
        "contest",
        "work_category",
        "app_user",
        "award_level",
        "news",
        "notice",
        "judge_group",
        "judge_assignment",
        "judge_score",
        "work_file",
        "defence_session",
      ].map(async (table) =>
        Number(
          (
            await t.db
              .selectFrom(table as "school")
              .select((e) => e.fn.max("id").as("m"))
              .executeTakeFirst()
          )?.m ?? 0,
        ),
      ),
    );
    const works = await t.db.selectFrom("work").select("id").orderBy("id").limit(200).execute();
    ctx = { maxSmallId: Math.max(30, ...maxIds.filter((m) => m < 100000)) + 5, workIds: works.map((w) => Number(w.id)) };
    roles.push({ name: "anonymous", client: new Client(t) });
    for (const a of DEMO_ACCOUNTS) {
      const client = new Client(t);
      const page = PAGE[a.role] ?? "admin";
      await client.login(a.username, page);
      roles.push({ name: a.username, client, page });
    }
    for (const u of await t.db
      .selectFrom("app_user")
      .select("id")
      .where(
        "username",
        "in",
        DEMO_ACCOUNTS.map((a) => a.username),
      )
      .execute())
      demoIds.add(u.id);
  }, 180_000);
  afterAll(async () => t?.close());

  it("fuzzes every registered route but the few listed with a reason, each of which still exists", async () => {
    const registered = registeredRoutes(t.app);
    const all = await fuzzedOperations(t);
    const keys = new Set(all.map((o) => `${o.method} ${o.path}`));
    const missing = registered.filter((r) => !notFuzzed(r.method, r.path) && !keys.has(`${r.method} ${r.path}`));
    expect(missing).toEqual([]);
    const stale = Object.keys(NOT_FUZZED).filter((k) =>
      k.includes(" ") ? !registered.some((r) => `${r.method} ${r.path}` === k) : !registered.some((r) => r.method === k),
    );
    expect(stale).toEqual([]);
    // Every documented route is among them (the document and the app agree).
    const documented = await openapiOperations(t);
    expect(documented.filter((o) => !keys.has(`${o.method} ${o.path}`)).map((o) => `${o.method} ${o.path}`)).toEqual([]);
  });

  it("answers every request below 500 with the envelope and changes nothing on a refused write", async () => {
    const started = Date.now();
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let sent = 0;
    let relogins = 0;
    let checkedWrites = 0;
    let scheduledRuns = 0;
    let cached: DbState | null = null;
    // The database's change tracker (db/changes.ts) counts every write statement through the
    // app's handle, a rolled-back one too: while its stamp stands, the state is the one taken
    // before, and only a request that wrote something is followed by a full comparison.
    const tracker = trackerOf(t.db);
    const stamp = () => tracker.stamp(tables);
    let cachedStamp = "";
    let fullStates = 0;

    // Background work started by an accepted request (an export, a work's duplicate-check
    // indexing) must end before a refused write's "before" state is taken, or its writes would
    // be blamed on it. Queue tasks live in queue_task on SQLite and in pg-boss's own schema
    // (not among the tables compared) on PostgreSQL: both are waited for.
    const hasQueueTable = tables.includes("queue_task");
    const pgBossBusy = async () => {
      if (t.dialect !== "postgres") return false;
      const { rows } = await sql<{
        busy: number;
      }>`select 1 as busy from pgboss.job where state::text in ('created', 'retry', 'active') limit 1`.execute(t.db);
      return rows.length > 0;
    };
    const jobsSettled = async () => {
      for (let i = 0; i < 200; i++) {
        const job = await t.db.selectFrom("job").select("id").where("status", "in", ["running", "applying"]).executeTakeFirst();
        const task =
          hasQueueTable &&
          (await t.db.selectFrom("queue_task").select("id").where("state", "in", ["queued", "active"]).executeTakeFirst());
        if (!job && !task && !(await pgBossBusy())) return;
        await new Promise((r) => setTimeout(r, 25));
      }
    };

    for (const op of ops) {
      const route = `${op.method} ${op.path}`;
      if (process.env.FUZZ_VERBOSE) console.log(`${((Date.now() - started) / 1000).toFixed(1)} s, ${sent} sent: ${route}`);
      // The demo accounts stay out of the user-admin routes' ids: locking or deleting one
      // would end the fuzz's own sessions.
      const protect = op.path.startsWith("/Backend/Admin/user/{id}");
      const arb = fc
        .oneof(requestArb(op, ctx, false), requestArb(op, ctx, true))
        .filter((r) => !(protect && demoIds.has(Number(r.path.id))));
      for (const [j, role] of roles.entries()) {
        const seed = (SEED + hash(route) + j * 104729) | 0;
        const details = await fc.check(
          fc.asyncProperty(arb, async (req) => {
            const unsafe = UNSAFE.has(op.method);
            let before: DbState | null = null;
            let beforeStamp = "";
            if (unsafe) {
              if (cached && stamp() !== cachedStamp) cached = null;
              if (!cached) await jobsSettled();
              if (!cached) fullStates++;
              before = cached ?? (await dbState(t.db, tables));
              beforeStamp = stamp();
            }
            const headers: Record<string, string> = {};
            let payload: unknown;
            if (req.body && "json" in req.body) payload = req.body.json;
            else if (req.body && "raw" in req.body) {
              payload = req.body.raw;
              headers["content-type"] = req.body.type;
            }
            const url = urlOf(op, req);
            if (process.env.FUZZ_VERBOSE === "2") console.log(role.name, op.method, url, JSON.stringify(req.body)?.slice(0, 300));
            const r = await role.client.req(op.method as "GET", url, payload, headers);
            sent++;
            statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
            const problems: string[] = [];
            if (r.status >= 500) problems.push(`status ${r.status}: ${r.res.body.slice(0, 300)}`);
            const file = FILE_ROUTES.has(route) && r.status < 400;
            if (!file) {
              const b = r.body as { error?: unknown; info?: unknown };
              const envelope =
                typeof b === "object" &&
                b !== null &&
                typeof b.error === "number" &&
                typeof b.info === "string" &&
                b.error !== -1;
              if (!envelope)
                problems.push(
                  `not the envelope (${r.status} ${String(r.res.headers["content-type"])}): ${r.res.body.slice(0, 200)}`,
                );
              else if (b.error !== (r.status < 400 ? 0 : r.status))
                problems.push(`error ${String(b.error)} with status ${r.status}`);
            }
            if (unsafe && r.status >= 400) {
              checkedWrites++;
              const wrote = stamp() !== beforeStamp;
              if (wrote) fullStates++;
              const after = wrote ? await dbState(t.db, tables) : before!;
              const diff = stateDiff(before!, after);
              // A scheduled task's slot claimed meanwhile (hourly reminders, the daily clean-up and
              // digest at a slot boundary, e.g. a run crossing midnight UTC): its queue rows and
              // the handler's writes are not the request's; wait for it to finish before the next
              // "before" state instead of blaming this refusal. SQLite's scheduler claims the slot in
              // schedule_slot; on PostgreSQL pg-boss claims it outside the tracked tables, and the run
              // shows as its task_run row (written only by runScheduled, never by a request).
              const scheduled = diff.some((d) => d.startsWith("schedule_slot ") || d.startsWith("task_run "));
              if (diff.length && !scheduled) problems.push(`refused (${r.status} ${r.body.info}) but changed ${diff.join(", ")}`);
              else if (scheduled) scheduledRuns++;
              cached = scheduled ? null : after;
              cachedStamp = stamp();
            } else if (r.status < 400) cached = null; // accepted: its background work is waited for before the next state
            // A session ended by the fuzz (logout): log in again, after the check above.
            if (r.status === 401 && role.page) {
              relogins++;
              cached = null;
              await role.client.login(role.name, role.page).catch(() => {});
            }
            if (problems.length)
              throw new Error(
                `${problems.join("; ")} — as ${role.name}: ${op.method} ${url.length > 200 ? `${url.slice(0, 200)}…` : url}`,
              );
          }),
          { numRuns: RUNS, seed, endOnFailure: true },
        );
        if (details.failed) {
          const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
          const example = JSON.stringify(details.counterexample?.[0]) ?? "";
          failures.push(
            `${error.slice(0, 1000)}\n  (FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} FUZZ_ONLY='${route}'; fast-check seed ${details.seed}; request ${example.length > 600 ? `${example.slice(0, 600)}…` : example})`,
          );
        }
      }
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const byStatus = Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0]));
    console.log(
      `fuzz on ${dialect}: ${sent} requests to ${ops.length} routes × ${roles.length} roles in ${seconds} s (seed ${SEED}, ${RUNS} runs each), ` +
        `${checkedWrites} refused writes checked (${fullStates} full database states taken, ${scheduledRuns} overlapping a scheduled task's start), ${relogins} re-logins, statuses ${JSON.stringify(byStatus)}`,
    );
    expect(sent).toBeGreaterThanOrEqual(ops.length * roles.length);
    expect(failures).toEqual([]);
  }, 900_000);
});
