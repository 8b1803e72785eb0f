/**
 * Complaints and arbitration (申诉/投诉/仲裁): the shapes of the API, shared by server and
 * browser. States, actors and names: ./states.ts.
 *
 * Routes (every reply { error, info, data? }; "404" = out of the caller's scope):
 *
 * Public entry (/complaint; no login; visitors prove their email with a mailed code):
 *   GET  /Backend/Public/complaint/info                      public      open windows (contests in publicity/complaint), the contests' explanation notice, categories, limits → ComplaintInfo
 *   GET  /Backend/Public/complaint/work/:workId              public      a work one may complain about: name, school, category, contest, published award, window → ComplaintWorkView
 *   POST /Backend/Public/complaint/code                      public      mail a one-time code to { email } (limited per address and per email) → CodeSent
 *   POST /Backend/Public/complaint/verify                    public      { email, code } → VisitorToken (the code is used up; the token files, uploads and looks up)
 *   POST /Backend/Public/complaint/evidence                  public      multipart (token, then file) → EvidenceView
 *   POST /Backend/Public/complaint                           public      file a 投诉 as a visitor: VisitorFileBody → FilerComplaintView
 *   POST /Backend/Public/complaint/mine                      public      { token } → the visitor's complaints (FilerComplaintView[])
 *   POST /Backend/Public/complaint/mine/:id/arbitration      public      { token, reason } request arbitration of a decision
 *   POST /Backend/Public/complaint/mine/:id/withdraw         public      { token, reason? } withdraw
 *   GET  /Backend/Public/complaint/evidence/:evidenceId?token=  public   download own evidence
 *
 * Logged-in filers and the work's parties (/complaint-view/complaint, /complaint-view/view-complaint,
 * the work's page) — api.complaintFiling, every logged-in user:
 *   GET  /Backend/Complaint/mine                             read        own complaints and complaints about the own works (without the filer) → FilerComplaintView[]
 *   GET  /Backend/Complaint/mine/:id                         read        one of them → FilerComplaintView
 *   POST /Backend/Complaint/mine                             create      FileBody (申诉 of the own work, or 投诉) → FilerComplaintView
 *   POST /Backend/Complaint/evidence                         create      multipart (file) → EvidenceView
 *   POST /Backend/Complaint/mine/:id/arbitration             update      { reason, version } (filer or the work's author/teacher, before the deadline)
 *   POST /Backend/Complaint/mine/:id/withdraw                update      { reason?, version } (filer)
 *   GET  /Backend/Complaint/evidence/:evidenceId             read        evidence file: filer, handlers in scope, the arbitrator, root
 *
 * Complaint handling (/ComplaintManagement) — api.complaints: root and flag:complaint_right
 * (rows: contests the user handles as contest_member "complaint"; root all; others 404):
 *   GET  /Backend/ComplaintManagement/contests               read        contests in scope → ComplaintContest[]
 *   GET  /Backend/ComplaintManagement/complaints             read        ComplaintFilters + ListParams → Page<ComplaintListItem> (overdue first)
 *   GET  /Backend/ComplaintManagement/counts?contestId       read        → ComplaintCounts (per state, overdue)
 *   GET  /Backend/ComplaintManagement/complaints/:id         read        → HandlerComplaintView (filer identity, work, evidence, history, actions)
 *   POST /Backend/ComplaintManagement/complaints/:id/accept  update      StepBody
 *   POST /Backend/ComplaintManagement/complaints/:id/refuse  update      StepBody (reason)
 *   POST /Backend/ComplaintManagement/complaints/:id/opinion update      OpinionBody (role 5 / root)
 *   POST /Backend/ComplaintManagement/complaints/:id/decision update     DecisionBody (role 6 / root; action applied now) → DecisionOutcomeView
 *   POST /Backend/ComplaintManagement/complaints/:id/close   update      StepBody (after the arbitration deadline)
 *   POST /Backend/ComplaintManagement/complaints/:id/rejudge-result update StepBody (role 6 / root: the re-judge's scores replace the old ones once all are submitted)
 * Contest settings — api.complaintSettings: root and contest admins (own contests) read/update,
 * complaint handlers read:
 *   GET  /Backend/ComplaintManagement/contests/:contestId/settings      read    → ComplaintSettings
 *   PUT  /Backend/ComplaintManagement/contests/:contestId/settings      update  ComplaintSettings
 *   GET  /Backend/ComplaintManagement/contests/:contestId/handlers      read    → ContestHandler[]
 *   PUT  /Backend/ComplaintManagement/contests/:contestId/handlers      update  { userIds } (roles 5/6 with the right → "complaint", role 7 → "arbitrator")
 *
 * Arbitration (/Arbitrate) — api.arbitration: role 7 (rows: arbitration states of contests they
 * are contest_member "arbitrator" of, minus conflicts; others 404):
 *   GET  /Backend/Arbitrate/complaints                       read        ListParams + ComplaintFilters → Page<ComplaintListItem>
 *   GET  /Backend/Arbitrate/complaints/:id                   read        → HandlerComplaintView
 *   POST /Backend/Arbitrate/complaints/:id/decision          update      ArbitrationBody
 *
 * Arbitration review (/admin/ArbitrateManagement) — api.arbitrationReview: root:
 *   GET  /Backend/ArbitrateManagement/complaints             read        → Page<ComplaintListItem> (arbitration states)
 *   GET  /Backend/ArbitrateManagement/complaints/:id         read        → HandlerComplaintView
 *   POST /Backend/ArbitrateManagement/complaints/:id/confirm update      StepBody (the arbitration takes effect)
 *   POST /Backend/ArbitrateManagement/complaints/:id/return  update      StepBody (reason; back to the arbitrator)
 *
 * Result versions — api.results (contest admins, root) and api.complaints read:
 *   GET  /Backend/ContestAdmin/judging/:contestId/results/versions?group   read   → ResultVersionView[] (newest first)
 *   GET  /Backend/ContestAdmin/judging/:contestId/results/versions/:versionId read → ResultVersionDetail
 */
