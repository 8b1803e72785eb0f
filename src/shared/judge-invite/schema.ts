/**
 * Judge invitations (issue 12, 评委邀请): the shapes of the API, shared by server and browser.
 * A contest admin invites pool persons (judge_person) or new people by email to judge given
 * categories of a contest; each invitation is a link /inviteJudge/:code (random, single use,
 * bound to the invited email, expires at the answer-by date) sent by mail.
 *
 * Routes (every reply { error, info, data? }; "404" = missing or outside the caller's scope,
 * the same text either way):
 *
 * Contest admins (own contests and their children) and root — api.judgeInvitations:
 *   GET  /Backend/JudgeInvite/contests/:contestId                 read    the contest's categories and judging settings → InviteContest
 *   POST /Backend/JudgeInvite/contests/:contestId/check           read    dry run before sending: CheckBody → ConflictCheck (a warning, never a refusal)
 *   POST /Backend/JudgeInvite/contests/:contestId/invitations     create  InviteBody → InviteOutcome (mails the links; skips duplicates with the reason)
 *   GET  /Backend/JudgeInvite/contests/:contestId/invitations     read    InvitationFilters → Page<InvitationView>
 *   GET  /Backend/JudgeInvite/contests/:contestId/dashboard       read    → InviteDashboard (counts by category, coverage)
 *   POST /Backend/JudgeInvite/invitations/:id/withdraw            update  { reason? } → InvitationView (the link stops working)
 *   POST /Backend/JudgeInvite/invitations/:id/resend              update  { answerBy? } → InvitationView (a new code is mailed; the old link is dead)
 *
 * A judge's own invitations (/judgePool 「我的邀请」) — api.myJudgeInvitations, role 4:
 *   GET  /Backend/JudgeInvite/mine                                read    → MyInvitations (invitations to the account's email, the pool record to prefill)
 *   POST /Backend/JudgeInvite/mine/:id/accept                     update  AcceptBody → AnswerOutcome
 *   POST /Backend/JudgeInvite/mine/:id/decline                    update  DeclineBody → AnswerOutcome
 *
 * The link (/inviteJudge/:code, no layout) — public, limited per address:
 *   GET  /Backend/Public/judge-invite/:code                       the invitation as its holder sees it (records the first opening) → PublicInvitation
 *   POST /Backend/Public/judge-invite/:code/register              create a judge account for the invited email (verified by the link) and log in: InviteRegisterBody
 *   POST /Backend/Public/judge-invite/:code/accept                logged in as the invited email's account: AcceptBody → AnswerOutcome
 *   POST /Backend/Public/judge-invite/:code/decline               DeclineBody → AnswerOutcome (logged in as the invited account, or not logged in: the link suffices)
 * An unknown and a withdrawn code get the same answer ("invalid"); an expired, accepted or
 * declined one says so; none of them changes anything.
 */
import { Type, type Static, type TSchema } from "typebox";
import { MAX_ID } from "../bounds";
import { WorkId } from "../work/schema";
import { Password, Username } from "../account/schema";
import { MAX_TAGS, TAG_MAX, TITLE_MAX } from "../judge-pool/schema";

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const NullableInt = (opts: { minimum: number; maximum: number; title: string }) =>
  Type.Unsafe<number | null>({ type: ["integer", "null"], ...opts });
const NullableStr = (opts: { maxLength: number; title: string }) =>
  Type.Unsafe<string | null>({ type: ["string", "null"], ...opts });
const Id = (title: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, title });
const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });

export const MAX_INVITEES = 200;
export const MAX_CATEGORIES = 50;
export const MESSAGE_MAX = 2000;
/** The pool record's limits (shared/judge-pool/schema.ts): accepting writes tags and title there. */
export { MAX_TAGS, TAG_MAX, TITLE_MAX };
export const MAX_CONFLICT_SCHOOLS = 50;
export const MAX_CONFLICT_WORKS = 200;
export const MAX_CONFLICT_STUDENTS = 100;
/** The answer-by date is at most this far ahead. */
export const MAX_ANSWER_DAYS = 365;

/** The stored status and the computed one (a sent invitation past its answer-by date is expired). */
export const INVITATION_STATES = ["sent", "accepted", "declined", "withdrawn", "expired"] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];
export const INVITATION_STATE_NAMES: Record<InvitationState, string> = {
  sent: "待答复",
  accepted: "已接受",
  declined: "已谢绝",
  withdrawn: "已撤回",
  expired: "已过期",
};

