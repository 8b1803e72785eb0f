/**
 * The catalogue of format review (形式审查) reasons: why a work is returned for correction
 * or found not to meet the requirements. A return names one or more codes, a text for the
 * authors and a deadline; a rejection names a text (and may name codes). Both sides read it.
 */
export const FORMAT_REASONS = [
  { code: "missing_material", name: "材料缺失", hint: "缺少类别要求的提交材料（如设计文档、演示视频、源码）" },
  { code: "video_unplayable", name: "视频无法播放", hint: "演示视频无法打开、格式不符或内容不完整" },
  { code: "info_incomplete", name: "作品信息不完整", hint: "作品简介、设计思路等必填信息缺失或过于简略" },
  { code: "identity_revealed", name: "含有作者或学校信息", hint: "作品或材料中出现作者姓名、学校名称、校徽等可识别信息" },
  { code: "wrong_category", name: "参赛类别不符", hint: "作品内容与所报大类、小类或组别不符" },
  { code: "other", name: "其他", hint: "其他问题，请在说明中写明" },
] as const;

export type FormatReasonCode = (typeof FORMAT_REASONS)[number]["code"];
export const FORMAT_REASON_CODES = FORMAT_REASONS.map((r) => r.code) as FormatReasonCode[];

export const FORMAT_REASON_NAMES = Object.fromEntries(FORMAT_REASONS.map((r) => [r.code, r.name])) as Record<
  FormatReasonCode,
  string
>;

export const isFormatReasonCode = (s: unknown): s is FormatReasonCode =>
  typeof s === "string" && (FORMAT_REASON_CODES as string[]).includes(s);

/** "材料缺失、其他"; unknown codes are shown as they are. */
export const formatReasonNames = (codes: readonly string[]) =>
  codes.map((c) => FORMAT_REASON_NAMES[c as FormatReasonCode] ?? c).join("、");

/** The shortest and longest time a reviewer may give the authors to correct a work. */
export const CORRECTION_DEADLINE = { minHours: 1, maxDays: 60 } as const;
