/**
 * The rules of format review outcomes as small named checks, used by the one transition
 * function (service/transition.ts): reason codes from the catalogue, the correction
 * deadline of a return, resubmission only before it, rejection of a returned work only
 * after it, and no undoing a decision once judges are assigned. Each check returns the
 * refusal (a Chinese sentence with its field) or null.
 */
import { CORRECTION_DEADLINE, FORMAT_REASON_CODES, isFormatReasonCode } from "../../shared/review/reasons";
import { invalid, type DomainError } from "../../shared/errors";
import type { Actor, WorkAction } from "../../shared/work/states";
import { beijingTime } from "../../shared/time";
import type { Handle, WorkRow } from "./repository";

/** What a format review outcome carries besides the reason text. */
export interface FormatInput {
  reasonCodes?: string[];
  /** ISO time: until when the authors may correct and resubmit (returns only) */
  deadline?: string;
}

export interface FormatDecision {
  codes: string[] | null;
  deadline: string | null;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The reason codes: all from the catalogue, each once; a return needs at least one. */
export function checkReasonCodes(action: WorkAction, codes: readonly string[] | undefined): DomainError | string[] | null {
  const list = [...new Set(codes ?? [])];
  const unknown = list.filter((c) => !isFormatReasonCode(c));
  if (unknown.length)
    return invalid("reasonCodes", `问题类型「${unknown.join("、")}」不在目录中，可选：${FORMAT_REASON_CODES.join("、")}`);
  if (action === "format_return" && !list.length) return invalid("reasonCodes", "请至少选择一个问题类型");
  return list.length ? list : null;
}

/** The correction deadline of a return: required, at least an hour and at most 60 days away. */
export function checkDeadline(deadline: string | undefined, now: Date): DomainError | string {
  if (!deadline?.trim()) return invalid("deadline", "请设置修改截止时间");
  const at = Date.parse(deadline);
  if (Number.isNaN(at)) return invalid("deadline", "修改截止时间格式不正确");
  if (at < now.getTime() + CORRECTION_DEADLINE.minHours * HOUR)
    return invalid("deadline", `修改截止时间至少应在 ${CORRECTION_DEADLINE.minHours} 小时之后`);
  if (at > now.getTime() + CORRECTION_DEADLINE.maxDays * DAY)
    return invalid("deadline", `修改截止时间不能晚于 ${CORRECTION_DEADLINE.maxDays} 天之后`);
  return new Date(at).toISOString();
}

export const deadlinePassed = (w: Pick<WorkRow, "format_deadline">, now: Date) =>
  w.format_deadline !== null && Date.parse(w.format_deadline) <= now.getTime();

/** The authors resubmit only before the deadline. */
export const resubmitRefusal = (w: WorkRow, now: Date): string | null =>
  deadlinePassed(w, now) ? `形式审查的修改截止时间（${beijingTime(w.format_deadline!)}）已过，不能再重新提交` : null;

/** A returned work is rejected only once its deadline has passed (root is not bound). */
export const rejectReturnedRefusal = (w: WorkRow, actor: Actor, now: Date): string | null =>
  w.status === "format_returned" && actor !== "root" && !deadlinePassed(w, now)
    ? `作品已退回修改，修改截止时间为 ${w.format_deadline ? beijingTime(w.format_deadline) : "（未设置）"}，截止前不能判定不符合要求`
    : null;

/** A decision cannot be undone once judges are assigned to the work (in `contestId` when given: a national entry's). */
export async function reopenRefusal(db: Handle, w: WorkRow, contestId?: number): Promise<string | null> {
  let q = db
    .selectFrom("judge_assignment")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("work_id", "=", w.id);
  if (contestId !== undefined) q = q.where("contest_id", "=", contestId);
  const n = await q.executeTakeFirstOrThrow();
  return Number(n.n) ? `作品已分配给 ${Number(n.n)} 位评委，请先移除评委分配再撤销形式审查结论` : null;
}

/** The format review columns an outcome sets. */
export function formatEffects(action: WorkAction, reason: string | null, d: FormatDecision) {
  switch (action) {
    case "format_pass":
    case "format_reopen":
      return { return_reason: null, format_reasons: null, format_deadline: null };
    case "format_return":
      return { return_reason: reason, format_reasons: JSON.stringify(d.codes ?? []), format_deadline: d.deadline };
    case "format_reject":
      return { return_reason: reason, format_reasons: d.codes ? JSON.stringify(d.codes) : null, format_deadline: null };
    default:
      return {};
  }
}
