/**
 * The lifecycle of a complaint (申诉/投诉), in one place: states, who moves a complaint from
 * which state to which, and the Chinese names. Both sides read it; the server enforces it
 * (src/server/complaint/transition.ts), every step in the complaint's history and in
 * the work log of the work it is about.
 *
 *   submitted ──accept──▶ accepted ──opinion──▶ reviewed ──decide──▶ decided
 *      │                     │                     │                  │  ▲ (arbitration deadline, per contest, default 3 days)
 *      └──refuse (reason)──▶ refused (closed)      │                  │  └─ either party: request_arbitration ─▶ arbitration_requested
 *   submitted/accepted/reviewed ──withdraw (filer)──▶ withdrawn       │                                           │ arbitrate (role 7)
 *                                                                     │                                           ▼
 *                                  close (deadline passed, no request)▼                 ◀──return (root)── arbitrated
 *                                                                   closed ◀──confirm (root: takes effect)───────┘
 *
 * Actors:
 * - "filer": the complaint's filer (logged-in user, or the visitor holding the mailed code's token);
 * - "party": the filer or an author / advising teacher of the work (may request arbitration);
 * - "reviewer": a complaint reviewer (role 5) with the complaint right who handles the contest
 *   (contest_member "complaint");
 * - "admin": a complaint admin (role 6) with the complaint right who handles the contest;
 * - "arbitrator": an arbitrator (role 7) of the contest (contest_member "arbitrator"), never
 *   one who reviewed or decided the complaint, never about a work of their own school;
 * - "root": root (handles every contest; confirms or returns an arbitration).
 *
 * Effects: a decision's action (DECISION_ACTIONS) is applied when it is taken (disqualify,
 * re-judge, change award, no change) through the works and judging services; an arbitration
 * that revises the decision applies its own action only when root confirms it. A change to a
 * published result makes a new published version of the work's result group.
 * Nothing is deleted: withdrawn, refused and closed complaints stay with their history.
 */
export const COMPLAINT_STATES = [
  "submitted",
  "accepted",
  "refused",
  "reviewed",
  "decided",
  "arbitration_requested",
  "arbitrated",
  "closed",
  "withdrawn",
] as const;
export type ComplaintState = (typeof COMPLAINT_STATES)[number];

export const COMPLAINT_STATE_NAMES: Record<ComplaintState, string> = {
  submitted: "待受理",
  accepted: "待审核",
  refused: "不予受理",
  reviewed: "待决定",
  decided: "已决定（仲裁申请期）",
  arbitration_requested: "待仲裁",
  arbitrated: "仲裁待确认",
  closed: "已结案",
  withdrawn: "已撤回",
};

/** States in which nothing more happens. */
export const FINAL_STATES: readonly ComplaintState[] = ["refused", "closed", "withdrawn"];
/** "Open" for the one-open-complaint-per-filer-per-work rule. */
export const OPEN_STATES: readonly ComplaintState[] = COMPLAINT_STATES.filter((s) => !FINAL_STATES.includes(s));
/** States with a due time (DUE_STAGE) for the next step. */
export const DUE_STAGE: Partial<Record<ComplaintState, DueKey>> = {
  submitted: "accept",
  accepted: "opinion",
  reviewed: "decide",
  decided: "arbitration",
  arbitration_requested: "arbitrate",
  arbitrated: "confirm",
};
/** Per-contest due times, in days from entering the state (ComplaintSettings). */
export const DUE_KEYS = ["accept", "opinion", "decide", "arbitration", "arbitrate", "confirm"] as const;
export type DueKey = (typeof DUE_KEYS)[number];
export const DUE_NAMES: Record<DueKey, string> = {
  accept: "受理期限",
  opinion: "审核意见期限",
  decide: "决定期限",
  arbitration: "仲裁申请期限",
  arbitrate: "仲裁裁决期限",
  confirm: "仲裁确认期限",
};
export const DEFAULT_DUE_DAYS: Record<DueKey, number> = {
  accept: 2,
  opinion: 5,
  decide: 3,
  arbitration: 3,
  arbitrate: 5,
  confirm: 2,
};

export type ComplaintActor = "filer" | "party" | "reviewer" | "admin" | "arbitrator" | "root";

export const COMPLAINT_ACTIONS = [
  "accept",
  "refuse",
  "opinion",
  "decide",
  "request_arbitration",
  "close",
  "arbitrate",
  "confirm",
  "return",
  "withdraw",
] as const;
export type ComplaintAction = (typeof COMPLAINT_ACTIONS)[number];

interface Step {
  from: readonly ComplaintState[];
  to: ComplaintState;
  by: readonly ComplaintActor[];
  /** a reason text is required */
  reason?: boolean;
  name: string;
}

