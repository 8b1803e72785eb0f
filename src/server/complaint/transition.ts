/**
 * Every state change of a complaint goes through takeStep: load → who the caller is to it
 * (404 when nothing) → the step's actors (403) → the state (400, a forged step) → the
 * version (409) → the reason → the step's own checks and effects (decision actions through
 * the works and judging services) → the row at its version → the complaint's history and
 * the work's log, all in one transaction; mails go out after it commits.
 * Identity: steps of the filer and of the work's party are logged in the work log without a
 * user, so the work's authors never learn who complained.
 */
import type { Transaction, Updateable } from "kysely";
import {
  actionAllowed,
  COMPLAINT_STATE_NAMES,
  COMPLAINT_TRANSITIONS,
  DECISION_ACTION_NAMES,
  DECISION_OUTCOME_NAMES,
  FINAL_STATES,
  type ArbitrationOutcome,
  type ComplaintAction,
  type ComplaintActor,
  type ComplaintState,
  type ComplaintType,
  type DecisionAction,
  type DecisionOutcome,
} from "../../shared/complaint/states";
import { complaintKind } from "../../shared/complaint/labels";
import type { StepOutcome } from "../../shared/complaint/schema";
import { badRequest, conflict, forbidden, invalid, notFound } from "../../shared/errors";
import type { Db } from "../db";
import type { ComplaintTable, DB } from "../db/schema";
import type { Mail, Mailer } from "../mail/mailer";
import { appendLog } from "../work/repository";
import { beijingTime as bj } from "../../shared/time";
import { sanitizeRichText, plainText } from "../richtext/sanitize";
import { applyAction, applyRejudge, checkAction, undoDecision } from "./effects";
import { decisionMails, stepMails } from "./notify";
import { actorsOf, findComplaint, NOT_FOUND, type Caller, type ComplaintRow } from "./scope";
import { dueAt, settingsOf } from "./settings";

export interface StepDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  log?: (msg: string) => void;
}

/** The forms of the steps (each step reads its own part). */
export interface StepInput {
  reason?: string | null;
  version?: number;
  outcome?: DecisionOutcome | ArbitrationOutcome;
  action?: DecisionAction;
  revisedOutcome?: DecisionOutcome;
  revisedAction?: DecisionAction;
  awardLevelId?: number | null;
  judgeIds?: number[];
}

/** A sanitised rich text, required non-blank; its plain text for mails and logs. */
export function cleanText(
  html: string | null | undefined,
  field: string,
  label: string,
  min = 1,
): { html: string; plain: string } {
  const clean = sanitizeRichText(html ?? "");
  const plain = plainText(clean, 10_000);
  if (plain.length < min) throw invalid(field, min > 1 ? `请填写${label}（至少 ${min} 个字）` : `请填写${label}`);
  return { html: clean, plain };
}

interface StepCtx {
  trx: Transaction<DB>;
  c: ComplaintRow;
  caller: Caller;
  actor: ComplaintActor;
  now: Date;
  text: { html: string; plain: string } | null;
  input: StepInput;
}
interface StepResult {
  set?: Updateable<ComplaintTable>;
  effect?: string | null;
  mails?: Mail[];
}

const at = (iso: string | null) => (iso ? bj(iso) : "");

