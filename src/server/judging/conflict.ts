/**
 * Conflict of interest (回避) as a value module: pure predicates over plain facts, plus
 * parse/format helpers for the CSV import of declared conflicts. No database, no clock.
 *
 * A judge never gets
 * - a work of the judge's own school                       → "same_school"
 * - a work the judge advises (or is listed as an author of) → "advisor"
 * - a work or a whole school the judge declared, or a work authored by a student the judge
 *   declared (target "u:<user id>": advised students, relatives)  → "declared"
 * - with `avoidProvince` (national contest option), a work of the judge's own province
 *                                                           → "same_province"
 *
 * The rules split in two halves so that the assigner can scale (see assign/min-cost-flow.ts):
 * - `schoolLevelConflicts` depends only on the work's school and province: all works of one
 *   school are interchangeable with respect to it (same_school, same_province, a declared school);
 * - `personalConflicts` depends on the individual work (advisor/author, a declared work, a
 *   declared student among its authors); these are rare exceptions.
 * `conflictsFor` is their union and is the rule everything else is checked against.
 */

export const CONFLICT_REASONS = ["same_school", "advisor", "declared", "same_province"] as const;
export type ConflictReason = (typeof CONFLICT_REASONS)[number];

/** Chinese names, as shown in the check report and the CSV export. */
export const CONFLICT_REASON_NAMES: Readonly<Record<ConflictReason, string>> = {
  same_school: "同校",
  advisor: "指导或参与的作品",
  declared: "申报回避",
  same_province: "同省",
};

export interface DeclaredConflicts {
  /** Works the judge declared a conflict with (10-digit work ids). */
  workIds?: readonly number[];
  /** Schools the judge declared a conflict with (e.g. a former employer). */
  schoolIds?: readonly number[];
  /** Students (user ids) the judge declared a conflict with: every work they author is avoided. */
  userIds?: readonly number[];
}

export interface JudgeFacts {
  /** The judge's user id. */
  id: number;
  /** null for a judge without a school (e.g. an expert from industry): never same_school. */
  schoolId: number | null;
  province: string | null;
  declared?: DeclaredConflicts;
}

export interface WorkFacts {
  id: number;
  schoolId: number;
  province: string | null;
  /** Teachers' user ids. */
  advisorIds: readonly number[];
  /** Authors' user ids (a judge who is an author is treated like an advisor). */
  authorIds?: readonly number[];
}

export interface ConflictOptions {
  /** National contest option: a judge gets no work of the own province. */
  avoidProvince: boolean;
}

/** The school-level half: depends only on the work's school and province. */
export function schoolLevelConflicts(
  judge: JudgeFacts,
  school: { schoolId: number; province: string | null },
  opts: ConflictOptions,
): ConflictReason[] {
  const out: ConflictReason[] = [];
  if (judge.schoolId !== null && judge.schoolId === school.schoolId) out.push("same_school");
  if (judge.declared?.schoolIds?.includes(school.schoolId)) out.push("declared");
  if (opts.avoidProvince && judge.province !== null && judge.province === school.province) out.push("same_province");
  return out;
}

/** The per-work half: advisor/author of the work, a declared work, or a declared student among its authors. */
export function personalConflicts(judge: JudgeFacts, work: WorkFacts): ConflictReason[] {
  const out: ConflictReason[] = [];
  if (work.advisorIds.includes(judge.id) || (work.authorIds?.includes(judge.id) ?? false)) out.push("advisor");
  const students = judge.declared?.userIds;
  if (
    judge.declared?.workIds?.includes(work.id) ||
    (!!students?.length && (work.authorIds ?? []).some((a) => students.includes(a)))
  )
    out.push("declared");
  return out;
}