export const COMPLAINT_TRANSITIONS: Record<ComplaintAction, Step> = {
  accept: { from: ["submitted"], to: "accepted", by: ["reviewer", "admin", "root"], name: "受理" },
  refuse: { from: ["submitted"], to: "refused", by: ["reviewer", "admin", "root"], reason: true, name: "不予受理" },
  opinion: { from: ["accepted"], to: "reviewed", by: ["reviewer", "root"], reason: true, name: "出具审核意见" },
  decide: { from: ["reviewed"], to: "decided", by: ["admin", "root"], reason: true, name: "作出决定" },
  request_arbitration: { from: ["decided"], to: "arbitration_requested", by: ["party"], reason: true, name: "申请仲裁" },
  close: { from: ["decided"], to: "closed", by: ["admin", "root"], name: "结案" },
  arbitrate: { from: ["arbitration_requested"], to: "arbitrated", by: ["arbitrator"], reason: true, name: "仲裁裁决" },
  confirm: { from: ["arbitrated"], to: "closed", by: ["root"], name: "确认仲裁结果" },
  return: { from: ["arbitrated"], to: "arbitration_requested", by: ["root"], reason: true, name: "退回仲裁" },
  withdraw: { from: ["submitted", "accepted", "reviewed"], to: "withdrawn", by: ["filer"], name: "撤回" },
};

export const canStep = (action: ComplaintAction, from: ComplaintState, actor: ComplaintActor) => {
  const t = COMPLAINT_TRANSITIONS[action];
  return t.from.includes(from) && t.by.includes(actor);
};

/** Actions any of the actor's roles may take on a complaint in this state, for buttons. */
export const complaintActionsFor = (state: ComplaintState, actors: readonly ComplaintActor[]): ComplaintAction[] =>
  COMPLAINT_ACTIONS.filter((a) => actors.some((x) => canStep(a, state, x)));

// ---- Kinds, categories, decisions ----

/** 申诉: an author/teacher about the own work's outcome; 投诉: anyone about a work of a published result. */
export const COMPLAINT_TYPES = ["appeal", "complaint"] as const;
export type ComplaintType = (typeof COMPLAINT_TYPES)[number];
export const COMPLAINT_TYPE_NAMES: Record<ComplaintType, string> = { appeal: "申诉", complaint: "投诉" };

export const APPEAL_CATEGORIES = ["format_review", "disqualification", "score", "award", "other_appeal"] as const;
export const COMPLAINT_CATEGORIES = [
  "plagiarism",
  "repeat_entry",
  "false_material",
  "absent_author",
  "ai_undeclared",
  "other_complaint",
] as const;
export type ComplaintCategory = (typeof APPEAL_CATEGORIES)[number] | (typeof COMPLAINT_CATEGORIES)[number];
export const CATEGORIES_OF: Record<ComplaintType, readonly ComplaintCategory[]> = {
  appeal: APPEAL_CATEGORIES,
  complaint: COMPLAINT_CATEGORIES,
};
export const COMPLAINT_CATEGORY_NAMES: Record<ComplaintCategory, string> = {
  format_review: "形式审查结论",
  disqualification: "取消资格",
  score: "评分",
  award: "奖项",
  other_appeal: "其他",
  plagiarism: "抄袭、剽窃",
  repeat_entry: "重复参赛、一稿多投",
  false_material: "材料虚假",
  absent_author: "作者未实际参与",
  ai_undeclared: "未如实声明AI工具使用",
  other_complaint: "其他违规",
};

/** The complaint admin's decision (and the reviewer's recommendation). */
export const DECISION_OUTCOMES = ["upheld", "partly_upheld", "rejected"] as const;
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];
export const DECISION_OUTCOME_NAMES: Record<DecisionOutcome, string> = {
  upheld: "成立",
  partly_upheld: "部分成立",
  rejected: "不成立",
};

/** What a decision does to the work's result, applied through the existing services. */
export const DECISION_ACTIONS = ["disqualify", "rejudge", "change_award", "no_change"] as const;
export type DecisionAction = (typeof DECISION_ACTIONS)[number];
export const DECISION_ACTION_NAMES: Record<DecisionAction, string> = {
  disqualify: "取消作品资格（撤销奖项）",
  rejudge: "重新评审",
  change_award: "变更奖项",
  no_change: "不作变更",
};
/** A rejected complaint changes nothing. */
export const actionAllowed = (outcome: DecisionOutcome, action: DecisionAction) =>
  outcome !== "rejected" || action === "no_change";

/** The arbitrator's ruling: keep the decision, or replace it (its outcome and action). */
export const ARBITRATION_OUTCOMES = ["maintain", "revise"] as const;
export type ArbitrationOutcome = (typeof ARBITRATION_OUTCOMES)[number];
export const ARBITRATION_OUTCOME_NAMES: Record<ArbitrationOutcome, string> = { maintain: "维持原决定", revise: "变更决定" };

// ---- Evidence ----
export const EVIDENCE_TYPES: Record<string, string> = {
  "image/png": ".png",
  "image/jpeg": ".jpg",
  "image/gif": ".gif",
  "image/webp": ".webp",
  "application/pdf": ".pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx",
  "application/zip": ".zip",
};
export const EVIDENCE_EXTENSIONS = [".png", ".jpg", ".jpeg", ".gif", ".webp", ".pdf", ".docx", ".zip"] as const;
export const EVIDENCE_MAX_BYTES = 20 * 1024 * 1024;
export const EVIDENCE_MAX_FILES = 10;

/** Limits of the texts (plain characters after sanitising). */
export const TEXT_MIN = 10;
export const TEXT_MAX = 5000;
/** The visitor's mailed code: digits, lifetime; the token it buys lives this long. */
export const CODE_LENGTH = 6;
export const CODE_MINUTES = 15;
export const VISITOR_TOKEN_HOURS = 2;
