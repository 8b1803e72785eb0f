/**
 * Rate limits, one mechanism for every limited route. A route lists its rules in
 * `config.limits`; before the handler (after access check and validation) each rule names
 * a bucket — the client's address, the canonical account, the mail recipient, … — and
 * counts one hit in it, in the order listed. Past a rule's max within its window the
 * request is refused with 429 and Retry-After, and the rules after it do not count it.
 *
 * - Buckets are fixed windows that start at their first hit. On PostgreSQL they live in the
 *   rate_limit table (one atomic upsert per hit, expired rows swept by every process now
 *   and then), so every process behind a load balancer counts into the same bucket. The
 *   embedded SQLite runs one process: buckets stay in memory there.
 * - The client address is Fastify's req.ip: X-Forwarded-For counts only when the peer is
 *   one of TRUSTED_PROXIES (app.ts). IPv6 addresses count per /64 (one subscriber's block).
 * - An account is canonical: trimmed, case-folded, and an email resolved to the account's
 *   username, so every spelling that can log into one account shares one bucket.
 * - Bucket keys are hashed: the table holds no usernames, emails or addresses.
 *
 * FAILURE LIMITS (`config.failureLimits`) count failures, not requests: a failed reply (e.g. a
 * wrong password) adds one to its bucket after the fact. Up to `allowance` failures in the
 * window nothing happens; past it each further request waits a growing delay (`slowdown`:
 * one step more per failure, at most MAX_SLOWDOWN_STEPS steps) — slow for a password sprayer,
 * still working for a school whose students all log in from one address; at `ceiling` failures
 * it is refused (429). A request that succeeds counts nothing.
 */
import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { sql } from "kysely";
import { DomainError } from "../../shared/errors";
import type { Db, Dialect } from "../db";
import { normEmail } from "../common/email";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export interface Hit {
  /** hits in the current window, this one included */
  count: number;
  /** when the window ends (ms since the epoch) */
  resetAt: number;
}

/** Where buckets are counted. */
export interface LimitStore {
  hit(key: string, windowMs: number): Promise<Hit>;
  /** The bucket's hits in its current window and when it ends, without counting one (null when none or expired). */
  peek(key: string): Promise<Hit | null>;
}

const SWEEP_EVERY_MS = MINUTE;

/** One process's buckets (the embedded SQLite default). */
export class MemoryLimitStore implements LimitStore {
  private buckets = new Map<string, Hit>();
  private swept = Date.now();

  async hit(key: string, windowMs: number): Promise<Hit> {
    const now = Date.now();
    if (now - this.swept > SWEEP_EVERY_MS) {
      this.swept = now;
      for (const [k, b] of this.buckets) if (b.resetAt <= now) this.buckets.delete(k);
    }
    let b = this.buckets.get(key);
    if (!b || b.resetAt <= now) {
      b = { count: 0, resetAt: now + windowMs };
      this.buckets.set(key, b);
    }
    b.count++;
    return { ...b };
  }

  async peek(key: string): Promise<Hit | null> {
    const b = this.buckets.get(key);
    return b && b.resetAt > Date.now() ? { ...b } : null;
  }
}

/** Buckets in the rate_limit table: shared by every process on the database. */
export class DbLimitStore implements LimitStore {
  private swept = 0;
  constructor(private readonly db: Db) {}

  async hit(key: string, windowMs: number): Promise<Hit> {
    const now = new Date();
    const nowIso = now.toISOString();
    const until = new Date(now.getTime() + windowMs).toISOString();
    if (now.getTime() - this.swept > SWEEP_EVERY_MS) {
      this.swept = now.getTime();
      // Not awaited: a failed sweep only leaves expired rows for the next one.
      this.db
        .deleteFrom("rate_limit")
        .where("expires_at", "<=", nowIso)
        .execute()
        .catch(() => {});
    }
    // One statement: concurrent hits on any process serialise on the row.
    const expired = sql<boolean>`rate_limit.expires_at <= ${nowIso}`;
    const row = await this.db
      .insertInto("rate_limit")
      .values({ key, hits: 1, expires_at: until })
      .onConflict((oc) =>
        oc.column("key").doUpdateSet({
          hits: sql<number>`case when ${expired} then 1 else rate_limit.hits + 1 end`,
          expires_at: sql<string>`case when ${expired} then ${until} else rate_limit.expires_at end`,
        }),
      )
      .returning(["hits", "expires_at"])
      .executeTakeFirstOrThrow();
    return { count: Number(row.hits), resetAt: Date.parse(row.expires_at) };
  }

