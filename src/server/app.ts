/**
 * Builds the Fastify app: the plugins (createFastify, registerPlugins), then every domain's
 * routes, explicitly (registerDomains), the background work (startBackground) and the built
 * front end (registerFrontEnd). The cross-domain effects are wired in ./effects.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { Ajv } from "ajv";
import addFormatsPlugin from "ajv-formats";
import cookie from "@fastify/cookie";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import fastifyStatic from "@fastify/static";
import multipart from "@fastify/multipart";
import { makePolicy, type Policy } from "../shared/access";
import type { Config } from "./config";
import { ROOT_DIR } from "./root";
import type { Db, Dialect } from "./db";
import { createMailer, type Mailer } from "./mail/mailer";
import { frameworkErrorReply, registerErrors } from "./plugins/errors";
import { registerAuth } from "./plugins/auth";
import { tokenResolver } from "./token/service";
import { registerSecurityHeaders } from "./plugins/security-headers";
import { watchChanges } from "./db/changes";
import { registerAccess } from "./plugins/access";
import { registerInputGuard } from "./plugins/input";
import { registerLimits } from "./plugins/limits";
import { registerOverload } from "./plugins/overload";
import { registerMetrics } from "./metrics/plugin";
import { LazySchemas } from "./plugins/lazy-schemas";
import { accountRoutes } from "./account/routes";
import { acceptsToken, registerTokenAudit, tokenRoutes } from "./token/routes";
import { registerBareJson, registerCrossOrigin } from "./crud/rest";
import { INTEGRATION_GUIDE } from "./token/guide";
import { commonRoutes } from "./common/routes";
import { Jobs } from "./jobs/user-jobs";
import { startQueue, type TaskQueue } from "./jobs/queue";
import { queuedMailer } from "./mail/queued";
import { scheduleCleanup } from "./jobs/cleanup";
import { registerWorkExport } from "./work/export";
import { todoRoutes } from "./todo/routes";
import { scheduleDigest } from "./todo/digest";
import { jobRoutes } from "./jobs/routes";
import { userActionRoutes } from "./user/actions";
import { userPhoneRoute } from "./user/phone";
import { auditRoutes } from "./audit/routes";
import { noticeRoutes } from "./notice/routes";
import { newsPublicRoutes } from "./news/routes";
import { registerResource } from "./crud/resource";
import { mainpageRoutes } from "./mainpage/routes";
import { resources } from "./resources";
import { workTypeRoutes } from "./work-type/routes";
import { contestRoutes } from "./contest/routes";
import { workRoutes } from "./work/routes";
import { teamInviteRoutes } from "./work/routes/invite";
import { workFileRoutes } from "./work/files/routes";
import { workExportRoutes } from "./work/routes/export";
import { createBlobStore, type BlobStore } from "./storage";
import { reviewRoutes } from "./review/routes";
import { judgingRoutes } from "./judging/routes/index";
import { nationalRoutes } from "./national/routes";
import { profileRoutes } from "./profile/routes";
import { complaintRoutes } from "./complaint/routes";
import { certificateRoutes } from "./certificate/routes";
import { startSigningKeys } from "./certificate/key-migration";
import { scheduleReminders } from "./complaint/reminders";
import { judgePoolRoutes } from "./judge-pool/routes";
import { judgeInviteRoutes } from "./judge-invite/routes";
import { healthRoutes } from "./health/routes";
import { probeRoutes } from "./health/probes";
import { classifyUnknownPath } from "./static/app-pages";
import { scheduleInviteReminders } from "./judge-invite/reminders";
import { dupcheckRoutes } from "./dupcheck/routes";
import { myDataRoutes } from "./my-data/routes";
import { retentionRoutes } from "./retention/routes";
import { statsRoutes } from "./stats/routes";
import { scheduleRetention } from "./retention/service";
// Every cross-domain effect's handler, registered before any request can emit one.
import { events } from "./effects";

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => Ajv;

export { ROOT_DIR };

export async function loadPolicy(): Promise<Policy> {
  return makePolicy(
    readFileSync(join(ROOT_DIR, "casbin/model.conf"), "utf8"),
    readFileSync(join(ROOT_DIR, "casbin/policy.csv"), "utf8"),
  );
}

export interface AppDeps {
  db: Db;
  dialect: Dialect;
  config: Config;
  mailer?: Mailer;
  logger?: boolean;
}

/** What every domain's routes and background work are given. */
interface Services {
  db: Db;
  dialect: Dialect;
  config: Config;
  policy: Policy;
  store: BlobStore;
  queue: TaskQueue;
  mailer: Mailer;
  jobs: Jobs;
  log: (msg: string, err?: unknown) => void;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { db, config } = deps;
  const app = createFastify(deps);
  const policy = await loadPolicy();
  await registerPlugins(app, deps, policy);