import { Type, type Static, type TSchema } from "typebox";
import { WorkId } from "../work/schema";
import { MAX_ID } from "../bounds";
import {
  ARBITRATION_OUTCOMES,
  APPEAL_CATEGORIES,
  COMPLAINT_ACTIONS,
  COMPLAINT_CATEGORIES,
  COMPLAINT_STATES,
  COMPLAINT_TYPES,
  DECISION_ACTIONS,
  DECISION_OUTCOMES,
  DUE_KEYS,
  TEXT_MAX,
} from "./states";

const literals = <T extends readonly string[]>(keys: T, title: string) =>
  Type.Unsafe<T[number]>({ type: "string", enum: [...keys], title });
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });

export const ComplaintStateSchema = literals(COMPLAINT_STATES, "状态");
export const ComplaintTypeSchema = literals(COMPLAINT_TYPES, "类型");
export const ComplaintCategorySchema = literals([...APPEAL_CATEGORIES, ...COMPLAINT_CATEGORIES] as const, "事由");
export const ComplaintActionSchema = literals(COMPLAINT_ACTIONS, "操作");
export const DecisionOutcomeSchema = literals(DECISION_OUTCOMES, "结论");
export const DecisionActionSchema = literals(DECISION_ACTIONS, "处理");
export const ArbitrationOutcomeSchema = literals(ARBITRATION_OUTCOMES, "仲裁结论");