  async peek(key: string): Promise<Hit | null> {
    const row = await this.db
      .selectFrom("rate_limit")
      .select(["hits", "expires_at"])
      .where("key", "=", key)
      .where("expires_at", ">", new Date().toISOString())
      .executeTakeFirst();
    return row ? { count: Number(row.hits), resetAt: Date.parse(row.expires_at) } : null;
  }
}

export function createLimitStore(db: Db, dialect: Dialect): LimitStore {
  return dialect === "postgres" ? new DbLimitStore(db) : new MemoryLimitStore();
}

/** The bucket of a client address: IPv4 as is, IPv6 per /64. */
export function addressKey(ip: string): string {
  const addr = ip.replace(/%.*$/, "");
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(addr);
  if (mapped) return mapped[1];
  if (!addr.includes(":")) return addr;
  const [head, tail] = addr.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = tail === undefined ? h : [...h, ...Array(Math.max(0, 8 - h.length - t.length)).fill("0"), ...t];
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(":")}::/64`;
}

/** What rules build their keys from. */
export interface Keys {
  /** the client's address (see addressKey) */
  address(req: FastifyRequest): string;
  /** the canonical account of a login name or email: every spelling that reaches one account gives one key */
  account(input: string): Promise<string>;
  /** the mailbox a mail about this account or email goes to (the account's email; else the canonical account) */
  recipient(input: string): Promise<string>;
}

export function makeKeys(db: Db): Keys {
  const lookup = (input: string) => {
    const a = input.trim();
    return db
      .selectFrom("app_user")
      .select(["username", "email"])
      .where((eb) => eb.or([eb("username", "=", a), eb("email", "=", normEmail(a))]))
      .orderBy("id")
      .executeTakeFirst();
  };
  const account = async (input: string) => {
    const folded = input.trim().toLowerCase();
    // Only an email form needs the database: a username is its own canonical form.
    if (!folded.includes("@")) return folded;
    return ((await lookup(input))?.username ?? folded).trim().toLowerCase();
  };
  return {
    address: (req) => addressKey(req.ip),
    account,
    async recipient(input) {
      if (input.includes("@")) return normEmail(input);
      const user = await lookup(input);
      return user?.email ? normEmail(user.email) : `account:${await account(input)}`;
    },
  };
}

export interface LimitRule {
  /** the bucket family, e.g. "login"; rules of one name share buckets across routes */
  name: string;
  max: number;
  windowMs: number;
  /** the bucket's subject; null skips the rule for this request */
  key(req: FastifyRequest, k: Keys): string | null | Promise<string | null>;
}

/** A limit on failed replies (see FAILURE LIMITS above). */
export interface FailureRule {
  name: string;
  /** failures in the window before any slowdown */
  allowance: number;
  /** failures in the window at which requests are refused (429) */
  ceiling: number;
  windowMs: number;
  /** the delay added per failure past the allowance */
  slowdownStepMs: number;
  /** which replies count as a failure */
  failed(statusCode: number): boolean;
  key(req: FastifyRequest, k: Keys): string | null | Promise<string | null>;
}

export const MAX_SLOWDOWN_STEPS = 40;

/** The wait before a request whose bucket already holds `failures` failures (pure). */
export function slowdownMs(rule: Pick<FailureRule, "allowance" | "slowdownStepMs">, failures: number): number {
  const excess = failures - rule.allowance;
  return excess < 1 ? 0 : Math.min(excess, MAX_SLOWDOWN_STEPS) * rule.slowdownStepMs;
}

declare module "fastify" {
  interface FastifyContextConfig {
    limits?: LimitRule[];
    failureLimits?: FailureRule[];
  }
}

/** Common rules. */
export const perAddress = (name: string, max: number, windowMs = MINUTE): LimitRule => ({
  name,
  max,
  windowMs,
  key: (req, k) => k.address(req),
});

/** Per signed-in user (an anonymous request skips the rule; the route requires a login anyway). */
export const perUser = (name: string, max: number, windowMs = MINUTE): LimitRule => ({
  name,
  max,
  windowMs,
  key: (req) => (req.user ? String(req.user.id) : null),
});

const hashKey = (name: string, subject: string) => `${name}:${createHash("sha256").update(subject, "utf8").digest("base64url")}`;

export const TOO_MANY = "操作过于频繁，请稍后再试";

/** Every request made with an API token counts in the token's own bucket. */
export const perToken = (max: number): LimitRule => ({
  name: "api-token",
  max,
  windowMs: MINUTE,
  key: (req) => (req.apiToken ? String(req.apiToken.id) : null),
});

export function registerLimits(
  app: FastifyInstance,
  deps: {
    db: Db;
    dialect: Dialect;
    store?: LimitStore;
    apiTokenRateMax?: number;
    onRefused?: (rule: string) => void;
    sleep?: (ms: number) => Promise<void>;
  },
) {
  const store = deps.store ?? createLimitStore(deps.db, deps.dialect);
  const keys = makeKeys(deps.db);
  const tokenRule = perToken(deps.apiTokenRateMax ?? 300);
  app.addHook("preHandler", async (req, reply) => {
    const own = req.routeOptions.config?.limits ?? [];
    const rules = req.apiToken ? [tokenRule, ...own] : own;
    if (!rules.length) return;
    for (const rule of rules) {
      const subject = await rule.key(req, keys);
      if (subject === null) continue;
      const hit = await store.hit(hashKey(rule.name, subject), rule.windowMs);
      if (hit.count > rule.max) {
        // Later rules do not count a refused request: one address past its own limit cannot
        // use up an account's or a mailbox's shared ceiling for everybody else.
        reply.header("retry-after", secondsUntil(hit.resetAt));
        deps.onRefused?.(rule.name);
        throw new DomainError(429, TOO_MANY);
      }
    }
  });
  registerFailureLimits(app, store, keys, deps);
}

/** Retry-After: whole seconds until a bucket's window ends, at least 1. */
const secondsUntil = (resetAt: number) => String(Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)));

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function registerFailureLimits(
  app: FastifyInstance,
  store: LimitStore,
  keys: Keys,
  deps: { onRefused?: (rule: string) => void; sleep?: (ms: number) => Promise<void> },
) {
  const sleep = deps.sleep ?? wait;
  const buckets = new WeakMap<FastifyRequest, { rule: FailureRule; key: string }[]>();
  app.addHook("preHandler", async (req, reply) => {
    const rules = req.routeOptions.config?.failureLimits;
    if (!rules?.length) return;
    const mine: { rule: FailureRule; key: string }[] = [];
    for (const rule of rules) {
      const subject = await rule.key(req, keys);
      if (subject === null) continue;
      const key = hashKey(rule.name, subject);
      const bucket = await store.peek(key);
      const failures = bucket?.count ?? 0;
      if (bucket && failures >= rule.ceiling) {
        reply.header("retry-after", secondsUntil(bucket.resetAt));
        deps.onRefused?.(rule.name);
        throw new DomainError(429, TOO_MANY);
      }
      const delay = slowdownMs(rule, failures);
      if (delay) await sleep(delay);
      mine.push({ rule, key });
    }
    buckets.set(req, mine);
  });
  app.addHook("onResponse", async (req, reply) => {
    for (const { rule, key } of buckets.get(req) ?? []) if (rule.failed(reply.statusCode)) await store.hit(key, rule.windowMs);
  });
}
