/**
 * Shared pieces of the complaint route groups (see routes.ts): the dependencies, the reply
 * envelope helper, rate-limit rules keyed by email or visitor token, the caller of a request
 * (logged-in user or email-verified visitor), paging, workflow steps and evidence up/download.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import "@fastify/multipart";
import { EVIDENCE_MAX_BYTES, type ComplaintAction } from "../../shared/complaint/states";
import { badRequest } from "../../shared/errors";
import type { Db } from "../db";
import type { Config } from "../config";
import type { Mailer } from "../mail/mailer";
import type { BlobStore } from "../storage";
import { HOUR, MINUTE, type LimitRule } from "../plugins/limits";
import { normEmail } from "../common/email";
import { contentDisposition, ok } from "../common/http";
import { visitorEmail, type IncomingFile } from "./filing";
import { stepInfo, takeStep, type StepInput } from "./transition";
import type { Caller } from "./scope";

export const tags = ["申诉与仲裁"];
export { ok };

export interface ComplaintDeps {
  db: Db;
  store: BlobStore;
  mailer: Mailer;
  config: Config;
}

/** Reads a multipart evidence upload: an optional `token` field, then the `file` part. */
export async function receiveEvidence(req: FastifyRequest): Promise<{ token?: string; file?: IncomingFile }> {
  if (!req.isMultipart()) throw badRequest("请以 multipart/form-data 方式上传证据文件（表单字段 file）");
  let token: string | undefined;
  const options = { limits: { fileSize: EVIDENCE_MAX_BYTES + 1, files: 1, fields: 3, parts: 4 }, throwFileSizeLimit: false };
  for await (const part of req.parts(options)) {
    if (part.type === "field") {
      if (part.fieldname === "token") token = String(part.value);
      continue;
    }
    if (part.fieldname !== "file") {
      part.file.destroy();
      throw badRequest("文件须以表单字段 file 发送");
    }
    return { token, file: { filename: part.filename, stream: part.file, truncated: () => part.file.truncated } };
  }
  return { token };
}

/** The helpers every complaint route group uses, built once per plugin registration. */
export function complaintRouteKit(app: FastifyInstance, deps: ComplaintDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db, store, mailer, config } = deps;
  const stepDeps = { db, mailer, publicUrl: config.publicUrl, log: (m: string) => app.log.warn(m) };
  const body = <T>(req: { body?: unknown }) => (req.body ?? {}) as T;
  const perEmail = (name: string, max: number, windowMs = MINUTE): LimitRule => ({
    name,
    max,
    windowMs,
    key: (req) => (body<{ email?: string }>(req).email ? normEmail(body<{ email: string }>(req).email) : null),
  });
  const perToken = (name: string, max: number): LimitRule => ({
    name,
    max,
    windowMs: MINUTE,
    key: (req) => body<{ token?: string }>(req).token ?? null,
  });
  // Mail to one mailbox shares the account module's bucket ("mail", MAIL_RATE_MAX an hour).
  const mailTo: LimitRule = {
    name: "mail",
    max: config.mailRateMax,
    windowMs: HOUR,
    key: (req, k) => (body<{ email?: string }>(req).email ? k.recipient(body<{ email: string }>(req).email) : null),
  };
  const visitor = async (token: string): Promise<Caller> => ({ user: null, visitorEmail: await visitorEmail(db, token) });
  const userCaller = (req: FastifyRequest): Caller => ({ user: req.user! });
  const list = (q: { current?: number; pageSize?: number }) => {
    const size = q.pageSize ?? 20;
    return { offset: ((q.current ?? 1) - 1) * size, limit: size };
  };
  const step = async (caller: Caller, id: number, action: ComplaintAction, input: StepInput) => {
    const o = await takeStep(stepDeps, caller, id, action, input);
    return ok(o, stepInfo(action, o));
  };
  const sendFile = async (reply: FastifyReply, e: { mime: string; size: number; filename: string; sha256: string }) =>
    reply
      .header("content-type", e.mime)
      .header("content-length", String(e.size))
      .header("content-disposition", contentDisposition(e.filename))
      .header("cache-control", "private, no-store")
      .send(await store.get(e.sha256));
  return { r, db, store, mailer, config, stepDeps, perEmail, perToken, mailTo, visitor, userCaller, list, step, sendFile };
}

export type ComplaintRouteKit = ReturnType<typeof complaintRouteKit>;
