/**
 * Inviting someone without an account into a work's team by email. The first author names
 * the email and the person; the invitee gets a mail with a link (/workInvite/:code), creates
 * a student (co-author) or teacher account of the work's school from it, and lands in the
 * team — a co-author still confirms taking part. A pending invitation takes a place in the
 * team: the limits (authors, teachers) count it.
 *
 *   GET    /Backend/Work/work/:id/invitations                       pending invitations (first author)
 *   POST   /Backend/Work/work/:id/invitations                       TeamInviteBody → TeamInviteView, mails the link
 *   DELETE /Backend/Work/work/:id/invitations/:invitationId         withdraw (the link stops working)
 *   GET    /Backend/Public/work-invite/:code                        PublicTeamInvite
 *   POST   /Backend/Public/work-invite/:code/register               TeamInviteRegisterBody → CurrentUser (logged in)
 */
import { Type, type Static } from "typebox";
import { MAX_ID } from "../bounds";
import { Email, Password, Username } from "../account/schema";
import { PEOPLE_ROLES, type PeopleRole } from "./people";
import { WorkId } from "./schema";

/** days a link stays valid */
export const TEAM_INVITE_DAYS = 7;
export const TEAM_CODE_PATTERN = "^[A-Za-z0-9_-]{32}$";

const Role = Type.Unsafe<PeopleRole>({ type: "string", enum: [...PEOPLE_ROLES], title: "身份" });

export const TeamInviteBody = Type.Object({
  role: Role,
  email: Email,
  name: Type.String({ minLength: 2, maxLength: 40, title: "姓名" }),
  version: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "版本" })),
});
export type TeamInviteBody = Static<typeof TeamInviteBody>;

export const TeamInviteParam = Type.Object({
  id: WorkId,
  invitationId: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "邀请" }),
});
export const TeamCodeParam = Type.Object({ code: Type.String({ pattern: TEAM_CODE_PATTERN, maxLength: 64, title: "邀请码" }) });

export const TeamInviteView = Type.Object({
  id: Type.Integer(),
  role: Role,
  email: Type.String(),
  name: Type.String(),
  sentAt: Type.String(),
  expiresAt: Type.String(),
});
export type TeamInviteView = Static<typeof TeamInviteView>;

export const TEAM_INVITE_STATES = ["open", "used", "expired", "closed", "invalid"] as const;
export type TeamInviteState = (typeof TEAM_INVITE_STATES)[number];

export const PublicTeamInvite = Type.Object({
  /** open: can register; used: already registered; expired; closed: the work can no longer take members; invalid: unknown or withdrawn */
  state: Type.Unsafe<TeamInviteState>({ type: "string", enum: [...TEAM_INVITE_STATES] }),
  role: Type.Union([Role, Type.Null()]),
  workName: Type.Union([Type.String(), Type.Null()]),
  contestName: Type.Union([Type.String(), Type.Null()]),
  schoolName: Type.Union([Type.String(), Type.Null()]),
  invitedBy: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  /** masked */
  email: Type.Union([Type.String(), Type.Null()]),
  expiresAt: Type.Union([Type.String(), Type.Null()]),
});
export type PublicTeamInvite = Static<typeof PublicTeamInvite>;

export const TeamInviteRegisterBody = Type.Object({
  username: Username,
  password: Password,
  name: Type.String({ minLength: 2, maxLength: 40, title: "姓名" }),
  memberNo: Type.String({ minLength: 1, maxLength: 40, pattern: "^[A-Za-z0-9-]+$", title: "学号/工号" }),
  phone: Type.Optional(Type.String({ pattern: "^1\\d{10}$", maxLength: 11, title: "手机号" })),
});
export type TeamInviteRegisterBody = Static<typeof TeamInviteRegisterBody>;