export const ComplaintIdParam = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "申诉编号" }) });
export const EvidenceIdParam = Type.Object({ evidenceId: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "证据" }) });
export const ComplaintWorkParam = Type.Object({ workId: WorkId });
export const ComplaintContestParam = Type.Object({ contestId: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" }) });

/** Rich text of the forms (sanitised on the server; 10–5000 plain characters). */
const Text = (title: string) => Type.String({ minLength: 1, maxLength: TEXT_MAX * 4, title });
const Email = Type.String({ minLength: 3, maxLength: 120, format: "email", title: "邮箱" });
const Token = Type.String({ minLength: 20, maxLength: 100, title: "查询凭证" });
const Version = Type.Integer({ minimum: 1, maximum: MAX_ID, title: "版本" });

// ---- Public entry ----

/** A window during which complaints about a contest's published works may be filed. */
export const ComplaintWindow = Type.Object({
  contestId: Type.Integer(),
  contestName: Type.String(),
  /** "publicity" or "complaint" */
  stage: Type.String(),
  startsAt: Type.String(),
  endsAt: Type.String(),
  open: Type.Boolean(),
});
export type ComplaintWindow = Static<typeof ComplaintWindow>;

export const ComplaintInfo = Type.Object({
  /** windows of contests with a published result, open or coming */
  windows: Type.Array(ComplaintWindow),
  /** the contests' explanation notices (rich text), if any */
  notices: Type.Array(Type.Object({ contestId: Nullable(Type.Integer()), title: Type.String(), content: Type.String() })),
  categories: Type.Object({
    appeal: Type.Array(Type.Object({ key: Type.String(), name: Type.String() })),
    complaint: Type.Array(Type.Object({ key: Type.String(), name: Type.String() })),
  }),
  evidence: Type.Object({ extensions: Type.Array(Type.String()), maxBytes: Type.Integer(), maxFiles: Type.Integer() }),
});
export type ComplaintInfo = Static<typeof ComplaintInfo>;

/** A work as the complaint forms show it (no author identities beyond the public result). */
export const ComplaintWorkView = Type.Object({
  workId: Type.Integer(),
  name: Type.String(),
  schoolName: Type.String(),
  categoryName: Type.String(),
  contestId: Type.Integer(),
  contestName: Type.String(),
  /** published award text, null when none */
  award: Nullable(Type.String()),
  /** in a result in force (投诉 is possible only then) */
  published: Type.Boolean(),
  window: Nullable(ComplaintWindow),
});
export type ComplaintWorkView = Static<typeof ComplaintWorkView>;

export const CodeBody = Type.Object({ email: Email });
export const CodeSent = Type.Object({ email: Type.String(), expiresAt: Type.String() });
export const VerifyBody = Type.Object({
  email: Email,
  code: Type.String({ pattern: "^[0-9]{6}$", maxLength: 6, title: "验证码" }),
});
export const VisitorToken = Type.Object({ token: Type.String(), email: Type.String(), expiresAt: Type.String() });
export type VisitorToken = Static<typeof VisitorToken>;
export const TokenBody = Type.Object({ token: Token });
export const TokenQuery = Type.Object({ token: Token });

// ---- Filing ----

/** A logged-in filer's complaint (申诉 of an own work, or 投诉). */
export const FileBody = Type.Object({
  type: ComplaintTypeSchema,
  workId: WorkId,
  category: ComplaintCategorySchema,
  /** the facts and the request (rich text) */
  text: Text("申诉/投诉内容"),
  /** evidence uploaded before (ids of EvidenceView) */
  evidence: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 10, title: "证据材料" })),
});
export type FileBody = Static<typeof FileBody>;

/** A visitor's 投诉: real name, phone, the verified email's token. */
export const VisitorFileBody = Type.Object({
  token: Token,
  workId: WorkId,
  category: ComplaintCategorySchema,
  text: Text("投诉内容"),
  name: Type.String({ minLength: 2, maxLength: 30, title: "真实姓名" }),
  phone: Type.String({ pattern: "^1[3-9][0-9]{9}$", maxLength: 11, title: "手机号" }),
  evidence: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 10, title: "证据材料" })),
});
export type VisitorFileBody = Static<typeof VisitorFileBody>;

export const EvidenceView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  size: Type.Integer(),
  contentType: Type.String(),
  uploadedAt: Type.String(),
  /** where to download it (the route of the caller's kind) */
  url: Type.String(),
});
export type EvidenceView = Static<typeof EvidenceView>;

export const ArbitrationRequestBody = Type.Object({ reason: Text("仲裁申请理由"), version: Type.Optional(Version) });
export const VisitorArbitrationBody = Type.Object({
  token: Token,
  reason: Text("仲裁申请理由"),
  version: Type.Optional(Version),
});
export const WithdrawBody = Type.Object({
  reason: Type.Optional(Type.String({ maxLength: 500, title: "撤回说明" })),
  version: Type.Optional(Version),
});
export const VisitorWithdrawBody = Type.Object({
  token: Token,
  reason: Type.Optional(Type.String({ maxLength: 500, title: "撤回说明" })),
  version: Type.Optional(Version),
});

// ---- Views ----

export const HistoryEntry = Type.Object({
  id: Type.Integer(),
  at: Type.String(),
  action: Type.String(),
  actionName: Type.String(),
  from: Nullable(ComplaintStateSchema),
  to: ComplaintStateSchema,
  /** who acted: a name for handlers; a role word ("申诉人", "作品方", "处理人员") for the parties */
  by: Type.String(),
  text: Nullable(Type.String()),
});
export type HistoryEntry = Static<typeof HistoryEntry>;

export const DecisionView = Type.Object({
  outcome: DecisionOutcomeSchema,
  action: DecisionActionSchema,
  /** change_award: the new award (null = no award) */
  award: Nullable(Ref),
  text: Type.String(),
  at: Type.String(),
  /** what the action did, e.g. "作品已取消资格，奖项已撤销；结果第 2 版" */
  effect: Nullable(Type.String()),
  /** rejudge: the new judges, and when their scores replaced the old ones (null: not yet) */
  rejudge: Nullable(Type.Object({ judgeIds: Type.Array(Type.Integer()), appliedAt: Nullable(Type.String()) })),
});
export type DecisionView = Static<typeof DecisionView>;