/** What the holder of a link sees: an unknown and a withdrawn code are both "invalid". */
export const PUBLIC_STATES = ["open", "accepted", "declined", "expired", "invalid"] as const;
export type PublicState = (typeof PUBLIC_STATES)[number];

/** The code of a link: 32 base64url characters (24 random bytes); the route accepts a little more. */
export const CODE_PATTERN = "^[A-Za-z0-9_-]{20,64}$";
export const CodeParam = Type.Object({ code: Type.String({ pattern: CODE_PATTERN, maxLength: 64, title: "邀请码" }) });
export const ContestParam = Type.Object({ contestId: Id("赛事") });
export const InvitationParam = Type.Object({ id: Id("邀请") });

/** "YYYY-MM-DD": the link works until the end of that day, Beijing time. */
export const AnswerBy = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", maxLength: 10, title: "答复截止日期" });
const Email = Type.String({ format: "email", minLength: 3, maxLength: 254, title: "邮箱" });
const PersonIds = Type.Array(Id("评委库人员"), { maxItems: MAX_INVITEES, title: "评委库人员" });
const NewPerson = Type.Object({ email: Email, name: Type.String({ minLength: 2, maxLength: 40, title: "姓名" }) });
const People = Type.Array(NewPerson, { maxItems: MAX_INVITEES, title: "新邀请人员" });
const CategoryIds = Type.Array(Id("作品类别"), { minItems: 1, maxItems: MAX_CATEGORIES, title: "评审类别" });

// ---- Admin ----

export const CategoryNode = Type.Object({ id: Type.Integer(), name: Type.String(), children: Type.Array(Ref) });
export type CategoryNode = Static<typeof CategoryNode>;

export const InviteContest = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  year: Type.Integer(),
  level: Type.String(),
  /** the open 大类 with their 小类 */
  categories: Type.Array(CategoryNode),
  reviewsPerWork: Type.Integer(),
  judgeCapacity: Nullable(Type.Integer()),
  avoidProvince: Type.Boolean(),
});
export type InviteContest = Static<typeof InviteContest>;

export const CheckBody = Type.Object({
  personIds: Type.Optional(PersonIds),
  people: Type.Optional(People),
  categoryIds: CategoryIds,
});
export type CheckBody = Static<typeof CheckBody>;

export const InviteBody = Type.Object({
  personIds: Type.Optional(PersonIds),
  people: Type.Optional(People),
  categoryIds: CategoryIds,
  message: Type.Optional(Type.String({ maxLength: MESSAGE_MAX, title: "邀请说明" })),
  answerBy: AnswerBy,
});
export type InviteBody = Static<typeof InviteBody>;

/** Works of one invited category a person could not judge, and why (a work may have several reasons). */
export const CategoryExclusion = Type.Object({
  categoryId: Type.Integer(),
  name: Type.String(),
  works: Type.Integer(),
  excluded: Type.Integer(),
  school: Type.Integer(),
  province: Type.Integer(),
  declared: Type.Integer(),
  advisor: Type.Integer(),
});
export type CategoryExclusion = Static<typeof CategoryExclusion>;

export const CheckedPerson = Type.Object({
  /** "p:<person id>" or "e:<email>" */
  key: Type.String(),
  personId: Nullable(Type.Integer()),
  name: Type.String(),
  email: Nullable(Type.String()),
  schoolName: Nullable(Type.String()),
  province: Nullable(Type.String()),
  hasAccount: Type.Boolean(),
  /** why this person would not be invited (already a judge, an open invitation, no email…); null: would be */
  skip: Nullable(Type.String()),
  categories: Type.Array(CategoryExclusion),
});
export type CheckedPerson = Static<typeof CheckedPerson>;

export const Feasibility = Type.Object({
  /** every work gets N conflict-free judges */
  complete: Type.Boolean(),
  /** works with fewer than N */
  shortWorks: Type.Integer(),
  /** reviews missing in all */
  missingReviews: Type.Integer(),
});
export type Feasibility = Static<typeof Feasibility>;

