/**
 * Pure helpers of the complaint screens (tested in tests/client/complaint-logic.test.ts):
 * which works offer 申诉, the evidence checks before an upload, state colours, the text
 * limits the server applies (counted here on plain characters) and due-time words.
 */
import type { ComplaintState, ComplaintType } from "../../shared/complaint/states";
import {
  EVIDENCE_EXTENSIONS,
  EVIDENCE_MAX_BYTES,
  EVIDENCE_MAX_FILES,
  FINAL_STATES,
  TEXT_MAX,
  TEXT_MIN,
} from "../../shared/complaint/states";
import type { WorkState } from "../../shared/work/states";
import { fmtSize } from "../format";

/** Works with an outcome to appeal: a format-review rejection, a disqualification, or past format review (score, award). */
export const APPEALABLE_WORK_STATES: readonly WorkState[] = ["format_passed", "format_rejected", "disqualified"];
export const canAppealWork = (status: WorkState) => APPEALABLE_WORK_STATES.includes(status);

/** Where a work's 申诉 is filed. */
export const appealPath = (workId: number) => `/complaint-view/complaint?type=appeal&workId=${workId}`;

export interface EvidenceLimits {
  extensions: readonly string[];
  maxBytes: number;
  maxFiles: number;
}
export const DEFAULT_LIMITS: EvidenceLimits = {
  extensions: EVIDENCE_EXTENSIONS,
  maxBytes: EVIDENCE_MAX_BYTES,
  maxFiles: EVIDENCE_MAX_FILES,
};

/** The hint under the upload button. */
export const evidenceHint = (l: EvidenceLimits) =>
  `支持 ${l.extensions.join("、")}，单个文件不超过 ${fmtSize(l.maxBytes)}，最多 ${l.maxFiles} 个`;

/** Why a file may not be uploaded, or null when it may. */
export function evidenceProblem(file: { name: string; size: number }, already: number, l: EvidenceLimits): string | null {
  if (already >= l.maxFiles) return `最多上传 ${l.maxFiles} 个证据文件`;
  const dot = file.name.lastIndexOf(".");
  const ext = dot >= 0 ? file.name.slice(dot).toLowerCase() : "";
  if (!l.extensions.includes(ext)) return `「${file.name}」的类型不支持，只能上传 ${l.extensions.join("、")} 文件`;
  if (file.size <= 0) return `「${file.name}」是空文件`;
  if (file.size > l.maxBytes) return `「${file.name}」超过 ${fmtSize(l.maxBytes)}`;
  return null;
}

/** Plain characters of a text (the server counts after sanitising). */
export const plainLength = (text: string) => text.replace(/<[^>]*>/g, "").replace(/\s+/g, "").length;
export const textProblem = (text: string | undefined, what: string) => {
  const n = plainLength(text ?? "");
  if (n < TEXT_MIN) return `${what}至少 ${TEXT_MIN} 个字`;
  if (n > TEXT_MAX) return `${what}不能超过 ${TEXT_MAX} 个字`;
  return null;
};

export const STATE_COLORS: Record<ComplaintState, string> = {
  submitted: "blue",
  accepted: "cyan",
  refused: "default",
  reviewed: "geekblue",
  decided: "purple",
  arbitration_requested: "orange",
  arbitrated: "gold",
  closed: "green",
  withdrawn: "default",
};
export const isFinal = (s: ComplaintState) => FINAL_STATES.includes(s);

export const TYPE_COLORS: Record<ComplaintType, string> = { appeal: "magenta", complaint: "volcano" };

/** "剩余 2 天 3 小时" / "已超期 5 小时" for a due time. */
export function dueWords(dueAt: string | null, now: number = Date.now()): string | null {
  if (!dueAt) return null;
  const ms = new Date(dueAt).getTime() - now;
  const abs = Math.abs(ms);
  const days = Math.floor(abs / 86_400_000);
  const hours = Math.floor((abs % 86_400_000) / 3_600_000);
  const span = days > 0 ? `${days} 天${hours ? ` ${hours} 小时` : ""}` : hours > 0 ? `${hours} 小时` : "不到 1 小时";
  return ms >= 0 ? `剩余 ${span}` : `已超期 ${span}`;
}