/** The step's own checks and effects, by action. */
const STEPS: Record<ComplaintAction, (s: StepCtx) => Promise<StepResult>> = {
  accept: async () => ({}),
  refuse: async ({ text }) => ({ set: { refusal: text!.html } }),
  withdraw: async () => ({}),
  opinion: async ({ input, text, caller, now }) => {
    const { outcome, action } = decisionOf(input);
    return {
      set: {
        opinion_outcome: outcome,
        opinion_action: action,
        opinion_text: text!.html,
        opinion_by: caller.user!.id,
        opinion_at: now.toISOString(),
      },
    };
  },
  decide: async ({ trx, c, input, text, caller, now }) => {
    const { outcome, action } = decisionOf(input);
    await checkAction(trx, c, { action, awardLevelId: input.awardLevelId, judgeIds: input.judgeIds });
    const actx: Parameters<typeof applyAction>[0] = { trx, user: caller.user!, now, complaint: c, reason: text!.plain };
    const effect = await applyAction(actx, { action, awardLevelId: input.awardLevelId, judgeIds: input.judgeIds });
    const days = (await settingsOf(trx, c.contest_id)).dueDays.arbitration;
    const arbitrationDue = new Date(now.getTime() + days * 86_400_000).toISOString();
    return {
      set: {
        decision_outcome: outcome,
        decision_action: action,
        decision_award_level_id: action === "change_award" ? (input.awardLevelId ?? null) : null,
        decision_text: text!.html,
        decision_by: caller.user!.id,
        decision_at: now.toISOString(),
        decision_effect: effect,
        decision_undo: actx.undo ?? null,
        rejudge_judges: actx.rejudgeJudges ? JSON.stringify(actx.rejudgeJudges) : null,
        arbitration_due_at: arbitrationDue,
      },
      effect,
    };
  },
  request_arbitration: async ({ c, now, actor, text }) => {
    if (c.arbitration_due_at && now.getTime() > Date.parse(c.arbitration_due_at))
      throw badRequest(`仲裁申请期限已于 ${at(c.arbitration_due_at)} 截止，不能再申请仲裁`);
    return {
      set: {
        arb_requested_at: now.toISOString(),
        arb_requested_by: actor === "filer" ? "filer" : "party",
        arb_reason: text!.html,
      },
    };
  },
  close: async ({ c, now }) => {
    if (c.arbitration_due_at && now.getTime() <= Date.parse(c.arbitration_due_at))
      throw badRequest(`仲裁申请期至 ${at(c.arbitration_due_at)} 截止，截止后才能结案`);
    return {};
  },
  arbitrate: async ({ trx, c, input, text, caller, now }) => {
    const outcome = input.outcome as ArbitrationOutcome | undefined;
    if (outcome !== "maintain" && outcome !== "revise") throw invalid("outcome", "请选择仲裁结论：维持原决定或变更决定");
    let revised: { outcome: DecisionOutcome; action: DecisionAction } | null = null;
    if (outcome === "revise") {
      revised = decisionOf({ outcome: input.revisedOutcome, action: input.revisedAction });
      if (c.decision_action === "disqualify" && revised.action !== "disqualify") {
        throw badRequest("原决定已取消作品资格；作品资格不能通过仲裁恢复，如决定有误请联系超级管理员另行处理");
      }
      if (c.decision_action === "rejudge" && revised.action !== "rejudge") {
        throw badRequest("原决定的重新评审已分配评委，不能通过仲裁撤销；可维持原决定，或在重新评审后另行处理");
      }
      if (revised.action === "change_award" || (revised.action !== c.decision_action && revised.action !== "no_change"))
        await checkAction(trx, c, { action: revised.action, awardLevelId: input.awardLevelId, judgeIds: input.judgeIds });
    }
    return {
      set: {
        arb_outcome: outcome,
        arb_revised_outcome: revised?.outcome ?? null,
        arb_revised_action: revised?.action ?? null,
        arb_award_level_id: revised?.action === "change_award" ? (input.awardLevelId ?? null) : null,
        arb_text: text!.html,
        arbitrator_id: caller.user!.id,
        arb_at: now.toISOString(),
      },
    };
  },
  confirm: async ({ trx, c, caller, now }) => {
    let effect: string | null = null;
    let rejudge: string | null = null;
    // A revised decision takes effect now: the decision's award change is taken back, then the
    // new action applied (a disqualification or re-judge the decision made is never repeated).
    if (c.arb_outcome === "revise" && c.arb_revised_action) {
      const actx: Parameters<typeof applyAction>[0] = {
        trx,
        user: caller.user!,
        now,
        complaint: c,
        reason: `仲裁变更决定：${plainText(c.arb_text ?? "", 500)}`,
      };
      const revised = c.arb_revised_action as DecisionAction;
      const parts = [await undoDecision(actx)];
      if (revised !== "no_change" && !(revised === c.decision_action && revised !== "change_award"))
        parts.push(await applyAction(actx, { action: revised, awardLevelId: c.arb_award_level_id }));
      effect = parts.filter(Boolean).join("；") || null;
      if (actx.rejudgeJudges) rejudge = JSON.stringify(actx.rejudgeJudges);
    }
    return {
      set: {
        arb_confirmed_at: now.toISOString(),
        arb_confirmed_by: caller.user!.id,
        arb_effect: effect,
        ...(rejudge ? { rejudge_judges: rejudge } : {}),
      },
      effect,
    };
  },
  return: async () => ({
    set: {
      arb_outcome: null,
      arb_revised_outcome: null,
      arb_revised_action: null,
      arb_award_level_id: null,
      arb_text: null,
      arb_at: null,
    },
  }),
};

