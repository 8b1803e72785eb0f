/**
 * Logged-in filers and the work's parties (/Backend/Complaint): their appeals and complaints, filing,
 * evidence upload/download, requesting arbitration and withdrawing. Registered from routes.ts.
 */
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import {
  ArbitrationRequestBody,
  ComplaintIdParam,
  EvidenceIdParam,
  EvidenceView,
  FileBody,
  FilerComplaintView,
  StepOutcome,
  WithdrawBody,
} from "../../shared/complaint/schema";
import { perAddress } from "../plugins/limits";
import { fileComplaint, uploadEvidence } from "./filing";
import { evidenceFor, filerList, filerView } from "./views";
import { closeIfUnread } from "../plugins/uploads";
import { type ComplaintRouteKit, tags, ok, receiveEvidence } from "./route-kit";

export function filerRoutes(kit: ComplaintRouteKit) {
  const { r, db, store, userCaller, step, sendFile } = kit;
  // ---- Logged-in filers and the work's parties ----
  const F = "/Backend/Complaint";
  const filing = (act: "read" | "create" | "update") => ["api.complaintFiling", act] as const;

  r.get(
    `${F}/mine`,
    {
      schema: {
        tags,
        summary: "我的申诉/投诉，以及针对我参与或指导的作品的申诉/投诉（不显示申诉人）",
        response: { 200: Envelope(Type.Array(FilerComplaintView)) },
      },
      config: { access: filing("read") },
    },
    async (req) => ok(await filerList(db, userCaller(req))),
  );

  r.get(
    `${F}/mine/:id`,
    {
      schema: {
        tags,
        summary: "一件我的（或针对我的作品的）申诉/投诉",
        params: ComplaintIdParam,
        response: { 200: Envelope(FilerComplaintView) },
      },
      config: { access: filing("read") },
    },
    async (req) => ok(await filerView(db, userCaller(req), req.params.id)),
  );

  r.post(
    `${F}/mine`,
    {
      schema: {
        tags,
        summary: "提交申诉（本人参与或指导的作品）或投诉（已发布结果中的他人作品）",
        body: FileBody,
        response: { 201: Envelope(FilerComplaintView) },
      },
      config: { access: filing("create"), limits: [perAddress("complaint-file", 30)] },
    },
    async (req, reply) => {
      const id = await fileComplaint(db, userCaller(req), req.body);
      return reply.code(201).send(ok(await filerView(db, userCaller(req), id), `已提交（编号 ${id}）`));
    },
  );

  r.post(
    `${F}/evidence`,
    {
      schema: {
        tags,
        summary: "上传证据（multipart/form-data：file）；图片、PDF、docx、zip，不超过 20 MB",
        consumes: ["multipart/form-data"],
        response: { 201: Envelope(EvidenceView) },
      },
      config: { access: filing("create"), limits: [perAddress("complaint-evidence", 20)] },
    },
    async (req, reply) => {
      try {
        const { file } = await receiveEvidence(req);
        const v = await uploadEvidence(db, store, { userId: req.user!.id, email: null }, file);
        return reply.code(201).send(ok(v, `已上传证据「${v.name}」`));
      } catch (e) {
        closeIfUnread(req, reply);
        throw e;
      }
    },
  );

  r.post(
    `${F}/mine/:id/arbitration`,
    {
      schema: {
        tags,
        summary: "申请仲裁：申诉人或作品的作者、指导教师，在仲裁申请期限内",
        params: ComplaintIdParam,
        body: ArbitrationRequestBody,
        response: { 200: Envelope(StepOutcome) },
      },
      config: { access: filing("update") },
    },
    async (req) => step(userCaller(req), req.params.id, "request_arbitration", req.body),
  );

  r.post(
    `${F}/mine/:id/withdraw`,
    {
      schema: {
        tags,
        summary: "撤回申诉/投诉（申诉人，决定作出之前）；记录保留",
        params: ComplaintIdParam,
        body: WithdrawBody,
        response: { 200: Envelope(StepOutcome) },
      },
      config: { access: filing("update") },
    },
    async (req) => step(userCaller(req), req.params.id, "withdraw", req.body),
  );

  r.get(
    `${F}/evidence/:evidenceId`,
    {
      schema: { tags, summary: "下载证据：上传者、处理人员、仲裁员、超级管理员", params: EvidenceIdParam },
      config: { access: filing("read") },
    },
    async (req, reply) => sendFile(reply, await evidenceFor(db, userCaller(req), req.params.evidenceId)),
  );
}
