/**
 * A judge's own invitations (/Backend/JudgeInvite/mine, api.myJudgeInvitations): listing them,
 * accepting and declining while logged in. Registered from routes.ts.
 */
import { Envelope } from "../../shared/envelope";
import { AcceptBody, AnswerOutcome, DeclineBody, InvitationParam, MyInvitations } from "../../shared/judge-invite/schema";
import { acceptInvitation, declineInvitation, myInvitations } from "./answer";
import { type InviteRouteKit, tags, ok, JI } from "./route-kit";

export function myInvitationRoutes(kit: InviteRouteKit) {
  const { r, db, mine, perUser } = kit;
  r.get(
    `${JI}/mine`,
    {
      schema: {
        tags,
        summary: "我的评委邀请（发给本账号邮箱的邀请，待答复的在前）及评委库中的本人信息",
        response: { 200: Envelope(MyInvitations) },
      },
      config: { access: mine("read") },
    },
    async (req) => ok(await myInvitations(db, req.user!)),
  );

  r.post(
    `${JI}/mine/:id/accept`,
    {
      schema: {
        tags,
        summary: "接受邀请：确认学校、职称、专长和可评审类别，申报回避；成为该赛事的评委",
        params: InvitationParam,
        body: AcceptBody,
        response: { 200: Envelope(AnswerOutcome) },
      },
      config: { access: mine("update"), limits: [perUser("judge-invite-answer", 20)] },
    },
    async (req) => {
      const data = await acceptInvitation(db, req.user!, { id: req.params.id }, req.body);
      return ok(
        data,
        `已接受邀请，您已成为「${data.contest.name}」的评委${data.conflicts ? `，并申报了 ${data.conflicts} 项回避` : ""}`,
      );
    },
  );

  r.post(
    `${JI}/mine/:id/decline`,
    {
      schema: {
        tags,
        summary: "谢绝邀请（可填写原因）",
        params: InvitationParam,
        body: DeclineBody,
        response: { 200: Envelope(AnswerOutcome) },
      },
      config: { access: mine("update"), limits: [perUser("judge-invite-answer", 20)] },
    },
    async (req) => {
      const data = await declineInvitation(db, req.user!, { id: req.params.id }, req.body.reason);
      return ok(data, `已谢绝「${data.contest.name}」的评委邀请`);
    },
  );
}