function decisionOf(input: { outcome?: unknown; action?: unknown }): { outcome: DecisionOutcome; action: DecisionAction } {
  const outcome = input.outcome as DecisionOutcome;
  const action = input.action as DecisionAction;
  if (!DECISION_OUTCOME_NAMES[outcome]) throw invalid("outcome", "请选择结论：成立、部分成立或不成立");
  if (!DECISION_ACTION_NAMES[action]) throw invalid("action", "请选择处理方式");
  if (!actionAllowed(outcome, action)) throw invalid("action", "申诉/投诉不成立时只能选择“不作变更”");
  return { outcome, action };
}

/** Steps whose text is the form's main text (at least a few characters). */
const TEXT_MIN: Partial<Record<ComplaintAction, number>> = { opinion: 5, decide: 5, arbitrate: 5, request_arbitration: 5 };

/** The actor a step is taken as: the first of the step's actors the caller is. */
export function stepActor(action: ComplaintAction, actors: Set<ComplaintActor>): ComplaintActor | null {
  return COMPLAINT_TRANSITIONS[action].by.find((a) => actors.has(a)) ?? null;
}

export async function takeStep(
  deps: StepDeps,
  caller: Caller,
  id: number,
  action: ComplaintAction,
  input: StepInput,
): Promise<StepOutcome> {
  const step = COMPLAINT_TRANSITIONS[action];
  const mails: Mail[] = [];
  const out = await deps.db.transaction().execute(async (trx) => {
    const c = await findComplaint(trx, id);
    if (!c) throw notFound(NOT_FOUND);
    const actors = await actorsOf(trx, caller, c);
    if (!actors.size) throw notFound(NOT_FOUND);
    const actor = stepActor(action, actors);
    if (!actor) throw forbidden(`您不能对该${complaintKind(c.type)}执行「${step.name}」`);
    const from = c.state as ComplaintState;
    if (!step.from.includes(from))
      throw badRequest(
        `${complaintKind(c.type)}当前状态为「${COMPLAINT_STATE_NAMES[from]}」，不能「${step.name}」；本次未做任何更改`,
      );
    if (input.version !== undefined && input.version !== c.version)
      throw conflict(
        `${complaintKind(c.type)}已被他人处理（当前版本 ${c.version}，您提交的是版本 ${input.version}），请刷新后重试；本次未做任何更改`,
      );
    const text =
      step.reason || input.reason ? cleanText(input.reason, "reason", `「${step.name}」的说明`, TEXT_MIN[action] ?? 1) : null;
    const now = new Date();
    const r = await STEPS[action]({ trx, c, caller, actor, now, text, input });
    const to = step.to;
    const settings = await settingsOf(trx, c.contest_id);
    const due = to === "decided" ? (r.set?.arbitration_due_at as string) : dueAt(to, now, settings);
    const upd = await trx
      .updateTable("complaint")
      .set({
        ...r.set,
        state: to,
        version: c.version + 1,
        updated_at: now.toISOString(),
        state_at: now.toISOString(),
        due_at: due,
        reminded_at: null,
        ...(FINAL_STATES.includes(to) ? { open_key: null } : {}),
      })
      .where("id", "=", c.id)
      .where("version", "=", c.version)
      .executeTakeFirst();
    if (Number(upd.numUpdatedRows) !== 1)
      throw conflict(`${complaintKind(c.type)}已被他人同时处理，请刷新后重试；本次未做任何更改`);
    const hidden = actor === "filer" || actor === "party";
    await trx
      .insertInto("complaint_history")
      .values({
        complaint_id: c.id,
        at: now.toISOString(),
        action,
        from_state: from,
        to_state: to,
        actor_id: caller.user?.id ?? null,
        actor_kind: actor,
        text: [text?.html, r.effect].filter(Boolean).join("<p>处理结果：") || null,
      })
      .execute();
    await appendLog(trx, {
      workId: c.work_id,
      userId: hidden ? null : (caller.user?.id ?? null),
      action: `complaint_${action}`,
      changes: { complaint: [null, c.id], complaintState: [from, to], ...(r.effect ? { effect: [null, r.effect] } : {}) },
    });
    const after = (await findComplaint(trx, c.id))!;
    mails.push(
      ...(await stepMails(trx, deps.publicUrl, action, after)),
      ...(action === "decide" || action === "confirm" ? await decisionMails(trx, deps.publicUrl, after, action) : []),
    );
    return { id: c.id, type: c.type as ComplaintType, state: to, version: c.version + 1, effect: r.effect ?? null };
  });
  await sendAll(deps, mails);
  return out;
}

