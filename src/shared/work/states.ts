/**
 * The lifecycle of a work, in one place: states, who moves a work from which state to
 * which, and the Chinese names. Both sides read it; the server enforces it.
 *
 *   draft ──submit──▶ submitted ──approve──▶ school_approved ──recommend──▶ recommended ──accept──▶ accepted
 *     ▲                  │  ▲                       │                              │
 *     └────return────────┘  └────────withdraw───────┘ (school takes back)           └─reject (provincial) ─▶ school_approved
 *   any state ──disqualify──▶ disqualified (public reason)
 *
 * Format review (形式审查) of an accepted work by the receiving contest's reviewers (its
 * admins and root may act too):
 *
 *   accepted ──format_pass──▶ format_passed ──▶ (judging)
 *      │ ▲  ──format_return (reason codes + text + deadline)──▶ format_returned
 *      │ │                                                          │ first author fixes the work
 *      │ │   format_resubmitted ◀──format_resubmit (before the deadline)┘
 *      │ │        │ (reviewed again like accepted: pass / return / reject)
 *      └─┴────────┴──format_reject (reason)──▶ format_rejected (不符合要求)
 *   format_returned ──format_reject──▶ format_rejected only once the deadline has passed
 *   format_passed / format_rejected ──format_reopen──▶ accepted (undo a decision; refused
 *     while the work has judges assigned)
 *
 * Reason codes come from src/shared/review/reasons.ts; a return needs at least one code, a
 * text and a deadline in the future. A format-returned work is editable by its first author
 * (like a school-returned one) until it is resubmitted. Format review has no stage window:
 * the deadline of each return is what binds.
 * Judging, awards and publication continue from format_passed.
 *
 * Actors: "author" is the work's first author; "school" the admin of the work's school;
 * "contest" an admin of the contest that receives the work (the parent of a school-level
 * contest, or the provincial contest a work was entered in directly) — for disqualify any
 * contest admin whose scope holds the work; "reviewer" a contest reviewer (role 3, a
 * contest_member "reviewer") of the receiving contest; "root" may do what school and
 * contest do.
 *
 * Stage windows (stageWindow): a draft is submitted while the contest's registration is
 * open; a returned work may also be resubmitted during school review; the school acts
 * during registration and school review; contest decisions have no window. Root is not
 * bound by windows. Quotas: recommending a work of a school-level contest counts the
 * contest's works holding a slot (SLOT_STATES) against its recommend_quota and its
 * category_quotas; a work entered directly in a provincial contest (a school without a
 * school-level contest) has no school quota to count against.
 *
 * A work entered by a contest admin on a school's behalf (/ContestAdmin/AddWork) starts
 * at accepted: the school's steps were done on paper, the authors are confirmed by the
 * admin from the signed registration form, and the submit checks still apply.
 */
export const WORK_STATES = [
  "draft",
  "submitted",
  "returned",
  "school_approved",
  "recommended",
  "accepted",
  "format_returned",
  "format_resubmitted",
  "format_passed",
  "format_rejected",
  "disqualified",
] as const;
export type WorkState = (typeof WORK_STATES)[number];

export const WORK_STATE_NAMES: Record<WorkState, string> = {
  draft: "草稿",
  submitted: "已提交",
  returned: "已退回修改",
  school_approved: "学校已审核",
  recommended: "已推荐至省赛",
  accepted: "省赛已接收",
  format_returned: "形式审查退回修改",
  format_resubmitted: "已重新提交形式审查",
  format_passed: "形式审查通过",
  format_rejected: "形式审查不符合要求",
  disqualified: "已取消资格",
};

/** Who performs a transition. */
export type Actor = "author" | "school" | "contest" | "reviewer" | "root";

export const WORK_ACTIONS = [
  "submit",
  "return",
  "approve",
  "withdraw_approval",
  "recommend",
  "unrecommend",
  "accept",
  "reject",
  "format_pass",
  "format_return",
  "format_resubmit",
  "format_reject",
  "format_reopen",
  "disqualify",
] as const;
export type WorkAction = (typeof WORK_ACTIONS)[number];

interface Transition {
  from: readonly WorkState[];
  to: WorkState;
  by: readonly Actor[];
  /** a reason text is required */
  reason?: boolean;
  name: string;
}