export const ArbitrationView = Type.Object({
  requestedAt: Type.String(),
  /** "申诉人" or "作品方" */
  requestedBy: Type.String(),
  reason: Type.String(),
  outcome: Nullable(ArbitrationOutcomeSchema),
  /** revise: the new decision */
  revised: Nullable(Type.Object({ outcome: DecisionOutcomeSchema, action: DecisionActionSchema, award: Nullable(Ref) })),
  text: Nullable(Type.String()),
  at: Nullable(Type.String()),
  confirmedAt: Nullable(Type.String()),
  effect: Nullable(Type.String()),
});
export type ArbitrationView = Static<typeof ArbitrationView>;

/** The part every view shares. */
const Common = {
  id: Type.Integer(),
  type: ComplaintTypeSchema,
  category: ComplaintCategorySchema,
  state: ComplaintStateSchema,
  version: Type.Integer(),
  contestId: Type.Integer(),
  contestName: Type.String(),
  /** the contest's level: which award levels a decision may give (the contest level's work awards) */
  contestLevel: Type.Union([Type.Literal("national"), Type.Literal("provincial"), Type.Literal("school")]),
  workId: Type.Integer(),
  workName: Type.String(),
  schoolName: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  /** due time of the next step (null in final states) */
  dueAt: Nullable(Type.String()),
  overdue: Type.Boolean(),
  /** decided: until when arbitration may be requested */
  arbitrationDueAt: Nullable(Type.String()),
};

/** The filer's view, and the work's authors'/teachers' view (relation "party": no filer identity). */
export const FilerComplaintView = Type.Object({
  ...Common,
  relation: Type.Union([Type.Literal("filer"), Type.Literal("party")]),
  text: Type.String(),
  evidence: Type.Array(EvidenceView),
  refusal: Nullable(Type.String()),
  decision: Nullable(DecisionView),
  arbitration: Nullable(ArbitrationView),
  history: Type.Array(HistoryEntry),
  /** what this caller may do now (request_arbitration, withdraw) */
  actions: Type.Array(ComplaintActionSchema),
});
export type FilerComplaintView = Static<typeof FilerComplaintView>;

export const FilerIdentity = Type.Object({
  /** logged-in filer's user id, null for a visitor */
  userId: Nullable(Type.Integer()),
  name: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  /** "visitor" (verified email) or the filer's role name */
  kind: Type.String(),
});

export const ComplaintListItem = Type.Object({
  ...Common,
  filerName: Type.String(),
  stateName: Type.String(),
});
export type ComplaintListItem = Static<typeof ComplaintListItem>;

export const OpinionView = Type.Object({
  outcome: DecisionOutcomeSchema,
  action: DecisionActionSchema,
  text: Type.String(),
  by: Type.String(),
  at: Type.String(),
});

/** Handlers', arbitrators' and root's view. */
export const HandlerComplaintView = Type.Object({
  ...Common,
  filer: FilerIdentity,
  text: Type.String(),
  evidence: Type.Array(EvidenceView),
  work: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    status: Type.String(),
    schoolName: Type.String(),
    categoryName: Type.String(),
    authors: Type.Array(Type.String()),
    teachers: Type.Array(Type.String()),
    award: Nullable(Type.String()),
    /** judges who scored or were assigned the work (for re-judge) */
    judges: Type.Array(Ref),
  }),
  refusal: Nullable(Type.String()),
  opinion: Nullable(OpinionView),
  decision: Nullable(DecisionView),
  arbitration: Nullable(ArbitrationView),
  history: Type.Array(HistoryEntry),
  actions: Type.Array(ComplaintActionSchema),
});
export type HandlerComplaintView = Static<typeof HandlerComplaintView>;

export const ComplaintFilters = Type.Object({
  contestId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" })),
  state: Type.Optional(ComplaintStateSchema),
  type: Type.Optional(ComplaintTypeSchema),
  overdue: Type.Optional(Type.Integer({ minimum: 0, maximum: 1, title: "仅超期" })),
  workId: Type.Optional(WorkId),
});
export type ComplaintFilters = Static<typeof ComplaintFilters>;
export const CountsQuery = Type.Object({
  contestId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" })),
});

export const ComplaintCounts = Type.Object({
  byState: Type.Array(Type.Object({ state: ComplaintStateSchema, name: Type.String(), count: Type.Integer() })),
  overdue: Type.Integer(),
  total: Type.Integer(),
});
export type ComplaintCounts = Static<typeof ComplaintCounts>;

export const ComplaintContest = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  level: Type.String(),
  year: Type.Integer(),
});

// ---- Forms ----

export const StepBody = Type.Object({
  reason: Type.Optional(Type.String({ maxLength: TEXT_MAX * 4, title: "说明" })),
  version: Type.Optional(Version),
});
export type StepBody = Static<typeof StepBody>;