/** Every reason why `judge` must not judge `work`, in the order of CONFLICT_REASONS, each once. */
export function conflictsFor(judge: JudgeFacts, work: WorkFacts, opts: ConflictOptions): ConflictReason[] {
  const found = new Set<ConflictReason>([...schoolLevelConflicts(judge, work, opts), ...personalConflicts(judge, work)]);
  return CONFLICT_REASONS.filter((r) => found.has(r));
}

export const isConflicted = (reasons: readonly ConflictReason[]): boolean => reasons.length > 0;

/** "同校、同省"; "" for no reason. */
export const formatConflictReasons = (reasons: readonly ConflictReason[]): string =>
  reasons.map((r) => CONFLICT_REASON_NAMES[r]).join("、");

/** A reason from its code or its Chinese name (trimmed); null if it is neither. */
export function parseConflictReason(text: string): ConflictReason | null {
  const t = text.trim();
  for (const r of CONFLICT_REASONS) if (t === r || t === CONFLICT_REASON_NAMES[r]) return r;
  return null;
}

/** "同校、申报回避" → ["same_school", "declared"]; unknown parts come back in `unknown`. */
export function parseConflictReasons(text: string): { reasons: ConflictReason[]; unknown: string[] } {
  const reasons = new Set<ConflictReason>();
  const unknown: string[] = [];
  for (const part of text.split(/[、,，;；]/)) {
    if (!part.trim()) continue;
    const r = parseConflictReason(part);
    if (r) reasons.add(r);
    else unknown.push(part.trim());
  }
  return { reasons: CONFLICT_REASONS.filter((r) => reasons.has(r)), unknown };
}

// ---------------------------------------------------------------------------------------------
// CSV import/export of declared conflicts.
//
//   评委,作品编号,学校代码,说明
//   zhangsan,2026000123,,曾指导该团队
//   lisi,,10001,原工作单位
//
// One conflict per row: a judge (username or user id, as the service resolves it) and exactly
// one target, a work (10-digit id) or a school (its code). The parser is pure; resolving names
// and codes to ids is `declaredByJudge` with lookups the service passes in.
// ---------------------------------------------------------------------------------------------

export type DeclaredTarget = { kind: "work"; workId: number } | { kind: "school"; schoolCode: string };

export interface DeclaredConflictRow {
  /** 1-based line number in the file (the header is line 1). */
  line: number;
  judge: string;
  target: DeclaredTarget;
  note: string;
}

export interface CsvError {
  line: number;
  message: string;
}

export const DECLARED_CSV_HEADER = ["评委", "作品编号", "学校代码", "说明"] as const;

const COLUMN_ALIASES: Record<string, (typeof DECLARED_CSV_HEADER)[number]> = {
  评委: "评委",
  评委用户名: "评委",
  用户名: "评委",
  judge: "评委",
  作品编号: "作品编号",
  作品: "作品编号",
  workid: "作品编号",
  学校代码: "学校代码",
  学校: "学校代码",
  schoolcode: "学校代码",
  说明: "说明",
  备注: "说明",
  原因: "说明",
  note: "说明",
};

const WORK_ID = /^\d{10}$/;
const SCHOOL_CODE = /^[0-9A-Za-z_-]{1,32}$/;