export const ConflictCheck = Type.Object({
  contest: Ref,
  reviewsPerWork: Type.Integer(),
  judgeCapacity: Nullable(Type.Integer()),
  avoidProvince: Type.Boolean(),
  persons: Type.Array(CheckedPerson),
  /** works the contest judges now, its current judges, the invitees counted as new judges */
  works: Type.Integer(),
  currentJudges: Type.Integer(),
  invitedJudges: Type.Integer(),
  /** the assignment feasibility with the current judges, and with the invitees added */
  before: Feasibility,
  after: Feasibility,
  byCategory: Type.Array(
    Type.Object({
      categoryId: Type.Integer(),
      name: Type.String(),
      works: Type.Integer(),
      shortBefore: Type.Integer(),
      shortAfter: Type.Integer(),
    }),
  ),
  /** the feasibility check's reasons (first few), as sentences */
  issues: Type.Array(Type.String()),
  /** the warnings to show before sending; empty: nothing to warn of */
  warnings: Type.Array(Type.String()),
});
export type ConflictCheck = Static<typeof ConflictCheck>;

export const InvitationStateSchema = Type.Unsafe<InvitationState>({
  type: "string",
  enum: [...INVITATION_STATES],
  title: "状态",
});

export const InvitationView = Type.Object({
  id: Type.Integer(),
  contestId: Type.Integer(),
  contestName: Type.String(),
  personId: Nullable(Type.Integer()),
  name: Type.String(),
  email: Type.String(),
  categories: Type.Array(Ref),
  message: Type.String(),
  answerBy: Type.String(),
  /** the computed state (sent past the answer-by date → expired) */
  state: InvitationStateSchema,
  statusReason: Nullable(Type.String()),
  sentAt: Type.String(),
  openedAt: Nullable(Type.String()),
  answeredAt: Nullable(Type.String()),
  remindedAt: Nullable(Type.String()),
  invitedBy: Ref,
  acceptedUser: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), username: Type.String() })),
});
export type InvitationView = Static<typeof InvitationView>;

export const InviteOutcome = Type.Object({
  created: Type.Array(InvitationView),
  skipped: Type.Array(Type.Object({ name: Type.String(), email: Nullable(Type.String()), reason: Type.String() })),
});
export type InviteOutcome = Static<typeof InviteOutcome>;

export const InvitationFilters = Type.Object({
  state: Type.Optional(InvitationStateSchema),
  categoryId: Type.Optional(Id("作品类别")),
  keyword: Type.Optional(Type.String({ maxLength: 60, title: "关键词" })),
  current: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1, title: "页码" })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20, title: "每页条数" })),
});
export type InvitationFilters = Static<typeof InvitationFilters>;

export const WithdrawBody = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 200, title: "撤回原因" })) });
export const ResendBody = Type.Object({ answerBy: Type.Optional(AnswerBy) });

export const StateCounts = Type.Object({
  sent: Type.Integer(),
  opened: Type.Integer(),
  pending: Type.Integer(),
  accepted: Type.Integer(),
  declined: Type.Integer(),
  expired: Type.Integer(),
  withdrawn: Type.Integer(),
});
export type StateCounts = Static<typeof StateCounts>;

export const CategoryCoverage = Type.Object({
  categoryId: Type.Integer(),
  name: Type.String(),
  counts: StateCounts,
  /** works the contest judges in this 大类 now */
  works: Type.Integer(),
  /** the contest's judges for this 大类 (accepted invitations included) */
  judges: Type.Integer(),
  /** works × N */
  reviewsNeeded: Type.Integer(),
  /** judges × capacity; null without a capacity limit */
  reviewCapacity: Nullable(Type.Integer()),
  /** judges needed: max(N, ⌈works × N / capacity⌉), or N without a capacity limit (0 without works) */
  judgesNeeded: Type.Integer(),
  /** judges / judgesNeeded (1 = enough; 0 without works is shown as covered) */
  coverage: Type.Number(),
  covered: Type.Boolean(),
});
export type CategoryCoverage = Static<typeof CategoryCoverage>;

export const InviteDashboard = Type.Object({
  contest: Ref,
  reviewsPerWork: Type.Integer(),
  judgeCapacity: Nullable(Type.Integer()),
  totals: StateCounts,
  categories: Type.Array(CategoryCoverage),
  /** judges of the contest without a 大类 (no group, invitation or pool category): counted for none */
  judgesWithoutCategory: Type.Integer(),
});
export type InviteDashboard = Static<typeof InviteDashboard>;

// ---- The invitee ----

