/**
 * The small rules of invitations: the link's code (24 random bytes, base64url; only its
 * SHA-256 is stored), the answer-by date (end of that day, Beijing time), the computed state
 * (a sent invitation past its answer-by date is expired), the masked address shown to the
 * holder of a link, and the categories an invitation names.
 */
import { invalid } from "../../shared/errors";
import { MAX_ANSWER_DAYS, type InvitationState } from "../../shared/judge-invite/schema";
import type { JudgeInvitationTable } from "../db/schema";
import { newLinkCode, sha256 } from "../common/crypto";

/** 192 bits: more than the 128 the link needs. */
export const newCode = newLinkCode;
export const codeHash = (code: string) => sha256(code);

/** "2026-06-30" → the last millisecond of that day in Beijing time, as an ISO string; refused when past or too far ahead. */
export function answerByIso(date: string, now = new Date()): string {
  const t = Date.parse(`${date}T23:59:59.999+08:00`);
  if (!Number.isFinite(t) || new Date(t + 8 * 3600_000).toISOString().slice(0, 10) !== date)
    throw invalid("answerBy", "答复截止日期不是有效的日期");
  if (t <= now.getTime()) throw invalid("answerBy", "答复截止日期须晚于今天");
  if (t > now.getTime() + (MAX_ANSWER_DAYS + 1) * 86_400_000)
    throw invalid("answerBy", `答复截止日期最多在 ${MAX_ANSWER_DAYS} 天之后`);
  return new Date(t).toISOString();
}

export const isExpired = (row: Pick<JudgeInvitationTable, "status" | "answer_by">, now = Date.now()) =>
  row.status === "sent" && Date.parse(row.answer_by) < now;

export const stateOf = (row: Pick<JudgeInvitationTable, "status" | "answer_by">, now = Date.now()): InvitationState =>
  isExpired(row, now) ? "expired" : row.status;

export const categoryIdsOf = (json: string): number[] => {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.map(Number).filter((n) => Number.isInteger(n) && n > 0) : [];
  } catch {
    return [];
  }
};