  const log = (msg: string, err?: unknown) => (err ? app.log.error({ err }, msg) : app.log.warn(msg));
  // An after-commit effect that failed (src/server/events/): the change stands; it is logged.
  events.reportError = (event, err) => app.log.error({ err }, `事件「${event}」的后续处理失败`);
  // A missing bucket or refused credentials stop the start here, with a clear message.
  const store = createBlobStore(config);
  await store.check();
  // The certificate signing key's source; private keys of older versions moved out of the database.
  await startSigningKeys(app, db, config.certificates);
  // GET /healthz and /readyz, anonymous (health/probes.ts).
  probeRoutes(app, { db, dialect: deps.dialect, store });
  const queue = await startQueue(db, deps.dialect, config, log);
  const mailer = await queuedMailer(deps.mailer ?? createMailer(config, (m) => app.log.info(m)), queue, log);
  const jobs = new Jobs(db, deps.dialect, store, queue, config, log);
  const services: Services = { db, dialect: deps.dialect, config, policy, store, queue, mailer, jobs, log };

  await registerDomains(app, services);
  await startBackground(app, services);
  await registerFrontEnd(app, config);
  return app;
}

/** The Fastify instance: logging, proxies, body limit, shutdown, and schemas compiled on first use. */
function createFastify({ config, logger }: AppDeps): FastifyInstance {
  // Validators and serializers are compiled on each route's first use (plugins/lazy-schemas.ts).
  const schemas = new LazySchemas();
  const app = Fastify({
    logger: logger === false ? false : { level: config.logLevel },
    // X-Forwarded-For/-Proto/-Host are believed only from the configured proxies; without
    // any, the client address is the connection's peer (a client cannot pick its own).
    trustProxy: config.trustedProxies.length ? config.trustedProxies : false,
    bodyLimit: 1024 * 1024,
    frameworkErrors: (err, req, reply) => void frameworkErrorReply(err, req, reply),
    // Shutting down (serve.ts): app.close() stops accepting connections and closes the idle
    // ones; a request that still arrives on an open connection is served as usual, with
    // `Connection: close` (Fastify's default would answer it a bare 503 outside our envelope),
    // and /readyz says 503 meanwhile (health/probes.ts).
    return503OnClosing: false,
    forceCloseConnections: "idle",
    schemaController: { compilersFactory: { buildSerializer: schemas.serializerFactory() as never } },
  });
  app.decorate("lazySchemas", schemas);

  // Query strings and path parameters arrive as text and are coerced to their schema
  // types; JSON bodies are taken as sent, so null stays null (coercion would turn a null
  // of a "string or null" field into "" and of a number into 0).
  const ajvOptions = { removeAdditional: true, useDefaults: true, allErrors: false, verbose: true, strict: false } as const;
  const bodyAjv = addFormats(new Ajv({ ...ajvOptions, coerceTypes: false }));
  const textAjv = addFormats(new Ajv({ ...ajvOptions, coerceTypes: "array" }));
  app.setValidatorCompiler(({ schema, httpPart }) =>
    schemas.validator(() => (httpPart === "body" ? bodyAjv : textAjv).compile(schema)),
  );
  return app;
}

/** The plugins every request passes through, in order (docs/architecture.md, "A request, end to end"). */
async function registerPlugins(app: FastifyInstance, deps: AppDeps, policy: Policy) {
  const { db, config } = deps;
  registerErrors(app);
  // GET /metrics for Prometheus and the hook counting requests for it (METRICS=0: neither).
  const metrics = registerMetrics(app, { db, dialect: deps.dialect, config });
  // Over capacity: API requests get 503 with Retry-After at once (probes and /metrics never), counted by reason.
  registerOverload(app, config.overload, metrics?.overloadRefused);
  if (!config.trustedProxies.length) warnUnconfiguredProxy(app);
  // Computed once at start (plugins/security-headers.ts): @fastify/helmet would rebuild them per request.
  await registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // News covers may be linked from other https sites (an admin enters the address);
        // images in rich text are inline data: or our own (richtext/sanitize.ts).
        imgSrc: ["'self'", "data:", "blob:", "https:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // HSTS only for an https deployment: over plain http it would lock browsers out of it.
    ...(config.httpsPublic ? {} : { strictTransportSecurity: false }),
  });
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: 50 * 1024 * 1024, files: 1 } });
  await registerOpenApi(app);

  // On PostgreSQL the read caches serve nothing until other processes' writes are heard.
  await watchChanges(db);
  registerAuth(app, db, tokenResolver(db));
  registerAccess(app, policy, config);
  registerInputGuard(app);
  registerLimits(app, { db, dialect: deps.dialect, apiTokenRateMax: config.apiTokenRateMax, onRefused: metrics?.limitRefused });
  registerTokenAudit(app, db);
  registerBareJson(app);
  registerCrossOrigin(app);
}

/** Behind a proxy that is not configured, every client would count as the proxy's address: said once. */
function warnUnconfiguredProxy(app: FastifyInstance) {
  let warned = false;
  app.addHook("onRequest", async (req) => {
    if (warned || !req.headers["x-forwarded-for"]) return;
    warned = true;
    req.log.warn(
      `收到来自 ${req.ip} 的 X-Forwarded-For，但未设置 TRUSTED_PROXIES：转发头被忽略，客户端地址按连接对端计（限流按此地址计数）。在反向代理之后运行时请把代理地址写入 TRUSTED_PROXIES。`,
    );
  });
}