/** The reviewer's opinion: a recommended outcome and action, with the reasoning. */
export const OpinionBody = Type.Object({
  outcome: DecisionOutcomeSchema,
  action: DecisionActionSchema,
  text: Text("审核意见"),
  version: Type.Optional(Version),
});
export type OpinionBody = Static<typeof OpinionBody>;

/** change_award needs awardLevelId (null = no award); rejudge may name the judges (else chosen). */
export const DecisionBody = Type.Object({
  outcome: DecisionOutcomeSchema,
  action: DecisionActionSchema,
  text: Text("决定理由"),
  awardLevelId: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "新奖项" }))),
  judgeIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 10, title: "重新评审的评委" })),
  version: Type.Optional(Version),
});
export type DecisionBody = Static<typeof DecisionBody>;

export const ArbitrationBody = Type.Object({
  outcome: ArbitrationOutcomeSchema,
  /** revise: the new decision */
  revisedOutcome: Type.Optional(DecisionOutcomeSchema),
  revisedAction: Type.Optional(DecisionActionSchema),
  awardLevelId: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "新奖项" }))),
  text: Text("仲裁理由"),
  version: Type.Optional(Version),
});
export type ArbitrationBody = Static<typeof ArbitrationBody>;

/** What a step did, for the reply's info and the screen. */
export const StepOutcome = Type.Object({
  id: Type.Integer(),
  /** its kind (申诉 or 投诉), for the notice's wording */
  type: ComplaintTypeSchema,
  state: ComplaintStateSchema,
  version: Type.Integer(),
  effect: Nullable(Type.String()),
});
export type StepOutcome = Static<typeof StepOutcome>;

// ---- Settings ----

export const ComplaintSettings = Type.Object({
  /** days per due time (DUE_KEYS); arbitration: the arbitration request deadline (default 3) */
  dueDays: Type.Object(
    Object.fromEntries(DUE_KEYS.map((k) => [k, Type.Integer({ minimum: 1, maximum: 60 })])) as Record<
      (typeof DUE_KEYS)[number],
      ReturnType<typeof Type.Integer>
    >,
  ),
  /** mail a reminder this many hours before a due time */
  remindHours: Type.Integer({ minimum: 1, maximum: 168 }),
});
export type ComplaintSettings = Static<typeof ComplaintSettings>;

export const ContestHandler = Type.Object({
  userId: Type.Integer(),
  name: Type.String(),
  userType: Type.Integer(),
  role: Type.Union([Type.Literal("complaint"), Type.Literal("arbitrator")]),
});
export type ContestHandler = Static<typeof ContestHandler>;
export const HandlersBody = Type.Object({
  userIds: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 200 }),
});

// ---- Result versions ----

export const ResultVersionView = Type.Object({
  id: Type.Integer(),
  contestId: Type.Integer(),
  groupKey: Type.String(),
  groupName: Type.String(),
  version: Type.Integer(),
  current: Type.Boolean(),
  reason: Type.String(),
  complaintId: Nullable(Type.Integer()),
  createdAt: Type.String(),
  createdBy: Type.String(),
});
export type ResultVersionView = Static<typeof ResultVersionView>;
export const ResultVersionRow = Type.Object({
  workId: Type.Integer(),
  workName: Type.String(),
  rank: Nullable(Type.Integer()),
  normalised: Nullable(Type.Number()),
  award: Nullable(Type.String()),
  promoted: Type.Boolean(),
  disqualified: Type.Boolean(),
});
/** A row of an honour level's version (group key h<award level id>: 优秀指导教师, 优秀组织奖). */
export const HonourVersionRow = Type.Object({
  holderKind: Type.Union([Type.Literal("teacher"), Type.Literal("school")]),
  holderName: Type.String(),
  schoolName: Type.String(),
  workId: Nullable(Type.Integer()),
  workTitle: Nullable(Type.String()),
  award: Type.String(),
  manual: Type.Boolean(),
});
export const ResultVersionDetail = Type.Object({
  ...ResultVersionView.properties,
  rows: Type.Array(Type.Union([ResultVersionRow, HonourVersionRow])),
});
export type ResultVersionDetail = Static<typeof ResultVersionDetail>;
export const VersionsQuery = Type.Object({
  group: Type.Optional(Type.String({ pattern: "^[gch][0-9]{1,9}$", maxLength: 10, title: "结果分组" })),
});
export const VersionParam = Type.Object({
  contestId: Type.Integer({ minimum: 1, maximum: MAX_ID }),
  versionId: Type.Integer({ minimum: 1, maximum: MAX_ID }),
});