/** What the invitee confirms when accepting: school, title and expertise, and their conflicts. */
export const AcceptBody = Type.Object({
  /** a school of the list, or null with schoolName for someone outside it (industry) */
  schoolId: NullableInt({ minimum: 1, maximum: MAX_ID, title: "学校" }),
  schoolName: Type.Optional(NullableStr({ maxLength: 100, title: "单位名称" })),
  title: Type.Optional(NullableStr({ maxLength: TITLE_MAX, title: "职称" })),
  tags: Type.Array(Type.String({ minLength: 1, maxLength: TAG_MAX, title: "专长" }), { maxItems: MAX_TAGS, title: "专长" }),
  categoryIds: Type.Array(Id("可评审类别"), { maxItems: MAX_CATEGORIES, title: "可评审类别" }),
  conflicts: Type.Object({
    schoolIds: Type.Array(Id("回避学校"), { maxItems: MAX_CONFLICT_SCHOOLS, title: "回避学校" }),
    workIds: Type.Array(WorkId, { maxItems: MAX_CONFLICT_WORKS, title: "回避作品" }),
    studentIds: Type.Optional(Type.Array(Id("回避学生"), { maxItems: MAX_CONFLICT_STUDENTS, title: "回避学生" })),
    note: Type.Optional(Type.String({ maxLength: 200, title: "回避说明" })),
  }),
});
export type AcceptBody = Static<typeof AcceptBody>;

export const DeclineBody = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 500, title: "谢绝原因" })) });
export type DeclineBody = Static<typeof DeclineBody>;

export const InviteRegisterBody = Type.Object({
  username: Username,
  password: Password,
  name: Type.String({ minLength: 2, maxLength: 40, title: "姓名" }),
  phone: Type.Optional(Type.String({ pattern: "^1\\d{10}$", maxLength: 11, title: "手机号" })),
});
export type InviteRegisterBody = Static<typeof InviteRegisterBody>;

/** The pool record's fields the accept form starts from. */
export const Prefill = Type.Object({
  school: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), province: Nullable(Type.String()) })),
  schoolName: Nullable(Type.String()),
  title: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  categoryIds: Type.Array(Type.Integer()),
});
export type Prefill = Static<typeof Prefill>;

export const PublicInvitation = Type.Object({
  state: Type.Unsafe<PublicState>({ type: "string", enum: [...PUBLIC_STATES] }),
  /** null for an invalid link */
  contest: Nullable(Type.Object({ name: Type.String(), year: Type.Integer(), level: Type.String() })),
  categories: Type.Array(Type.String()),
  answerBy: Nullable(Type.String()),
  sentAt: Nullable(Type.String()),
  message: Nullable(Type.String()),
  invitedBy: Nullable(Type.String()),
  name: Nullable(Type.String()),
  /** the invited address, masked (zh***@example.com) */
  email: Nullable(Type.String()),
  /** an account with the invited email exists: log in; otherwise create one from the link */
  accountExists: Type.Boolean(),
  /** the logged-in user, and whether their account's email is the invited one */
  viewer: Nullable(
    Type.Object({ name: Type.String(), username: Type.String(), matches: Type.Boolean(), isJudge: Type.Boolean() }),
  ),
  /** the contest's open categories (for the expertise confirmation) */
  categoryOptions: Type.Array(CategoryNode),
  /** shown to the matching account while the invitation is open */
  prefill: Nullable(Prefill),
});
export type PublicInvitation = Static<typeof PublicInvitation>;

export const AnswerOutcome = Type.Object({
  state: InvitationStateSchema,
  contest: Ref,
  /** declared conflicts stored with this answer */
  conflicts: Type.Integer(),
});
export type AnswerOutcome = Static<typeof AnswerOutcome>;

export const MyInvitation = Type.Object({
  id: Type.Integer(),
  contest: Type.Object({ id: Type.Integer(), name: Type.String(), year: Type.Integer() }),
  categories: Type.Array(Ref),
  categoryOptions: Type.Array(CategoryNode),
  message: Type.String(),
  answerBy: Type.String(),
  sentAt: Type.String(),
  answeredAt: Nullable(Type.String()),
  invitedBy: Type.String(),
  state: InvitationStateSchema,
});
export type MyInvitation = Static<typeof MyInvitation>;

export const MyInvitations = Type.Object({ invitations: Type.Array(MyInvitation), prefill: Prefill });
export type MyInvitations = Static<typeof MyInvitations>;
