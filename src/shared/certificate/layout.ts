/**
 * Certificate layout, shared by the server's PDF renderer and the browser's preview and print
 * view, so both place every field at the same spot: A4 pages in millimetres, the fields a
 * template can place, the built-in default template per award kind (used until a contest
 * saves its own), the text of each field for a certificate, and the check of a template
 * (every field inside the page).
 *
 * Coordinates: millimetres from the page's top-left corner. A text field is a box `width`
 * wide whose first line's top is at `y`; its text is aligned in the box and wraps onto at
 * most `maxLines` lines (then shrinks). Font size in points (1 pt = 25.4/72 mm).
 */

export const AWARD_KINDS = ["work", "teacher", "school"] as const;
export type AwardKind = (typeof AWARD_KINDS)[number];
export const AWARD_KIND_CERT_NAMES: Record<AwardKind, string> = {
  work: "作品获奖证书",
  teacher: "优秀指导教师证书",
  school: "优秀组织奖证书",
};

export const ORIENTATIONS = ["landscape", "portrait"] as const;
export type Orientation = (typeof ORIENTATIONS)[number];
export const ORIENTATION_NAMES: Record<Orientation, string> = { landscape: "A4 横向", portrait: "A4 纵向" };

/** A4 in millimetres. */
export const PAGE_MM: Record<Orientation, { width: number; height: number }> = {
  landscape: { width: 297, height: 210 },
  portrait: { width: 210, height: 297 },
};
export const PT_MM = 25.4 / 72;
/** Line spacing of text fields, × the font size (CSS line-height). */
export const LINE_HEIGHT = 1.25;
export const MM_PT = 72 / 25.4;

export const TEXT_FIELDS = [
  "holderName",
  "schoolName",
  "workTitle",
  "categoryName",
  "awardName",
  "contestName",
  "contestDate",
  "number",
  "title",
  "body",
] as const;
export type TextFieldKey = (typeof TEXT_FIELDS)[number];
export const FIELD_NAMES: Record<TextFieldKey | "qr", string> = {
  holderName: "获奖者姓名",
  schoolName: "学校",
  workTitle: "作品名称",
  categoryName: "作品类别",
  awardName: "奖项",
  contestName: "竞赛名称",
  contestDate: "颁发日期",
  number: "证书编号",
  title: "标题",
  body: "正文",
  qr: "核验二维码",
};

export const ALIGNS = ["left", "center", "right"] as const;
export type Align = (typeof ALIGNS)[number];

export interface TextField {
  key: TextFieldKey;
  x: number;
  y: number;
  width: number;
  /** points */
  fontSize: number;
  align: Align;
  bold?: boolean;
  /** 1–4; longer text shrinks to fit */
  maxLines?: number;
  /** "#rrggbb" */
  color?: string;
  /** for "title" and "body": fixed text with placeholders {holderName} {awardName} … */
  text?: string;
}
export interface QrField {
  key: "qr";
  x: number;
  y: number;
  /** side length, mm */
  size: number;
}
export type TemplateField = TextField | QrField;

export interface TemplateLayout {
  orientation: Orientation;
  /** sha256 of the uploaded background image (blob store), or null for a plain page */
  backgroundSha256: string | null;
  fields: TemplateField[];
}

/** What a certificate prints (the signed facts plus the school, category and code). */
export interface PrintFacts {
  number: string;
  version: number;
  holderName: string;
  schoolName: string;
  workTitle: string | null;
  categoryName: string | null;
  awardName: string;
  contestName: string;
  contestDate: string;
}

/** The sample shown in the template preview. */
export const SAMPLE_FACTS: PrintFacts = {
  number: "2026-ZJ-1-000123",
  version: 1,
  holderName: "欧阳䶮𠮷",
  schoolName: "浙江大学",
  workTitle: "基于深度学习的古籍文字识别系统",
  categoryName: "人工智能应用",
  awardName: "一等奖",
  contestName: "2026 年（第 19 届）中国大学生计算机设计大赛浙江省级赛",
  contestDate: "2026-07-20",
};

