/** Settings from the environment, read once at start. */
import { resolve } from "node:path";

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  dataDir: string;
  /** Base URL used in mailed links. */
  publicUrl: string;
  seedDemo: boolean;
  cookieSecure: boolean;
  sessionDays: number;
  smtp: { url?: string; host?: string; port?: number; user?: string; pass?: string; from: string };
  /** Login attempts per account and address per minute. */
  loginRateMax: number;
  logLevel: string;
  distDir: string;
  /** Where uploaded files are kept (src/server/storage): "local" = content-addressed files under blobDir. */
  storage: { driver: "local"; blobDir: string };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  const dataDir = resolve(env.DATA_DIR ?? "data");
  const databaseUrl = env.DATABASE_URL ?? `file:${resolve(dataDir, "saiwu.db")}`;
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    databaseUrl,
    dataDir,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ""),
    seedDemo: env.SEED_DEMO !== "0",
    cookieSecure: env.COOKIE_SECURE === "1",
    sessionDays: Number(env.SESSION_DAYS ?? 7),
    smtp: {
      url: env.SMTP_URL,
      host: env.SMTP_HOST,
      port: env.SMTP_PORT ? Number(env.SMTP_PORT) : undefined,
      user: env.SMTP_USER,
      pass: env.SMTP_PASS,
      from: env.MAIL_FROM ?? "赛务平台 <noreply@localhost>",
    },
    loginRateMax: Number(env.LOGIN_RATE_MAX ?? 10),
    logLevel: env.LOG_LEVEL ?? "info",
    distDir: resolve(env.DIST_DIR ?? "dist"),
    storage: { driver: storageDriver(env.STORAGE_DRIVER), blobDir: resolve(env.BLOB_DIR ?? resolve(dataDir, "blobs")) },
  };
}

/** The storage drivers this build has; an S3-compatible one can be added next to "local". */
function storageDriver(v: string | undefined): "local" {
  if (v === undefined || v === "" || v === "local") return "local";
  throw new Error(`STORAGE_DRIVER=${v} is not supported (available: local)`);
}
