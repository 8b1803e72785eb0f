/**
 * /Backend/Health (root only, casbin api.health): the /test page's view of this deployment —
 * version and commit, database kind and migration level, mail mode, storage and queue drivers,
 * process hints — and a rate-limited test mail to the caller's own address. Only hosts, ports,
 * bucket and file names are shown: passwords, keys and credentialed URLs never leave the server.
 */
import { execFileSync } from "node:child_process";
import cluster from "node:cluster";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename, join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { sql } from "kysely";
import { Envelope } from "../../shared/envelope";
import { badRequest } from "../../shared/errors";
import { HealthView, TestMailReply } from "../../shared/health/schema";
import type { Config } from "../config";
import type { Db, Dialect } from "../db";
import { migrations } from "../db/migrations/index";
import type { Mailer } from "../mail/mailer";
import { HOUR, type LimitRule } from "../plugins/limits";

const tags = ["系统"];
const STARTED = new Date().toISOString();

let versionCache: { version: string; commit: string | null } | undefined;
function version(rootDir: string) {
  if (versionCache) return versionCache;
  let v = "unknown";
  try {
    v = String(JSON.parse(readFileSync(join(rootDir, "package.json"), "utf8")).version ?? v);
  } catch {
    /* no package.json */
  }
  let commit: string | null = process.env.GIT_COMMIT?.slice(0, 40) || null;
  if (!commit) {
    try {
      commit =
        execFileSync("git", ["rev-parse", "--short=12", "HEAD"], {
          cwd: rootDir,
          stdio: ["ignore", "pipe", "ignore"],
          timeout: 2000,
        })
          .toString()
          .trim() || null;
    } catch {
      commit = null;
    }
  }
  return (versionCache = { version: v, commit });
}

/** host:port/database of a URL, without user or password; a file URL gives its file name. */
export function safeLocation(url: string): string {
  if (/^postgres(ql)?:\/\//i.test(url)) {
    try {
      const u = new URL(url);
      return `${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
    } catch {
      return "postgres";
    }
  }
  return basename(url.replace(/^file:/, "").split("?")[0]);
}

function smtpHost(config: Config): { host: string | null; port: number | null; auth: boolean } {
  const { smtp } = config;
  if (smtp.url) {
    try {
      const u = new URL(smtp.url);
      return { host: u.hostname, port: u.port ? Number(u.port) : null, auth: !!u.username };
    } catch {
      return { host: null, port: null, auth: false };
    }
  }
  return { host: smtp.host ?? null, port: smtp.port ?? (smtp.host ? 587 : null), auth: !!smtp.user };
}

/** The display address of MAIL_FROM ("名字 <addr>"), which is not a secret. */
const fromOf = (from: string) => from.slice(0, 200);

/** Test mails: 3 per account per hour (the bucket table is shared by every process). */
const testMailLimit: LimitRule = {
  name: "health-test-mail",
  max: 3,
  windowMs: HOUR,
  key: (req) => (req.user ? `user:${req.user.id}` : null),
};

export function healthRoutes(
  app: FastifyInstance,
  deps: { db: Db; dialect: Dialect; config: Config; mailer: Mailer; rootDir: string },
) {
  const { db, dialect, config, mailer } = deps;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    "/Backend/Health",
    {
      schema: { tags, summary: "部署状态（测试页，仅超级管理员；不含任何密码或密钥）", response: { 200: Envelope(HealthView) } },
      config: { access: ["api.health", "read"] },
    },
    async () => {
      const rows = await sql<{
        name: string;
        timestamp: string;
      }>`select name, timestamp from kysely_migration order by timestamp desc, name desc`.execute(db);
      const applied = new Set(rows.rows.map((r) => r.name));
      const known = Object.keys(migrations).sort();
      const smtp = smtpHost(config);
      const s = config.storage;
      let endpoint: string | null = null;
      if (s.driver === "s3" && s.s3.endpoint) {
        try {
          endpoint = new URL(s.s3.endpoint).host;
        } catch {
          endpoint = null;
        }
      }
      const { version: v, commit } = version(deps.rootDir);
      return {
        error: 0,
        info: "成功",
        data: {
          version: v,
          commit,
          node: process.version,
          startedAt: STARTED,
          database: {
            kind: dialect,
            location: safeLocation(config.databaseUrl),
            latestMigration: rows.rows[0]?.name ?? null,
            applied: applied.size,
            known: known.length,
            pending: known.filter((n) => !applied.has(n)),
          },
          mail: {
            mode: config.smtp.url || config.smtp.host ? ("smtp" as const) : ("outbox" as const),
            ...smtp,
            from: fromOf(config.smtp.from),
          },
          storage: { driver: s.driver, bucket: s.driver === "s3" ? s.s3.bucket : null, endpoint },
          queue: { driver: dialect === "postgres" ? "pg-boss（PostgreSQL）" : "queue_task 表（单进程）" },
          process: {
            pid: process.pid,
            clusterWorker: cluster.isWorker,
            workerId: cluster.worker?.id ?? null,
            cpus: availableParallelism(),
            uptimeSeconds: Math.round(process.uptime()),
            rssMB: Math.round(process.memoryUsage().rss / 1048576),
            hint:
              dialect === "postgres"
                ? cluster.isWorker
                  ? `本进程是 start:cluster 的第 ${cluster.worker?.id} 个工作进程；可用 npm run start:cluster -- --workers N 调整进程数（建议不超过 CPU 数 ${availableParallelism()}）`
                  : `单进程运行；PostgreSQL 下可用 npm run start:cluster -- --workers N 多进程（建议不超过 CPU 数 ${availableParallelism()}）`
                : "SQLite 嵌入式数据库只能由一个进程写入：单进程运行；多进程请改用 PostgreSQL",
          },
        },
      };
    },
  );

  r.post(
    "/Backend/Health/test-mail",
    {
      schema: { tags, summary: "给自己的邮箱发一封测试邮件（每小时 3 封）", response: { 200: Envelope(TestMailReply) } },
      config: { access: ["api.health", "create"], limits: [testMailLimit] },
    },
    async (req) => {
      const to = req.user!.email;
      if (!to) throw badRequest("您的账号未绑定邮箱，无法发送测试邮件");
      await mailer.send({
        to,
        subject: "赛务平台测试邮件",
        text: `这是一封来自赛务平台测试页的邮件，发送时间 ${new Date().toISOString()}。\n收到即说明邮件发送正常。`,
      });
      return { error: 0, info: `测试邮件已发送至 ${to}`, data: { to } };
    },
  );
}
