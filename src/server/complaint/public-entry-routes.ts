/**
 * Public complaint entry (/Backend/Public/complaint, no login): the filing rules and open windows,
 * the lookup of a work that may be complained about, and the visitor's email verification
 * (mailed one-time code exchanged for a token). Registered from routes.ts.
 */
import { Envelope } from "../../shared/envelope";
import {
  CodeBody,
  CodeSent,
  ComplaintInfo,
  ComplaintWorkParam,
  ComplaintWorkView,
  VerifyBody,
  VisitorToken,
} from "../../shared/complaint/schema";
import {
  COMPLAINT_CATEGORY_NAMES,
  APPEAL_CATEGORIES,
  COMPLAINT_CATEGORIES,
  EVIDENCE_EXTENSIONS,
  EVIDENCE_MAX_BYTES,
  EVIDENCE_MAX_FILES,
} from "../../shared/complaint/states";
import { notFound } from "../../shared/errors";
import { perAddress } from "../plugins/limits";
import { normEmail } from "../common/email";
import { findWork } from "../work/repository";
import { publishedAward, resultsPublished } from "../judging/service/results/publish";
import { contestOfWork, sendVisitorCode, verifyVisitorCode, windowsOf } from "./filing";
import { isParty } from "./scope";
import { type ComplaintRouteKit, tags, ok } from "./route-kit";

const RULES = `<p>比赛结果公示期（及申诉期）内：</p><ul><li><b>申诉</b>：作品的作者或指导教师登录后，可对本作品的形式审查结论、取消资格、评分或奖项提出申诉。</li><li><b>投诉</b>：任何人可对已公布结果中的作品提出投诉（抄袭剽窃、重复参赛、材料虚假、作者未实际参与等）；未登录时须填写真实姓名、手机号，并用邮箱验证码验证邮箱。</li><li>每人对同一作品同时只能有一件未结案的申诉或投诉；可上传图片、PDF、docx、zip 格式的证据材料。</li><li>投诉人的身份只对申诉处理人员可见，不会告知作品的作者、指导教师或学校。</li><li>对处理决定不服的，双方均可在决定后规定期限内申请仲裁；仲裁结果经确认后为最终结果。</li></ul>`;

export function publicEntryRoutes(kit: ComplaintRouteKit) {
  const { r, db, mailer, config, perEmail, mailTo } = kit;
  // ---- Public entry ----
  const PUB = "/Backend/Public/complaint";

  r.get(
    `${PUB}/info`,
    {
      schema: {
        tags,
        summary: "申诉入口说明：公示/申诉期（已发布结果的赛事）、须知、事由和证据要求",
        response: { 200: Envelope(ComplaintInfo) },
      },
      config: { access: "public" },
    },
    async () => {
      const contests = await db
        .selectFrom("contest")
        .select("contest.id as contest_id")
        .where(resultsPublished("contest.id"))
        .orderBy("contest.id")
        .execute();
      const windows = [];
      for (const c of contests)
        windows.push(...(await windowsOf(db, c.contest_id)).filter((w) => Date.parse(w.endsAt) > Date.now()));
      const opts = (keys: readonly string[]) =>
        keys.map((key) => ({ key, name: COMPLAINT_CATEGORY_NAMES[key as keyof typeof COMPLAINT_CATEGORY_NAMES] }));
      return ok({
        windows,
        notices: [{ contestId: null, title: "申诉与投诉须知", content: RULES }],
        categories: { appeal: opts(APPEAL_CATEGORIES), complaint: opts(COMPLAINT_CATEGORIES) },
        evidence: { extensions: [...EVIDENCE_EXTENSIONS], maxBytes: EVIDENCE_MAX_BYTES, maxFiles: EVIDENCE_MAX_FILES },
      });
    },
  );

  r.get(
    `${PUB}/work/:workId`,
    {
      schema: {
        tags,
        summary: "可申诉/投诉的作品：名称、学校、大类、赛事、已公布奖项、是否在已发布结果中、受理期",
        params: ComplaintWorkParam,
        response: { 200: Envelope(ComplaintWorkView) },
      },
      config: { access: "public", limits: [perAddress("complaint-work", 30)] },
    },
    async (req) => {
      const w = await findWork(db, req.params.workId);
      if (!w || w.status === "draft") throw notFound(`作品 ${req.params.workId} 不存在`);
      const { contestId, published } = await contestOfWork(db, w);
      // A work outside every published result is nobody's business but its own team's (who may
      // appeal it): to anyone else it answers exactly as an unknown id, so ids cannot be walked.
      if (!published && !(req.user && (await isParty(db, req.user.id, Number(w.id)))))
        throw notFound(`作品 ${req.params.workId} 不存在`);
      const contest = await db.selectFrom("contest").select("name").where("id", "=", contestId).executeTakeFirstOrThrow();
      const windows = await windowsOf(db, contestId);
      return ok({
        workId: Number(w.id),
        name: w.name,
        schoolName: w.school_name,
        categoryName: w.category_name,
        contestId,
        contestName: contest.name,
        award: await publishedAward(db, Number(w.id)),
        published,
        window: windows[0] ?? null,
      });
    },
  );

  r.post(
    `${PUB}/code`,
    {
      schema: {
        tags,
        summary: "向邮箱发送一次性验证码（15 分钟内有效）；按地址和邮箱限流",
        body: CodeBody,
        response: { 200: Envelope(CodeSent) },
      },
      config: { access: "public", limits: [perAddress("complaint-code", 5), perEmail("complaint-code-email", 3), mailTo] },
    },
    async (req) =>
      ok(
        await sendVisitorCode(db, mailer, config.publicUrl, req.body.email),
        `验证码已发送至 ${normEmail(req.body.email)}，15 分钟内有效`,
      ),
  );

  r.post(
    `${PUB}/verify`,
    {
      schema: {
        tags,
        summary: "用邮箱和验证码换取查询凭证（2 小时内有效，用于投诉、上传证据和查询本人的投诉）",
        body: VerifyBody,
        response: { 200: Envelope(VisitorToken) },
      },
      config: { access: "public", limits: [perAddress("complaint-verify", 10), perEmail("complaint-verify-email", 10)] },
    },
    async (req) => ok(await verifyVisitorCode(db, req.body.email, req.body.code), "邮箱验证成功"),
  );
}