/** RFC 4180 records: quoted fields, doubled quotes, CRLF or LF, optional UTF-8 BOM. */
export function parseCsvRecords(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      record.push(field);
      records.push(record);
      record = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** Parses the declared-conflict CSV. Blank lines are skipped; every bad row gives an error with its line. */
export function parseDeclaredConflictsCsv(text: string): { rows: DeclaredConflictRow[]; errors: CsvError[] } {
  const records = parseCsvRecords(text);
  const rows: DeclaredConflictRow[] = [];
  const errors: CsvError[] = [];
  if (records.length === 0) return { rows, errors: [{ line: 1, message: "文件为空，缺少表头" }] };
  const header = records[0].map((h) => COLUMN_ALIASES[h.trim().replace(/\s+/g, "").toLowerCase()] ?? COLUMN_ALIASES[h.trim()]);
  const col = (name: (typeof DECLARED_CSV_HEADER)[number]) => header.indexOf(name);
  const [cj, cw, cs, cn] = [col("评委"), col("作品编号"), col("学校代码"), col("说明")];
  if (cj < 0 || (cw < 0 && cs < 0)) {
    return { rows, errors: [{ line: 1, message: `表头应为：${DECLARED_CSV_HEADER.join(",")}` }] };
  }
  const seen = new Set<string>();
  for (let r = 1; r < records.length; r++) {
    const line = r + 1;
    const rec = records[r];
    if (rec.every((f) => f.trim() === "")) continue;
    const get = (c: number) => (c >= 0 ? (rec[c] ?? "").trim() : "");
    const judge = get(cj);
    const work = get(cw);
    const school = get(cs);
    if (!judge) {
      errors.push({ line, message: "缺少评委" });
      continue;
    }
    if (work && school) {
      errors.push({ line, message: "作品编号与学校代码只能填写一项" });
      continue;
    }
    if (!work && !school) {
      errors.push({ line, message: "请填写作品编号或学校代码" });
      continue;
    }
    let target: DeclaredTarget;
    if (work) {
      if (!WORK_ID.test(work)) {
        errors.push({ line, message: `作品编号“${work}”应为 10 位数字` });
        continue;
      }
      target = { kind: "work", workId: Number(work) };
    } else {
      if (!SCHOOL_CODE.test(school)) {
        errors.push({ line, message: `学校代码“${school}”格式不正确` });
        continue;
      }
      target = { kind: "school", schoolCode: school };
    }
    const key = `${judge}\u0000${target.kind === "work" ? `w${target.workId}` : `s${target.schoolCode}`}`;
    if (seen.has(key)) {
      errors.push({ line, message: "与前面的行重复" });
      continue;
    }
    seen.add(key);
    rows.push({ line, judge, target, note: get(cn) });
  }
  return { rows, errors };
}

/** The CSV text of declared conflicts (header included); parseDeclaredConflictsCsv reads it back. */
export function formatDeclaredConflictsCsv(rows: readonly Omit<DeclaredConflictRow, "line">[]): string {
  const lines = [DECLARED_CSV_HEADER.join(",")];
  for (const r of rows) {
    const work = r.target.kind === "work" ? String(r.target.workId) : "";
    const school = r.target.kind === "school" ? r.target.schoolCode : "";
    lines.push([r.judge, work, school, r.note].map(csvField).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

/**
 * Groups parsed rows into each judge's declared conflicts, resolving names and codes through
 * the lookups the service passes in. Unknown judges or schools become errors with their line.
 */
export function declaredByJudge(
  rows: readonly DeclaredConflictRow[],
  lookup: { judgeId: (judge: string) => number | undefined; schoolId: (code: string) => number | undefined },
): { declared: Map<number, { workIds: number[]; schoolIds: number[] }>; errors: CsvError[] } {
  const declared = new Map<number, { workIds: number[]; schoolIds: number[] }>();
  const errors: CsvError[] = [];
  for (const row of rows) {
    const judgeId = lookup.judgeId(row.judge);
    if (judgeId === undefined) {
      errors.push({ line: row.line, message: `找不到评委“${row.judge}”` });
      continue;
    }
    const d = declared.get(judgeId) ?? { workIds: [], schoolIds: [] };
    if (row.target.kind === "work") {
      if (!d.workIds.includes(row.target.workId)) d.workIds.push(row.target.workId);
    } else {
      const schoolId = lookup.schoolId(row.target.schoolCode);
      if (schoolId === undefined) {
        errors.push({ line: row.line, message: `找不到学校代码“${row.target.schoolCode}”` });
        continue;
      }
      if (!d.schoolIds.includes(schoolId)) d.schoolIds.push(schoolId);
    }
    declared.set(judgeId, d);
  }
  return { declared, errors };
}
