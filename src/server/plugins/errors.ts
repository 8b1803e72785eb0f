/** One error handler: every failure becomes { error, info, data? } with the catalogue's status. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from "fastify";
import { DomainError, STATUS_TEXT } from "../../shared/errors";
import { FIELD_LABELS } from "../../shared/account/schema";
import { DB_RETRY_AFTER_SECONDS, DB_UNAVAILABLE_INFO, isDatabaseUnavailable } from "../db/unavailable";

function fieldOf(e: Pick<FastifySchemaValidationError, "instancePath" | "params">): string {
  const path = e.instancePath.replace(/^\//, "").replace(/\//g, ".");
  const params = e.params as { missingProperty?: string; requiredProperties?: string[] };
  const missing = params.missingProperty ?? params.requiredProperties?.[0];
  return missing ? (path ? `${path}.${missing}` : missing) : path;
}

/** A Chinese sentence naming the field. */
export function validationMessage(
  e: Pick<FastifySchemaValidationError, "keyword" | "instancePath" | "params"> & {
    parentSchema?: { title?: string; properties?: Record<string, { title?: string }> };
  },
  /** the name to use for the field, e.g. an import column's header */
  labelOverride?: string,
): { field: string; info: string } {
  const field = fieldOf(e);
  const last = field.split(".").pop() ?? field;
  // The schema's own title names the field best; ajv hands over the schema when verbose.
  const missing = e.keyword === "required" ? e.parentSchema?.properties?.[last]?.title : undefined;
  const title = e.keyword === "required" ? missing : e.parentSchema?.title;
  const name = title ?? FIELD_LABELS[last];
  const label = labelOverride ?? (name ? `${name}（${field}）` : field || "请求内容");
  const p = e.params as Record<string, unknown>;
  let what: string;
  switch (e.keyword) {
    case "required":
      what = "为必填项";
      break;
    case "minLength":
      what = `长度不能少于 ${p.limit} 个字符`;
      break;
    case "maxLength":
      what = `长度不能超过 ${p.limit} 个字符`;
      break;
    case "minimum":
      what = `不能小于 ${p.limit}`;
      break;
    case "maximum":
      what = `不能大于 ${p.limit}`;
      break;
    case "format":
      what = p.format === "email" ? "不是有效的邮箱地址" : "格式不正确";
      break;
    case "pattern":
      what = last === "password" || last === "newPassword" ? "须至少 8 位，且同时包含字母和数字" : "格式不正确";
      break;
    case "type":
      what = "类型不正确";
      break;
    case "enum":
    case "const":
    case "anyOf":
    case "oneOf":
      what = "取值无效";
      break;
    case "additionalProperties":
      what = `含有不允许的字段 ${String(p.additionalProperty)}`;
      break;
    default:
      what = "不符合要求";
  }
  return { field, info: `${label}${what}` };
}

/**
 * Errors the router raises before any route or hook runs (Fastify's frameworkErrors
 * option): a badly encoded path, an over-long path parameter. Answered in the envelope too.
 */
export function frameworkErrorReply(err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  if (err.code === "FST_ERR_BAD_URL") return reply.code(400).send({ error: 400, info: "请求地址无效" });
  if (err.code === "FST_ERR_MAX_PARAM_LENGTH") return reply.code(414).send({ error: 414, info: "请求地址过长" });
  return reply.code(500).send({ error: 500, info: "服务器发生错误，请稍后重试" });
}

export function registerErrors(app: FastifyInstance) {
  app.setSchemaErrorFormatter((errors, dataVar) => {
    const first = errors[0];
    const { field, info } = validationMessage(first);
    const err = new DomainError(422, info, field) as DomainError & { dataVar?: string };
    err.dataVar = dataVar;
    return err;
  });

  app.setErrorHandler((err: FastifyError | DomainError, req, reply) => {
    if (err instanceof DomainError) {
      return reply.code(err.status).send({
        error: err.status,
        info: err.info,
        ...(err.field || err.data ? { data: { ...err.data, ...(err.field ? { field: err.field } : {}) } } : {}),
      });
    }
    // The database is down, restarting or busy: the same request works once it is back, so
    // 503 with Retry-After (load balancers and clients retry), not a 500 that reads as a bug.
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ code: (err as { code?: unknown }).code, message: err.message }, "database unavailable");
      reply.header("retry-after", String(DB_RETRY_AFTER_SECONDS));
      return reply.code(503).send({ error: 503, info: DB_UNAVAILABLE_INFO });
    }
    const status = (err as FastifyError).statusCode ?? 500;
    if (status === 429) {
      return reply.code(429).send({ error: 429, info: "操作过于频繁，请稍后再试" });
    }
    if (status === 415) {
      return reply.code(400).send({ error: 400, info: "请求内容的格式不受支持" });
    }
    if (status >= 400 && status < 500) {
      const info =
        (err as FastifyError).code === "FST_ERR_CTP_INVALID_JSON_BODY" ||
        (err as FastifyError).code === "FST_ERR_CTP_EMPTY_JSON_BODY"
          ? "请求内容不是有效的 JSON"
          : (STATUS_TEXT[status] ?? "请求有误");
      return reply.code(status).send({ error: status, info });
    }
    req.log.error({ err }, "unhandled error");
    return reply.code(500).send({ error: 500, info: `服务器发生错误，请稍后重试（请求号 ${req.id}）` });
  });
}