/** The OpenAPI document (/Backend/openapi.json) and its viewer (/Backend/docs). */
async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: "赛务平台 API",
        version: "1.0.0",
        description: `所有接口返回 { error, info, data? }：error 为 0 表示成功。标有 apiToken 的接口也接受 API 令牌（Authorization: Bearer swp_…，在“账号安全”页创建）。\n\n${INTEGRATION_GUIDE}`,
      },
      components: {
        securitySchemes: { apiToken: { type: "http", scheme: "bearer", description: "API 令牌：swp_<编号>_<密钥>" } },
      },
    },
    // Routes a token may call declare the bearer scheme; the others stay cookie-only.
    transform: ({ schema, url, route }) => {
      const access = (route.config as { access?: unknown } | undefined)?.access;
      return { schema: acceptsToken(access) ? { ...schema, security: [{ apiToken: [] }] } : schema, url } as never;
    },
  });
  await app.register(swaggerUi, { routePrefix: "/Backend/docs", staticCSP: true });
  app.get("/Backend/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}

/** Every domain's routes, explicitly (no autoloading: grep finds every route). */
async function registerDomains(app: FastifyInstance, s: Services) {
  const { db, config, mailer, jobs, store, policy } = s;
  commonRoutes(app, db);
  accountRoutes(app, { db, config, mailer });
  tokenRoutes(app, db, policy);
  jobRoutes(app, jobs);
  userActionRoutes(app, { db, config, mailer });
  userPhoneRoute(app, { db });
  auditRoutes(app, db);
  noticeRoutes(app, db);
  newsPublicRoutes(app, db);
  for (const resource of resources) registerResource(app, { db, jobs }, resource);
  workRoutes(app, { db });
  teamInviteRoutes(app, { db, mailer, config });
  workFileRoutes(app, { db, store });
  workExportRoutes(app, { db, jobs });
  registerWorkExport(db, jobs);
  reviewRoutes(app, db);
  judgingRoutes(app, { db, store });
  nationalRoutes(app, db);
  profileRoutes(app, db);
  complaintRoutes(app, { db, store, mailer, config });
  certificateRoutes(app, { db, store, jobs, config });
  judgePoolRoutes(app, { db, jobs });
  judgeInviteRoutes(app, { db, mailer, config });
  healthRoutes(app, { db, dialect: s.dialect, config, mailer, rootDir: ROOT_DIR });
  await dupcheckRoutes(app, { db, store, jobs, queue: s.queue, log: s.log });
  workTypeRoutes(app, db);
  mainpageRoutes(app, { db, store });
  contestRoutes(app, db);
  todoRoutes(app, db, policy);
  myDataRoutes(app, db);
  retentionRoutes(app, db);
  statsRoutes(app, db);
}

/** Background work starts once every runner is registered; it stops before the database closes. */
async function startBackground(app: FastifyInstance, s: Services) {
  const { db, config, mailer, jobs, queue, store, policy } = s;
  const info = (msg: string) => app.log.info(msg);
  await jobs.start();
  await scheduleCleanup(queue, { db, store, config, log: info });
  await scheduleReminders(queue, { db, mailer, publicUrl: config.publicUrl, log: info });
  await scheduleInviteReminders(queue, { db, mailer, config, log: info });
  await scheduleDigest(queue, { db, policy, mailer, publicUrl: config.publicUrl, log: info });
  await scheduleRetention(queue, { db, store, log: info });
  app.addHook("onClose", async () => {
    await jobs.stop();
    await queue.stop();
  });
}

/**
 * The built front end, with every unknown non-API path answered by index.html. Hashed assets
 * (dist/assets, precompressed at build time: src/server/static/precompress.ts) are sent as .br/.gz
 * by Accept-Encoding with a year-long immutable cache; index.html is revalidated (ETag/Last-Modified).
 */
async function registerFrontEnd(app: FastifyInstance, config: Config) {
  const index = join(config.distDir, "index.html");
  const hasDist = existsSync(index);
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: config.distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders: (reply, path) => {
        const hashed = /[\\/]assets[\\/]/.test(path.slice(config.distDir.length));
        reply.header("cache-control", hashed ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const kind = classifyUnknownPath(req.url);
    if (kind === "api" || req.method !== "GET" || !hasDist || !existsSync(index)) {
      return reply.code(404).send({ error: 404, info: "请求的接口不存在" });
    }
    // A missing hashed asset is a 404, not the page (a stale tab would otherwise parse HTML as JS).
    if (kind === "asset") return reply.code(404).send({ error: 404, info: "文件不存在" });
    // Only paths shaped like the application's pages get index.html: a scanner's /wp-login.php
    // or /.env, a missing /favicon.ico, an unserved /metrics are 404s (static/app-pages.ts).
    if (kind !== "page") return reply.code(404).send({ error: 404, info: "请求的地址不存在" });
    return reply.sendFile("index.html");
  });
}
