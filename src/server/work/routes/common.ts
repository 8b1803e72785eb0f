/** What the works routes share: list query parsing and the caller's context. */
import { gzipSync } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import { ListParams } from "../../../shared/crud/list";
import { DomainError } from "../../../shared/errors";
import { WORK_SORT, WorkFilters } from "../../../shared/work/schema";
import type { Db } from "../../db";
import type { ListArgs } from "../list";
import type { WorkCtx } from "../service/context";
import { ok } from "../../common/http";

export const WorkListQuery = Type.Intersect([ListParams, WorkFilters]);

export function listArgs(query: Record<string, unknown>): ListArgs {
  const { current, pageSize, sort, ...filters } = query as { current?: number; pageSize?: number; sort?: string[] } & Record<
    string,
    unknown
  >;
  const size = pageSize ?? 20;
  const parsed = (sort ?? []).map((s) => {
    const field = s.replace(/^-/, "");
    if (!(WORK_SORT as readonly string[]).includes(field)) throw new DomainError(422, `不能按 ${field} 排序`, "sort");
    return [field, s.startsWith("-") ? "desc" : "asc"] as [string, "asc" | "desc"];
  });
  return { filters, sort: parsed, offset: ((current ?? 1) - 1) * size, limit: size };
}

export const ctxOf = (db: Db, req: FastifyRequest): WorkCtx => ({ db, user: req.user! });

/**
 * Sends `{ error: 0, info: "成功", data }` serialised once per data object: a page served from
 * the read cache is the same object on every hit (src/server/db/changes.ts), so its JSON —
 * made with the route's response schema, as Fastify would — is encoded once, and gzipped
 * once for the browsers that accept it (every browser does: a 20-row page of ~10 KB goes
 * out as ~2 KB), and the bytes are reused.
 */
interface Encoded {
  raw: Buffer;
  gzip?: Buffer;
}
const encoded = new WeakMap<object, Encoded>();
const GZIP_FROM = 1024;

export function sendOk(reply: FastifyReply, data: object) {
  let e = encoded.get(data);
  if (e === undefined) {
    e = { raw: Buffer.from(String(reply.serialize(ok(data)))) };
    encoded.set(data, e);
  }
  reply.type("application/json; charset=utf-8").header("vary", "accept-encoding");
  if (e.raw.length >= GZIP_FROM && /\bgzip\b/.test(String(reply.request.headers["accept-encoding"] ?? ""))) {
    e.gzip ??= gzipSync(e.raw, { level: 6 });
    return reply.header("content-encoding", "gzip").send(e.gzip);
  }
  return reply.send(e.raw);
}
