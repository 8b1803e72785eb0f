/** Settings from the environment, read once at start. */
import { resolve } from "node:path";

/** Where an S3-compatible blob store lives (STORAGE_DRIVER=s3; storage/s3.ts uses it). */
export interface S3Settings {
  /** e.g. http://127.0.0.1:9000; empty = AWS's endpoint for the region */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Both or neither; neither = the SDK's default credentials (AWS_* env, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** bucket in the path (MinIO, Ceph, s3rver) instead of the host name (AWS, OSS, COS) */
  forcePathStyle: boolean;
  /** "" or a folder-like prefix ending in "/", put before every key */
  prefix: string;
}

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  dataDir: string;
  /** Base URL used in mailed links. */
  publicUrl: string;
  /** PUBLIC_URL was given (else links built for a request use the address it was sent to). */
  publicUrlSet: boolean;
  seedDemo: boolean;
  /** The session cookie is marked Secure: COOKIE_SECURE "1"/"0", else when PUBLIC_URL is https. */
  cookieSecure: boolean;
  /** PUBLIC_URL is https: HSTS is sent (never over a plain-http deployment). */
  httpsPublic: boolean;
  /**
   * Proxies whose X-Forwarded-For/-Proto/-Host are believed (IPs or CIDRs). Empty: the
   * client address is the connection's peer and forwarded headers are ignored.
   */
  trustedProxies: string[];
  sessionDays: number;
  smtp: { url?: string; host?: string; port?: number; user?: string; pass?: string; from: string };
  /** Login attempts per account and address per minute. */
  loginRateMax: number;
  /** failed logins from one address (any accounts) in 10 minutes before each next attempt is slowed; 10 × refuses */
  loginAddressRateMax: number;
  /** the delay added per failed login past that allowance */
  loginSlowdownMs: number;
  /** requests per minute of one API token (API_TOKEN_RATE_MAX) */
  apiTokenRateMax: number;
  /** Mails (verification, recovery) one address may be sent per hour. */
  mailRateMax: number;
  /** Certificate verifications (GET /Backend/Certificate/verify) per client address per minute. */
  certVerifyRateMax: number;
  /**
   * GET /metrics (src/server/metrics): served unless METRICS=0. With METRICS_TOKEN (at least
   * 16 characters) every scrape must send `Authorization: Bearer <token>`; without one only a
   * direct loopback caller (no proxy in between) may scrape.
   */
  metrics: { enabled: boolean; token: string | null };
  logLevel: string;
  /**
   * On SIGTERM/SIGINT (serve.ts): how long requests in flight may take to finish before
   * their connections are cut (SHUTDOWN_GRACE_SECONDS, default 20).
   */
  shutdownGraceSeconds: number;
  distDir: string;
  /**
   * Where uploaded files are kept (src/server/storage): "local" = content-addressed files
   * under blobDir; "s3" = the same layout in an S3-compatible bucket (blobDir unused).
   */
  storage: { driver: "local"; blobDir: string } | { driver: "s3"; blobDir: string; s3: S3Settings };
  /**
   * Where the certificate signing private key comes from (certificate/key-source.ts): the PEM
   * of CERT_SIGNING_KEY, else the file CERT_SIGNING_KEY_FILE, else <DATA_DIR>/keys/
   * certificate-signing.pem (created at first use, mode 0600). Never from the database.
   */
  certificates: { signingKey: string | null; signingKeyFile: string; signingKeyFileSet: boolean };
  /**
   * Load shedding (plugins/overload.ts): past a limit, API requests get 503 with Retry-After
   * at once. 0 turns a limit off. OVERLOAD_MAX_IN_FLIGHT (1000), OVERLOAD_MAX_EVENT_LOOP_DELAY_MS
   * (1000, mean lag over a sample, two in a row), OVERLOAD_SAMPLE_MS (1000), OVERLOAD_RETRY_AFTER_SECONDS (5).
   */
  overload: { maxInFlight: number; maxEventLoopDelayMs: number; sampleMs: number; retryAfterSeconds: number };
  /** Background jobs (src/server/jobs). */
  jobs: {
    /** a running job whose process has not reported for this long is taken over by another (or failed) */
    leaseSeconds: number;
    /** how many times a job is started before it ends failed (a crash mid-run counts) */
    maxAttempts: number;
    /** finished job rows (and their files) are removed after this many days */
    retentionDays: number;
    /** how often the clean-up task runs (once across all processes) */
    cleanupSeconds: number;
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  const dataDir = resolve(env.DATA_DIR ?? "data");
  const databaseUrl = env.DATABASE_URL ?? `file:${resolve(dataDir, "saiwu.db")}`;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
  const httpsPublic = /^https:\/\//i.test(publicUrl);
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    databaseUrl,
    dataDir,
    publicUrl,
    publicUrlSet: !!env.PUBLIC_URL,
    seedDemo: env.SEED_DEMO !== "0",
    cookieSecure: env.COOKIE_SECURE === "1" ? true : env.COOKIE_SECURE === "0" ? false : httpsPublic,
    httpsPublic,
    trustedProxies: (env.TRUSTED_PROXIES ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
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
    loginAddressRateMax: positive(env.LOGIN_ADDRESS_RATE_MAX, 50),
    loginSlowdownMs: positive(env.LOGIN_SLOWDOWN_MS, 250),
    apiTokenRateMax: Number(env.API_TOKEN_RATE_MAX ?? 300),
    mailRateMax: Number(env.MAIL_RATE_MAX ?? 5),
    certVerifyRateMax: positive(env.CERT_VERIFY_RATE_MAX, 30),
    metrics: metrics(env),
    logLevel: env.LOG_LEVEL ?? "info",
    shutdownGraceSeconds: positive(env.SHUTDOWN_GRACE_SECONDS, 20),
    distDir: resolve(env.DIST_DIR ?? "dist/client"),
    storage: storage(env, resolve(env.BLOB_DIR ?? resolve(dataDir, "blobs"))),
    certificates: {
      signingKey: env.CERT_SIGNING_KEY || null,
      signingKeyFile: resolve(env.CERT_SIGNING_KEY_FILE || resolve(dataDir, "keys", "certificate-signing.pem")),
      signingKeyFileSet: !!env.CERT_SIGNING_KEY_FILE,
    },
    overload: {
      maxInFlight: nonNegative(env.OVERLOAD_MAX_IN_FLIGHT, 1000),
      maxEventLoopDelayMs: nonNegative(env.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS, 1000),
      sampleMs: positive(env.OVERLOAD_SAMPLE_MS, 1000),
      retryAfterSeconds: Math.ceil(positive(env.OVERLOAD_RETRY_AFTER_SECONDS, 5)),
    },
    jobs: {
      leaseSeconds: positive(env.JOB_LEASE_SECONDS, 120),
      maxAttempts: positive(env.JOB_MAX_ATTEMPTS, 3),
      retentionDays: positive(env.JOB_RETENTION_DAYS, 7),
      cleanupSeconds: positive(env.JOB_CLEANUP_SECONDS, 86400),
    },
  };
}