/** "2026-07-20" → "2026 年 7 月 20 日" */
export function chineseDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[1]} 年 ${Number(m[2])} 月 ${Number(m[3])} 日` : iso;
}

const fill = (text: string, f: PrintFacts) =>
  text.replace(/\{(\w+)\}/g, (all, k: string) => {
    if (k === "contestDate") return chineseDate(f.contestDate);
    const v = (f as unknown as Record<string, unknown>)[k];
    return typeof v === "string" || typeof v === "number" ? String(v) : v === null ? "" : all;
  });

/** The text a field prints for a certificate ("" when the certificate has no such fact). */
export function fieldText(field: TextField, f: PrintFacts): string {
  switch (field.key) {
    case "title":
    case "body":
      return fill(field.text ?? "", f);
    case "contestDate":
      return chineseDate(f.contestDate);
    case "number":
      return f.version > 1 ? `证书编号：${f.number}（第 ${f.version} 版）` : `证书编号：${f.number}`;
    case "workTitle":
      return f.workTitle ? `《${f.workTitle}》` : "";
    default:
      return (f[field.key] as string | null) ?? "";
  }
}

/** The address a certificate's QR code opens. */
export function verifyUrl(origin: string, number: string, code: string): string {
  return `${origin.replace(/\/$/, "")}/verify-cert?number=${encodeURIComponent(number)}&code=${encodeURIComponent(code)}`;
}

const text = (
  key: TextFieldKey,
  x: number,
  y: number,
  width: number,
  fontSize: number,
  extra: Partial<TextField> = {},
): TextField => ({ key, x, y, width, fontSize, align: "center", ...extra });

/** The built-in template of an award kind and orientation (a plain page with a frame-free layout). */
export function defaultLayout(kind: AwardKind, orientation: Orientation = "landscape"): TemplateLayout {
  const { width: W, height: H } = PAGE_MM[orientation];
  const m = 25;
  const w = W - 2 * m;
  const land = orientation === "landscape";
  const top = land ? 28 : 45;
  const body: Record<AwardKind, string> = {
    work: "{schoolName} {holderName} 同学的作品",
    teacher: "{schoolName} {holderName} 老师",
    school: "{holderName}",
  };
  const line2: Record<AwardKind, TextField> = {
    work: text("workTitle", m, top + 62, w, 18, { maxLines: 2 }),
    teacher: text("body", m, top + 62, w, 16, { text: "在{contestName}中指导学生成绩优异，特发此证。", maxLines: 2 }),
    school: text("body", m, top + 62, w, 16, { text: "在{contestName}中组织工作成绩突出，特发此证。", maxLines: 2 }),
  };
  const fields: TemplateField[] = [
    text("title", m, top, w, 36, { bold: true, text: "荣誉证书", color: "#a8071a" }),
    text("body", m, top + 30, w, 18, { text: body[kind], maxLines: 2 }),
    line2[kind],
    ...(kind === "work"
      ? [text("body", m, top + 84, w, 16, { text: "在{contestName}（{categoryName}）中荣获", maxLines: 2 })]
      : []),
    text("awardName", m, top + (kind === "work" ? 104 : 90), w, 30, { bold: true, color: "#a8071a" }),
    text("contestName", W - m - 120, H - 45, 120, 12, { align: "right", maxLines: 2 }),
    text("contestDate", W - m - 120, H - 32, 120, 12, { align: "right" }),
    text("number", m + 30, H - 24, 120, 9, { align: "left" }),
    { key: "qr", x: m, y: H - 45, size: 26 },
  ];
  return { orientation, backgroundSha256: null, fields };
}

export const FONT_SIZE = { min: 6, max: 96 } as const;

/** The problems of a template (empty when it can be saved): fields off the page, sizes out of range. */
export function checkLayout(t: TemplateLayout): { field: number; message: string }[] {
  const { width: W, height: H } = PAGE_MM[t.orientation];
  const out: { field: number; message: string }[] = [];
  const mm = (n: number) => `${Math.round(n * 10) / 10} mm`;
  t.fields.forEach((f, i) => {
    const name = FIELD_NAMES[f.key] ?? f.key;
    if (f.key === "qr") {
      if (f.size < 15) out.push({ field: i, message: `「${name}」边长至少 15 mm，否则手机难以扫描` });
      if (f.x < 0 || f.y < 0 || f.x + f.size > W || f.y + f.size > H)
        out.push({
          field: i,
          message: `「${name}」超出页面：页面为 ${W} × ${H} mm，它占 ${mm(f.x)}–${mm(f.x + f.size)} × ${mm(f.y)}–${mm(f.y + f.size)}`,
        });
      return;
    }
    if (f.fontSize < FONT_SIZE.min || f.fontSize > FONT_SIZE.max)
      out.push({ field: i, message: `「${name}」字号应在 ${FONT_SIZE.min}–${FONT_SIZE.max} 磅之间` });
    const bottom = f.y + f.fontSize * PT_MM * LINE_HEIGHT * (f.maxLines ?? 1);
    if (f.width <= 0 || f.x < 0 || f.y < 0 || f.x + f.width > W || bottom > H) {
      out.push({
        field: i,
        message: `「${name}」超出页面：页面为 ${W} × ${H} mm，它占 ${mm(f.x)}–${mm(f.x + f.width)} × ${mm(f.y)}–${mm(bottom)}`,
      });
    }
    if ((f.key === "title" || f.key === "body") && !f.text?.trim()) out.push({ field: i, message: `「${name}」需要填写文字` });
  });
  if (
    !t.fields.some((f) => f.key === "holderName" || ((f.key === "body" || f.key === "title") && f.text?.includes("{holderName}")))
  )
    out.push({ field: -1, message: "模板必须包含获奖者姓名" });
  if (!t.fields.some((f) => f.key === "number")) out.push({ field: -1, message: "模板必须包含证书编号" });
  return out;
}
