/**
 * Complaints of email-verified visitors (/Backend/Public/complaint, token from the email check):
 * evidence upload, filing, listing their own complaints, requesting arbitration, withdrawing and
 * downloading their evidence. Registered from routes.ts.
 */
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import {
  ComplaintIdParam,
  EvidenceIdParam,
  EvidenceView,
  FilerComplaintView,
  StepOutcome,
  TokenBody,
  TokenQuery,
  VisitorArbitrationBody,
  VisitorFileBody,
  VisitorWithdrawBody,
} from "../../shared/complaint/schema";
import { badRequest } from "../../shared/errors";
import { perAddress } from "../plugins/limits";
import { fileComplaint, uploadEvidence, visitorEmail } from "./filing";
import { evidenceFor, filerList, filerView } from "./views";
import { closeIfUnread } from "../plugins/uploads";
import { type ComplaintRouteKit, tags, ok, receiveEvidence } from "./route-kit";

export function visitorComplaintRoutes(kit: ComplaintRouteKit) {
  const { r, db, store, perToken, visitor, step, sendFile } = kit;
  const PUB = "/Backend/Public/complaint";

  r.post(
    `${PUB}/evidence`,
    {
      schema: {
        tags,
        summary: "访客上传证据（multipart/form-data：先 token 再 file）；图片、PDF、docx、zip，不超过 20 MB",
        consumes: ["multipart/form-data"],
        response: { 201: Envelope(EvidenceView) },
      },
      config: { access: "public", limits: [perAddress("complaint-evidence", 20)] },
    },
    async (req, reply) => {
      try {
        const { token, file } = await receiveEvidence(req);
        if (!token) {
          file?.stream.destroy();
          throw badRequest("请先验证邮箱（表单字段 token 须在文件之前发送）");
        }
        let email: string;
        try {
          email = await visitorEmail(db, token);
        } catch (e) {
          file?.stream.destroy();
          throw e;
        }
        const v = await uploadEvidence(db, store, { userId: null, email }, file);
        return reply.code(201).send(ok(v, `已上传证据「${v.name}」`));
      } catch (e) {
        closeIfUnread(req, reply);
        throw e;
      }
    },
  );

  r.post(
    PUB,
    {
      schema: {
        tags,
        summary: "访客提交投诉（真实姓名、手机号、已验证的邮箱）",
        body: VisitorFileBody,
        response: { 201: Envelope(FilerComplaintView) },
      },
      config: { access: "public", limits: [perAddress("complaint-file", 30), perToken("complaint-file-token", 5)] },
    },
    async (req, reply) => {
      const caller = await visitor(req.body.token);
      const id = await fileComplaint(db, caller, { ...req.body, type: "complaint" });
      return reply.code(201).send(ok(await filerView(db, caller, id), `投诉已提交（编号 ${id}），处理进展可凭邮箱验证码查询`));
    },
  );

  r.post(
    `${PUB}/mine`,
    {
      schema: {
        tags,
        summary: "访客查询本人的投诉",
        body: TokenBody,
        response: { 200: Envelope(Type.Array(FilerComplaintView)) },
      },
      config: { access: "public", limits: [perAddress("complaint-mine", 30)] },
    },
    async (req) => ok(await filerList(db, await visitor(req.body.token))),
  );

  r.post(
    `${PUB}/mine/:id/arbitration`,
    {
      schema: {
        tags,
        summary: "访客对处理决定申请仲裁（在仲裁申请期限内）",
        params: ComplaintIdParam,
        body: VisitorArbitrationBody,
        response: { 200: Envelope(StepOutcome) },
      },
      config: { access: "public", limits: [perAddress("complaint-step", 20)] },
    },
    async (req) =>
      step(await visitor(req.body.token), req.params.id, "request_arbitration", {
        reason: req.body.reason,
        version: req.body.version,
      }),
  );

  r.post(
    `${PUB}/mine/:id/withdraw`,
    {
      schema: {
        tags,
        summary: "访客撤回投诉（决定作出之前）",
        params: ComplaintIdParam,
        body: VisitorWithdrawBody,
        response: { 200: Envelope(StepOutcome) },
      },
      config: { access: "public", limits: [perAddress("complaint-step", 20)] },
    },
    async (req) =>
      step(await visitor(req.body.token), req.params.id, "withdraw", { reason: req.body.reason, version: req.body.version }),
  );

  r.get(
    `${PUB}/evidence/:evidenceId`,
    {
      schema: { tags, summary: "访客下载本人上传的证据", params: EvidenceIdParam, querystring: TokenQuery },
      config: { access: "public" },
    },
    async (req, reply) => sendFile(reply, await evidenceFor(db, await visitor(req.query.token), req.params.evidenceId)),
  );
}