/** STORAGE_DRIVER: "local" (default) or "s3" with its S3_* settings. */
function storage(env: NodeJS.ProcessEnv, blobDir: string): Config["storage"] {
  const v = env.STORAGE_DRIVER;
  if (v === undefined || v === "" || v === "local") return { driver: "local", blobDir };
  if (v !== "s3") throw new Error(`STORAGE_DRIVER=${v} is not supported (available: local, s3)`);
  if (!env.S3_BUCKET) throw new Error("STORAGE_DRIVER=s3 needs S3_BUCKET");
  if (!env.S3_ACCESS_KEY !== !env.S3_SECRET_KEY)
    throw new Error("S3_ACCESS_KEY and S3_SECRET_KEY are set together (or neither, for the SDK's default credentials)");
  const flag = env.S3_FORCE_PATH_STYLE ?? "0";
  if (flag !== "0" && flag !== "1") throw new Error(`S3_FORCE_PATH_STYLE=${flag} must be 0 or 1`);
  const prefix = (env.S3_PREFIX ?? "").replace(/^\/+|\/+$/g, "");
  return {
    driver: "s3",
    blobDir,
    s3: {
      endpoint: env.S3_ENDPOINT || undefined,
      bucket: env.S3_BUCKET,
      region: env.S3_REGION || "us-east-1",
      accessKeyId: env.S3_ACCESS_KEY || undefined,
      secretAccessKey: env.S3_SECRET_KEY || undefined,
      forcePathStyle: flag === "1",
      prefix: prefix ? `${prefix}/` : "",
    },
  };
}

/** METRICS "0" turns GET /metrics off entirely (even METRICS_TOKEN then serves nothing); unset or "1" leaves it on. */
function metrics(env: NodeJS.ProcessEnv): Config["metrics"] {
  const flag = env.METRICS ?? "1";
  if (flag !== "0" && flag !== "1" && flag !== "") throw new Error(`METRICS=${flag} must be 0 or 1`);
  const token = env.METRICS_TOKEN?.trim() || null;
  if (token !== null && (token.length < 16 || /\s/.test(token)))
    throw new Error("METRICS_TOKEN must be at least 16 characters without spaces");
  return { enabled: flag !== "0", token };
}

/** A limit where 0 means off. */
function nonNegative(v: string | undefined, fallback: number): number {
  return v === "0" ? 0 : positive(v, fallback);
}

function positive(v: string | undefined, fallback: number): number {
  if (v === undefined || v === "") return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`expected a positive number, got ${v}`);
  return n;
}
