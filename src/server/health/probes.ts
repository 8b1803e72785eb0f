/**
 * Probes for load balancers and orchestrators, anonymous and cheap:
 * - GET /healthz: the process is up and its event loop answers. Touches nothing else, so a
 *   database outage never gets a healthy process restarted.
 * - GET /readyz: this process can serve requests now. 200 only when the database answers a
 *   trivial query within DB_TIMEOUT_MS, the blob store is reachable, every migration of this
 *   code is applied, on PostgreSQL the change listener is connected (without it the read
 *   caches serve nothing and other processes' writes go unheard), and the process is not
 *   shutting down; else 503. Both bodies name each check and whether it passed — never a
 *   host, URL, error message or secret.
 *
 * Outside /Backend/ on purpose: the session lookup (plugins/auth.ts), the casbin guard and
 * the same-origin check (plugins/access.ts), API-token audit and the bare-JSON/CORS
 * rewrites (crud/rest.ts) all act on /Backend/ paths only, and no rate limit is declared
 * (plugins/limits.ts counts only routes that list rules). So a probe reads no session, sets
 * no cookie and is never refused or throttled. `access: "public"` says so explicitly.
 *
 * The existing root-only /Backend/Health (./routes.ts) is the detailed view for people.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { sql } from "kysely";
import type { Db, Dialect } from "../db";
import { changesHeard } from "../db/changes";
import { migrations } from "../db/migrations/index";
import type { BlobStore } from "../storage";
import { LocalBlobStore } from "../storage/local";

/** How long the database may take to answer `select 1` before the process counts as not ready. */
export const DB_TIMEOUT_MS = 2_000;
/** Likewise for the blob store's check (a directory on disk, or HeadBucket on S3). */
export const STORAGE_TIMEOUT_MS = 2_000;
/** A passing S3 check is reused this long: frequent probes of many processes need not each ask the bucket (a local directory is checked each time). */
const STORAGE_OK_TTL_MS = 5_000;

export const PROBE_PATHS = { live: "/healthz", ready: "/readyz" } as const;

export interface ReadyChecks {
  database: boolean;
  storage: boolean;
  migrations: boolean;
  /** PostgreSQL only: the LISTEN connection of the change bus (db/change-bus.ts) is up. */
  changeListener?: boolean;
  /** false once the process has begun shutting down (SIGTERM): it finishes what it has and takes nothing new. */
  accepting: boolean;
}

/** Resolves true when `work` succeeds within `ms`; false when it fails or takes longer (its late outcome is ignored). */
export async function passesWithin(work: () => Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((ok) => {
    timer = setTimeout(() => ok(false), ms);
    timer.unref();
  });
  const attempt = Promise.resolve()
    .then(work)
    .then(
      () => true,
      () => false,
    );
  try {
    return await Promise.race([attempt, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Names of the migrations this code knows that the database has not applied. */
async function missingMigrations(db: Db): Promise<string[]> {
  const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const applied = new Set(rows.rows.map((r) => r.name));
  return Object.keys(migrations).filter((name) => !applied.has(name));
}

export function probeRoutes(app: FastifyInstance, deps: { db: Db; dialect: Dialect; store: BlobStore }) {
  const { db, dialect, store } = deps;
  let draining = false;
  // Set as app.close() begins (serve.ts on SIGTERM/SIGINT), before the server stops
  // listening: requests on connections still open are served (app.ts: return503OnClosing
  // off), and a probe among them learns the process is going away.
  app.addHook("preClose", async () => {
    draining = true;
  });

  // Migrations only ever become current while this code runs (another process migrating):
  // once they are, the answer is kept.
  let migrationsCurrent = false;
  const checkMigrations = async () => {
    if (migrationsCurrent) return;
    const missing = await missingMigrations(db);
    if (missing.length) throw new Error(`${missing.length} migrations not applied`);
    migrationsCurrent = true;
  };

  let storageOkAt = -Infinity;
  const storageTtl = store instanceof LocalBlobStore ? 0 : STORAGE_OK_TTL_MS;
  const checkStorage = async () => {
    if (Date.now() - storageOkAt < storageTtl) return;
    await store.check();
    storageOkAt = Date.now();
  };

  // Probes of several balancers arriving together share one round of checks.
  let inflight: Promise<ReadyChecks> | null = null;
  const runChecks = async (): Promise<ReadyChecks> => {
    const [database, storage, migrationsOk] = await Promise.all([
      passesWithin(() => sql`select 1`.execute(db), DB_TIMEOUT_MS),
      passesWithin(checkStorage, STORAGE_TIMEOUT_MS),
      passesWithin(checkMigrations, DB_TIMEOUT_MS),
    ]);
    const heard = changesHeard(db);
    return {
      database,
      storage,
      migrations: migrationsOk,
      ...(dialect === "postgres" ? { changeListener: heard === true } : {}),
      accepting: !draining,
    };
  };
  const readiness = () => (inflight ??= runChecks().finally(() => (inflight = null)));

  const noStore = (reply: FastifyReply) => reply.header("cache-control", "no-store");
  const opts = { schema: { hide: true }, config: { access: "public" as const }, logLevel: "warn" as const };

  app.get(PROBE_PATHS.live, opts, async (_req, reply) => {
    noStore(reply);
    return { status: "ok" };
  });

  app.get(PROBE_PATHS.ready, opts, async (_req, reply) => {
    noStore(reply);
    // Draining read again after the round: a shutdown that began meanwhile answers at once.
    const checks = { ...(await readiness()), accepting: !draining };
    const ready = Object.values(checks).every(Boolean);
    return reply.code(ready ? 200 : 503).send({ status: ready ? "ok" : "unavailable", checks });
  });
}
