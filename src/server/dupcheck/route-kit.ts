/**
 * What the duplicate check's route groups share: their deps, tags and path prefix, the reply
 * envelope, the per-account rate limit of texts and documents, and the receiving of an
 * uploaded document.
 */
import type { FastifyRequest } from "fastify";
import "@fastify/multipart";
import { badRequest, invalid, tooLarge } from "../../shared/errors";
import { DOCUMENT_TYPES, MAX_DOCUMENT_MB, type DupTextReport } from "../../shared/dupcheck/api";
import type { Jobs } from "../jobs/user-jobs";
import type { Db } from "../db";
import type { BlobStore } from "../storage";
import type { TaskQueue } from "../jobs/queue";
import { MINUTE, type LimitRule } from "../plugins/limits";
import { EXTRACT_LIMITS } from "./index";
import type { DupCtx } from "./service";

export const tags = ["作品查重"];
export const P = "/Backend/DupCheck";
export { ok } from "../common/http";

export interface DupDeps {
  db: Db;
  store: BlobStore;
  jobs: Jobs;
  queue: TaskQueue;
  log: (msg: string, err?: unknown) => void;
}

/** The service context of a request (the user is signed in: every route has an access rule). */
export const ctxOf = (deps: Pick<DupDeps, "db" | "store">, req: FastifyRequest): DupCtx => ({
  db: deps.db,
  store: deps.store,
  user: req.user!,
});

/** The access of the check routes. */
export const read = ["api.dupcheck", "read"] as const;

const MB = 1024 * 1024;
const maxDocumentBytes = () => Math.min(MAX_DOCUMENT_MB * MB, EXTRACT_LIMITS.maxFileBytes);

/** Reads the uploaded document (multipart field `file`) into memory, refusing other types and oversized files. */
export async function receiveDocument(req: FastifyRequest): Promise<{ filename: string; bytes: Buffer }> {
  if (!req.isMultipart()) throw badRequest("请以 multipart/form-data 方式上传文档（表单字段 file）");
  const max = maxDocumentBytes();
  const options = { limits: { fileSize: max + 1, files: 1, fields: 5, parts: 6 }, throwFileSizeLimit: false };
  for await (const part of req.parts(options)) {
    if (part.type === "field") continue;
    if (part.fieldname !== "file") {
      part.file.destroy();
      throw badRequest("文档须以表单字段 file 发送");
    }
    const filename = String(part.filename ?? "")
      .replace(/\\/g, "/")
      .split("/")
      .pop()!
      .replace(/[\u0000-\u001f\u007f]/g, "")
      .trim()
      .slice(-200);
    const ext = filename.toLowerCase().split(".").pop() ?? "";
    if (!filename || !(DOCUMENT_TYPES as readonly string[]).includes(ext)) {
      part.file.destroy();
      throw invalid(
        "file",
        `只能上传 ${DOCUMENT_TYPES.map((t) => `.${t}`).join("、")} 文档进行查重${filename ? `，「${filename}」不符合` : ""}`,
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of part.file) {
      size += (c as Buffer).length;
      if (size > max) break;
      chunks.push(c as Buffer);
    }
    if (size > max || part.file.truncated) {
      part.file.destroy();
      throw tooLarge(`查重的文档不能超过 ${Math.floor(max / MB)} MB，「${filename}」超过了这一限制`);
    }
    return { filename, bytes: Buffer.concat(chunks) };
  }
  throw badRequest("请选择要查重的文档");
}

/** Texts and documents cost CPU (extraction, shingling, passages): at most 60 a minute per account. */
export const PER_USER: LimitRule[] = [
  { name: "dupcheck-text", max: 60, windowMs: MINUTE, key: (req) => (req.user ? `user:${req.user.id}` : null) },
];

export const textInfo = (r: DupTextReport) =>
  r.index.tooShort
    ? (r.index.reason ?? "文本太短，无法有意义地查重")
    : r.matches.length
      ? `找到 ${r.matches.length} 件相似作品`
      : "未发现相似作品";