export const TRANSITIONS: Record<WorkAction, Transition> = {
  submit: { from: ["draft", "returned"], to: "submitted", by: ["author"], name: "提交" },
  return: { from: ["submitted", "school_approved"], to: "returned", by: ["school", "root"], reason: true, name: "退回修改" },
  approve: { from: ["submitted"], to: "school_approved", by: ["school", "root"], name: "审核通过" },
  withdraw_approval: { from: ["school_approved"], to: "submitted", by: ["school", "root"], name: "撤销审核" },
  recommend: { from: ["school_approved"], to: "recommended", by: ["school", "root"], name: "推荐至省赛" },
  unrecommend: { from: ["recommended"], to: "school_approved", by: ["school", "root"], name: "撤回推荐" },
  accept: { from: ["recommended"], to: "accepted", by: ["contest", "root"], name: "接收" },
  reject: { from: ["recommended"], to: "school_approved", by: ["contest", "root"], reason: true, name: "退回学校" },
  format_pass: {
    from: ["accepted", "format_resubmitted"],
    to: "format_passed",
    by: ["reviewer", "contest", "root"],
    name: "形式审查通过",
  },
  format_return: {
    from: ["accepted", "format_resubmitted"],
    to: "format_returned",
    by: ["reviewer", "contest", "root"],
    reason: true,
    name: "形式审查退回修改",
  },
  format_resubmit: { from: ["format_returned"], to: "format_resubmitted", by: ["author"], name: "重新提交形式审查" },
  format_reject: {
    from: ["accepted", "format_resubmitted", "format_returned"],
    to: "format_rejected",
    by: ["reviewer", "contest", "root"],
    reason: true,
    name: "判定不符合要求",
  },
  format_reopen: {
    from: ["format_passed", "format_rejected"],
    to: "accepted",
    by: ["reviewer", "contest", "root"],
    name: "撤销形式审查结论",
  },
  disqualify: {
    from: WORK_STATES.filter((s) => s !== "disqualified"),
    to: "disqualified",
    by: ["contest", "root"],
    reason: true,
    name: "取消资格",
  },
};

export const EDITABLE_STATES: readonly WorkState[] = ["draft", "returned", "format_returned"];
export const isEditable = (s: WorkState) => EDITABLE_STATES.includes(s);

/** The states of format review: from accepted on, until judging. */
export const FORMAT_REVIEW_STATES: readonly WorkState[] = [
  "accepted",
  "format_returned",
  "format_resubmitted",
  "format_passed",
  "format_rejected",
];
/** Works waiting for a reviewer's decision. */
export const FORMAT_PENDING_STATES: readonly WorkState[] = ["accepted", "format_resubmitted"];
/** What the format review list's status filter offers, and the states behind each choice. */
export const FORMAT_FILTERS = {
  pending: { name: "待审查", states: FORMAT_PENDING_STATES },
  passed: { name: "已通过", states: ["format_passed"] },
  returned: { name: "已退回修改", states: ["format_returned"] },
  rejected: { name: "不符合要求", states: ["format_rejected"] },
} as const satisfies Record<string, { name: string; states: readonly WorkState[] }>;
export type FormatFilter = keyof typeof FORMAT_FILTERS;
/** The format review outcomes a reviewer gives (the author's resubmission is not one). */
export const FORMAT_OUTCOMES = [
  "format_pass",
  "format_return",
  "format_reject",
  "format_reopen",
] as const satisfies readonly WorkAction[];
export type FormatOutcome = (typeof FORMAT_OUTCOMES)[number];

/**
 * States that hold one of the contest's recommendation slots: a recommended work keeps its
 * slot through acceptance and format review, whatever the review's outcome; a disqualified
 * work frees it.
 */
export const SLOT_STATES: readonly WorkState[] = [
  "recommended",
  "accepted",
  "format_returned",
  "format_resubmitted",
  "format_passed",
  "format_rejected",
];

/** States the public lookup (/query-work) can find: everything ever submitted. */
export const PUBLIC_STATES: readonly WorkState[] = WORK_STATES.filter((s) => s !== "draft");

/** The contest stages of which one must be open for an action (from a state); none: any time. */
export function stageWindow(action: WorkAction, from: WorkState): readonly ("registration" | "school_review")[] {
  switch (action) {
    case "submit":
      return from === "returned" ? ["registration", "school_review"] : ["registration"];
    case "return":
    case "approve":
    case "withdraw_approval":
    case "recommend":
    case "unrecommend":
      return ["registration", "school_review"];
    default:
      return [];
  }
}

export function canTransition(action: WorkAction, from: WorkState, actor: Actor): boolean {
  const t = TRANSITIONS[action];
  return t.from.includes(from) && t.by.includes(actor);
}

/** Actions the actor may take on a work in this state, for buttons. */
export const actionsFor = (state: WorkState, actor: Actor): WorkAction[] =>
  WORK_ACTIONS.filter((a) => canTransition(a, state, actor));

/** 4-digit year + 6-digit sequence, e.g. 2026049861. */
export const formatWorkId = (year: number, seq: number) => year * 1_000_000 + seq;
export const yearOfWorkId = (id: number) => Math.floor(id / 1_000_000);
export const isWorkId = (id: number) => Number.isInteger(id) && id >= 2000_000_001 && id % 1_000_000 !== 0;