/**
 * A re-judge's new scores replace the old ones (complaint admins and root, once every new
 * judge has submitted). Not a state step: the complaint keeps its state; the history and
 * the work log record it, and the complaint's version moves on.
 */
export async function applyRejudgeResult(deps: StepDeps, caller: Caller, id: number, version?: number): Promise<StepOutcome> {
  return deps.db.transaction().execute(async (trx) => {
    const c = await findComplaint(trx, id);
    if (!c) throw notFound(NOT_FOUND);
    const actors = await actorsOf(trx, caller, c);
    if (!actors.size) throw notFound(NOT_FOUND);
    if (!actors.has("admin") && !actors.has("root")) throw forbidden("只有申诉管理员和超级管理员可以用重新评审的成绩替换原成绩");
    if (version !== undefined && version !== c.version)
      throw conflict(
        `${complaintKind(c.type)}已被他人处理（当前版本 ${c.version}，您提交的是版本 ${version}），请刷新后重试；本次未做任何更改`,
      );
    const now = new Date();
    const effect = await applyRejudge({
      trx,
      user: caller.user!,
      now,
      complaint: c,
      reason: plainText(c.decision_text ?? "", 300),
    });
    const upd = await trx
      .updateTable("complaint")
      .set({ rejudge_applied_at: now.toISOString(), version: c.version + 1, updated_at: now.toISOString() })
      .where("id", "=", c.id)
      .where("version", "=", c.version)
      .executeTakeFirst();
    if (Number(upd.numUpdatedRows) !== 1)
      throw conflict(`${complaintKind(c.type)}已被他人同时处理，请刷新后重试；本次未做任何更改`);
    await trx
      .insertInto("complaint_history")
      .values({
        complaint_id: c.id,
        at: now.toISOString(),
        action: "rejudge_result",
        from_state: c.state,
        to_state: c.state,
        actor_id: caller.user!.id,
        actor_kind: actors.has("admin") ? "admin" : "root",
        text: effect,
      })
      .execute();
    await appendLog(trx, {
      workId: c.work_id,
      userId: caller.user!.id,
      action: "complaint_rejudge_result",
      changes: { complaint: [null, c.id], effect: [null, effect] },
    });
    return { id: c.id, type: c.type as ComplaintType, state: c.state as ComplaintState, version: c.version + 1, effect };
  });
}

export async function sendAll(deps: Pick<StepDeps, "mailer" | "log">, mails: Mail[]) {
  for (const m of mails) {
    try {
      await deps.mailer.send(m);
    } catch (e) {
      deps.log?.(`申诉通知邮件发送失败（${m.to}）：${(e as Error).message}`);
    }
  }
}

export const stepInfo = (action: ComplaintAction, o: StepOutcome) =>
  `已${COMPLAINT_TRANSITIONS[action].name}，${complaintKind(o.type)}当前状态为「${COMPLAINT_STATE_NAMES[o.state]}」${o.effect ? `；${o.effect}` : ""}`;
