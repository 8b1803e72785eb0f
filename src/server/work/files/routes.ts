/**
 * Attachments of a work (contract: /tmp/works-api.md → docs in the route summaries):
 * list with the category's requirements, streamed upload (kind field first, then file),
 * delete, download. Row rules live in service.ts.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import "@fastify/multipart";
import { Envelope } from "../../../shared/envelope";
import { badRequest } from "../../../shared/errors";
import { WorkFileParam, WorkFiles, WorkFileView } from "../../../shared/work/files";
import { WorkIdParam } from "../../../shared/work/schema";
import type { Db } from "../../db";
import type { BlobStore } from "../../storage";
import { ctxOf } from "../routes/common";
import { contentDisposition, ok } from "../../common/http";
import { deleteFile, listFiles, openFile, uploadedMessage, uploadFile, type Incoming } from "./service";
import { closeIfUnread } from "../../plugins/uploads";

const tags = ["作品附件"];
const P = "/Backend/Work/work/:id/files";

export interface WorkFileDeps {
  db: Db;
  store: BlobStore;
}

async function receive(req: FastifyRequest, maxBytes: number): Promise<Incoming | undefined> {
  if (!req.isMultipart()) throw badRequest("请以 multipart/form-data 方式上传：先发送附件类型 kind，再发送文件 file");
  // Parts in the order sent: the kind must arrive before the file starts streaming.
  let kind: string | undefined;
  // The parser's own limit (the largest of the 大类) only stops runaway bodies; the kind's limit is checked while streaming.
  const options = { limits: { fileSize: maxBytes, files: 1, fields: 5, parts: 6 }, throwFileSizeLimit: false };
  for await (const part of req.parts(options)) {
    if (part.type === "field") {
      if (part.fieldname === "kind") kind = String(part.value);
      continue;
    }
    if (part.fieldname !== "file") {
      part.file.destroy();
      throw badRequest("文件须以表单字段 file 发送");
    }
    return { kind, filename: part.filename, stream: part.file, truncated: () => part.file.truncated };
  }
  return undefined;
}

export function workFileRoutes(app: FastifyInstance, deps: WorkFileDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const fctx = (req: FastifyRequest) => ({ ...ctxOf(deps.db, req), store: deps.store });

  r.get(
    P,
    {
      schema: {
        tags,
        summary: "作品的附件（每类当前一个）和所属大类的提交要求；能查看作品的人可见，其他人 404",
        params: WorkIdParam,
        response: { 200: Envelope(WorkFiles) },
      },
      config: { access: ["api.workDetail", "read"] },
    },
    async (req) => ok(await listFiles(ctxOf(deps.db, req), req.params.id)),
  );

  r.post(
    P,
    {
      schema: {
        tags,
        summary:
          "上传附件（multipart/form-data：先发送 kind，再发送 file）：作品的作者，作品可修改且「附件」未锁定；大小和类型按大类要求；同类新文件替换旧文件，旧文件保留并记入日志",
        params: WorkIdParam,
        consumes: ["multipart/form-data"],
        response: { 201: Envelope(WorkFileView) },
      },
      config: { access: ["api.works", "update"] },
    },
    async (req, reply) => {
      try {
        const { file, replaced } = await uploadFile(fctx(req), req.params.id, (max) => receive(req, max));
        return reply.code(201).send(ok(file, uploadedMessage(file, replaced)));
      } catch (e) {
        closeIfUnread(req, reply);
        throw e;
      }
    },
  );

  r.delete(
    `${P}/:fileId`,
    {
      schema: {
        tags,
        summary: "删除附件（同上传的权限）；记录保留，并记入作品日志",
        params: WorkFileParam,
        response: { 200: Envelope(WorkFileView) },
      },
      config: { access: ["api.works", "update"] },
    },
    async (req) => {
      const f = await deleteFile(ctxOf(deps.db, req), req.params.id, req.params.fileId);
      return ok(f, `已删除「${f.kindName}」：${f.filename}`);
    },
  );

  // A work a contest admin entered on a school's behalf (/ContestAdmin/AddWork): its
  // contest's admins upload and delete its files.
  const A = "/Backend/Admin/work/:id/files";
  r.post(
    A,
    {
      schema: {
        tags,
        summary:
          "代录入作品的附件上传（multipart/form-data：先 kind 再 file）：作品所在赛事的管理员和超级管理员，仅限管理员代录入的作品",
        params: WorkIdParam,
        consumes: ["multipart/form-data"],
        response: { 201: Envelope(WorkFileView) },
      },
      config: { access: ["api.contestWorks", "update"] },
    },
    async (req, reply) => {
      try {
        const { file, replaced } = await uploadFile(fctx(req), req.params.id, (max) => receive(req, max), true);
        return reply.code(201).send(ok(file, uploadedMessage(file, replaced)));
      } catch (e) {
        closeIfUnread(req, reply);
        throw e;
      }
    },
  );

  r.delete(
    `${A}/:fileId`,
    {
      schema: { tags, summary: "删除代录入作品的附件（同上）", params: WorkFileParam, response: { 200: Envelope(WorkFileView) } },
      config: { access: ["api.contestWorks", "update"] },
    },
    async (req) => {
      const f = await deleteFile(ctxOf(deps.db, req), req.params.id, req.params.fileId, true);
      return ok(f, `已删除「${f.kindName}」：${f.filename}`);
    },
  );

  r.get(
    `${P}/:fileId/download`,
    {
      schema: { tags, summary: "下载附件（能查看作品的人；其他人 404）", params: WorkFileParam },
      config: { access: ["api.workDetail", "read"] },
    },
    async (req, reply) => {
      const { row, stream } = await openFile(fctx(req), req.params.id, req.params.fileId);
      return reply
        .header("content-type", row.mime)
        .header("content-length", String(row.size))
        .header("content-disposition", contentDisposition(row.filename))
        .header("cache-control", "private, no-store")
        .send(stream);
    },
  );
}
