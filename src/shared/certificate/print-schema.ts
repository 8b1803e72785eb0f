/**
 * Certificate printing, templates, own downloads and teacher/school honours: the shapes of
 * the API, shared by server and browser. Layout geometry and field texts: ./layout.ts.
 * Public verification: ./schema.ts.
 *
 * Routes (every reply { error, info, data? }; "404" = a contest or certificate outside the
 * caller's scope, with the same text as a missing one):
 *
 * Printing (/admin/PrintCertification: root, every contest; /ContestAdmin/PrintAward: contest
 * admins, the contests they are contest_member "admin" of) — api.certificates:
 *   GET  /Backend/Certificate/contests                     read    contests in scope that have certificates or a published result → CertContest[]
 *   GET  /Backend/Certificate/list                         read    CertListQuery → Page<CertificateRow> (the newest version of each number)
 *   GET  /Backend/Certificate/:id/prints                   read    → PrintLogRow[] (who printed this number, when, how, reprint)
 *   POST /Backend/Certificate/print/browser                update  PrintBody → BrowserPrint (the sheets to print; logs nothing)
 *   POST /Backend/Certificate/print/browser/confirm        update  BrowserPrintConfirm → { count, reprints } (the user said 已打印: logs the print)
 *   POST /Backend/Certificate/print/pdf                    update  PrintBody → { jobId } (a PDF batch job: progress GET /Backend/Common/job/:id,
 *                                                                   file GET /Backend/Common/job/:id/download, application/pdf)
 * Templates — api.certificateTemplates (root: every contest; contest admins: own contests):
 *   GET  /Backend/Certificate/templates?contestId          read    → TemplateView[] (one per award kind; the built-in default where none is saved)
 *   PUT  /Backend/Certificate/templates                    update  TemplateBody → TemplateView (a field off the page: 400 with the field's name)
 *   POST /Backend/Certificate/templates/background         update  multipart image (png/jpeg, ≤ 10 MB) → { sha256, width, height }
 *   GET  /Backend/Certificate/background/:sha256           read    the image (any template's background in scope)
 *   POST /Backend/Certificate/templates/preview            update  TemplateBody → application/pdf of the sample certificate (SAMPLE_FACTS)
 *
 * Own certificates (authors and teachers; work pages) — api.myCertificates, every logged-in user:
 *   GET  /Backend/Certificate/mine                         read    → MyCertificate[] (own valid/revoked/replaced certificates of published results)
 *   GET  /Backend/Certificate/mine/:id/pdf                 read    application/pdf of one own certificate (logged as a download)
 *
 * Teacher and school honours (优秀指导教师, 优秀组织奖) on the results page — api.results:
 *   GET  /Backend/ContestAdmin/judging/:contestId/honours           read    → HonourView
 *   POST /Backend/ContestAdmin/judging/:contestId/honours/propose   update  HonourPropose → HonourView (fills the award by its rule; hand-set rows kept)
 *   POST /Backend/ContestAdmin/judging/:contestId/honours           update  HonourAdd → HonourView
 *   DELETE /Backend/ContestAdmin/judging/:contestId/honours/:id     update  ?reason → HonourView
 *   (while the result is published every change is a result version and re-syncs the certificates)
 *
 * Public:
 *   GET  /.well-known/certificate-keys.json                public  the same list as GET /Backend/Certificate/keys (no envelope)
 */
import { Type, type Static } from "typebox";
import { Id, PageNumber } from "../bounds";
import { ALIGNS, AWARD_KINDS, ORIENTATIONS, TEXT_FIELDS, FONT_SIZE } from "./layout";

const literals = <T extends readonly string[]>(keys: T, title: string) =>
  Type.Unsafe<T[number]>({ type: "string", enum: [...keys], title });

export const HOLDER_KINDS = ["author", "teacher", "school"] as const;
export type HolderKind = (typeof HOLDER_KINDS)[number];
export const HOLDER_KIND_NAMES: Record<HolderKind, string> = { author: "学生", teacher: "指导教师", school: "学校" };
export const CERT_ROW_STATUS = ["valid", "revoked", "replaced"] as const;

export const CertContest = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  year: Type.Integer(),
  level: Type.String(),
  published: Type.Boolean(),
  certificates: Type.Integer(),
});
export type CertContest = Static<typeof CertContest>;

export const CertListQuery = Type.Object({
  contestId: Id("竞赛"),
  groupId: Type.Optional(Id("评审分组")),
  awardLevelId: Type.Optional(Id("奖项")),
  schoolId: Type.Optional(Id("学校")),
  holderKind: Type.Optional(literals(HOLDER_KINDS, "持证人类型")),
  status: Type.Optional(literals(CERT_ROW_STATUS, "状态")),
  /** holder name, number or work title */
  keyword: Type.Optional(Type.String({ maxLength: 50, title: "关键词" })),
  /** true: never printed; false: printed at least once */
  unprinted: Type.Optional(Type.Boolean({ title: "仅未打印" })),
  current: Type.Optional(PageNumber({ default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20, title: "每页条数" })),
});
export type CertListQuery = Static<typeof CertListQuery>;

export const CertificateRow = Type.Object({
  id: Type.Integer(),
  number: Type.String(),
  version: Type.Integer(),
  holderKind: literals(HOLDER_KINDS, "持证人类型"),
  holderName: Type.String(),
  schoolName: Type.String(),
  workId: Type.Union([Type.Integer(), Type.Null()]),
  workTitle: Type.Union([Type.String(), Type.Null()]),
  categoryName: Type.Union([Type.String(), Type.Null()]),
  awardLevelId: Type.Union([Type.Integer(), Type.Null()]),
  awardName: Type.String(),
  groupName: Type.Union([Type.String(), Type.Null()]),
  status: literals(CERT_ROW_STATUS, "状态"),
  statusAt: Type.Union([Type.String(), Type.Null()]),
  statusReason: Type.Union([Type.String(), Type.Null()]),
  issuedAt: Type.String(),
  printCount: Type.Integer(),
  lastPrintedAt: Type.Union([Type.String(), Type.Null()]),
});
export type CertificateRow = Static<typeof CertificateRow>;

/** The most certificates one browser print or one PDF batch takes (a bigger selection: filter further). */
export const PRINT_LIMITS = { browser: 2000, pdf: 20000 } as const;

/** What to print: explicit ids (filters then ignored), or every valid certificate matching the filters (contestId required). */
export const PrintBody = Type.Object({
  ids: Type.Optional(Type.Array(Id(), { minItems: 1, maxItems: 5000, title: "证书" })),
  filters: Type.Optional(Type.Omit(CertListQuery, ["current", "pageSize"])),
});
export type PrintBody = Static<typeof PrintBody>;

export const PRINT_MODES = ["browser", "pdf", "download"] as const;
export const PRINT_MODE_NAMES: Record<(typeof PRINT_MODES)[number], string> = {
  browser: "浏览器打印",
  pdf: "PDF 批量",
  download: "本人下载",
};

export const PrintLogRow = Type.Object({
  id: Type.Integer(),
  certificateId: Type.Integer(),
  number: Type.String(),
  version: Type.Integer(),
  mode: literals(PRINT_MODES, "方式"),
  reprint: Type.Boolean(),
  userName: Type.String(),
  printedAt: Type.String(),
  jobId: Type.Union([Type.String(), Type.Null()]),
});
export type PrintLogRow = Static<typeof PrintLogRow>;

const Num = (min: number, max: number, title: string) => Type.Number({ minimum: min, maximum: max, title });

export const TextFieldSchema = Type.Object({
  key: literals(TEXT_FIELDS, "字段"),
  x: Num(-1000, 1000, "左边距 mm"),
  y: Num(-1000, 1000, "上边距 mm"),
  width: Num(0, 1000, "宽度 mm"),
  fontSize: Num(1, 200, "字号（磅）"),
  align: literals(ALIGNS, "对齐"),
  bold: Type.Optional(Type.Boolean()),
  maxLines: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  color: Type.Optional(Type.String({ pattern: "^#[0-9a-fA-F]{6}$", maxLength: 7 })),
  text: Type.Optional(Type.String({ maxLength: 200 })),
});
export const QrFieldSchema = Type.Object({
  key: Type.Literal("qr"),
  x: Num(-1000, 1000, "左边距 mm"),
  y: Num(-1000, 1000, "上边距 mm"),
  size: Num(0, 1000, "边长 mm"),
});
export const TemplateFieldSchema = Type.Union([TextFieldSchema, QrFieldSchema]);

export const TemplateBody = Type.Object({
  contestId: Id("竞赛"),
  awardKind: literals(AWARD_KINDS, "证书类型"),
  orientation: literals(ORIENTATIONS, "纸张方向"),
  backgroundSha256: Type.Union([Type.String({ pattern: "^[0-9a-f]{64}$", maxLength: 64 }), Type.Null()]),
  fields: Type.Array(TemplateFieldSchema, { minItems: 1, maxItems: 30 }),
});
export type TemplateBody = Static<typeof TemplateBody>;

export const TemplateView = Type.Intersect([
  TemplateBody,
  Type.Object({
    /** true: nothing saved for this contest and kind, this is the built-in layout */
    isDefault: Type.Boolean(),
    updatedAt: Type.Union([Type.String(), Type.Null()]),
    updatedBy: Type.Union([Type.String(), Type.Null()]),
  }),
]);
export type TemplateView = Static<typeof TemplateView>;

/** One sheet of a browser print: the template's kind, the facts and the QR code's target. */
export const PrintSheet = Type.Object({
  certificateId: Type.Integer(),
  /** with awardKind: which of `templates` the sheet uses (root may print several contests at once) */
  contestId: Type.Integer(),
  awardKind: literals(AWARD_KINDS, "证书类型"),
  facts: Type.Object({
    number: Type.String(),
    version: Type.Integer(),
    holderName: Type.String(),
    schoolName: Type.String(),
    workTitle: Type.Union([Type.String(), Type.Null()]),
    categoryName: Type.Union([Type.String(), Type.Null()]),
    awardName: Type.String(),
    contestName: Type.String(),
    contestDate: Type.String(),
  }),
  verifyUrl: Type.String(),
  /**
   * the QR code as an SVG path's "d" on a size × size module grid (no library in the browser):
   * size counts the modules plus a 2-module quiet zone on every side, already offset in the
   * path, so viewBox="0 0 size size" on a white square of the field's size draws it as the PDF does
   */
  qr: Type.Object({ size: Type.Integer(), path: Type.String() }),
  reprint: Type.Boolean(),
});
export type PrintSheet = Static<typeof PrintSheet>;

export const BrowserPrint = Type.Object({
  sheets: Type.Array(PrintSheet),
  /** the templates the sheets use, by award kind */
  templates: Type.Array(TemplateView),
  /** revoked/replaced certificates among the requested ids are never printed */
  skipped: Type.Integer(),
});
export type BrowserPrint = Static<typeof BrowserPrint>;

/** The sheets of a browser print the user confirmed as printed (their certificate ids). */
export const BrowserPrintConfirm = Type.Object({
  ids: Type.Array(Id(), { minItems: 1, maxItems: PRINT_LIMITS.browser, title: "证书" }),
});
export type BrowserPrintConfirm = Static<typeof BrowserPrintConfirm>;
export const BrowserPrintLogged = Type.Object({ count: Type.Integer(), reprints: Type.Integer() });
export type BrowserPrintLogged = Static<typeof BrowserPrintLogged>;

export const MyCertificate = Type.Object({
  id: Type.Integer(),
  number: Type.String(),
  version: Type.Integer(),
  holderKind: literals(HOLDER_KINDS, "持证人类型"),
  contestId: Type.Integer(),
  contestName: Type.String(),
  workId: Type.Union([Type.Integer(), Type.Null()]),
  workTitle: Type.Union([Type.String(), Type.Null()]),
  awardName: Type.String(),
  status: literals(CERT_ROW_STATUS, "状态"),
  statusReason: Type.Union([Type.String(), Type.Null()]),
  issuedAt: Type.String(),
  pdfUrl: Type.Union([Type.String(), Type.Null()]),
  verifyUrl: Type.String(),
});
export type MyCertificate = Static<typeof MyCertificate>;

// ---- Teacher and school honours (优秀指导教师 / 优秀组织奖)

export const HonourRow = Type.Object({
  id: Type.Integer(),
  awardLevelId: Type.Integer(),
  awardName: Type.String(),
  holderKind: Type.Union([Type.Literal("teacher"), Type.Literal("school")]),
  teacherUserId: Type.Union([Type.Integer(), Type.Null()]),
  schoolId: Type.Integer(),
  holderName: Type.String(),
  schoolName: Type.String(),
  /** teacher: the awarded work they advised that earned it */
  workId: Type.Union([Type.Integer(), Type.Null()]),
  workTitle: Type.Union([Type.String(), Type.Null()]),
  manual: Type.Boolean(),
});
export type HonourRow = Static<typeof HonourRow>;

export const HonourLevel = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  kind: Type.Union([Type.Literal("teacher"), Type.Literal("school")]),
  ratio: Type.Union([Type.Number(), Type.Null()]),
  maxCount: Type.Union([Type.Integer(), Type.Null()]),
  /** the cap for this contest (ratio × awarded works, max count), null when unlimited */
  cap: Type.Union([Type.Integer(), Type.Null()]),
  /** how the proposal picks holders, in Chinese */
  rule: Type.String(),
});
export type HonourLevel = Static<typeof HonourLevel>;

/** An advising teacher of the contest's works (the picker for adding by hand). */
export const HonourTeacherOption = Type.Object({
  userId: Type.Integer(),
  name: Type.String(),
  schoolId: Type.Integer(),
  schoolName: Type.String(),
  /** the contest's works they advise, best award first */
  works: Type.Array(
    Type.Object({ id: Type.Integer(), title: Type.String(), awardName: Type.Union([Type.String(), Type.Null()]) }),
  ),
});
export type HonourTeacherOption = Static<typeof HonourTeacherOption>;

/** A school with works in the contest (the picker for adding by hand). */
export const HonourSchoolOption = Type.Object({
  schoolId: Type.Integer(),
  name: Type.String(),
  works: Type.Integer(),
  awarded: Type.Integer(),
});
export type HonourSchoolOption = Static<typeof HonourSchoolOption>;

export const HonourView = Type.Object({
  levels: Type.Array(HonourLevel),
  rows: Type.Array(HonourRow),
  published: Type.Boolean(),
  /** the contest's awarded works (work awards, not disqualified): the base of the ratio */
  awardedWorks: Type.Integer(),
  teachers: Type.Array(HonourTeacherOption),
  schools: Type.Array(HonourSchoolOption),
});
export type HonourView = Static<typeof HonourView>;

/** 按规则生成: the rule's holders of one level; `reason` goes into the result version when published. */
export const HonourPropose = Type.Object({
  awardLevelId: Id("奖项"),
  reason: Type.Optional(Type.String({ maxLength: 200, title: "原因" })),
});
export type HonourPropose = Static<typeof HonourPropose>;

export const HonourContestParam = Type.Object({ contestId: Id("竞赛") });
export const HonourParam = Type.Object({ contestId: Id("竞赛"), id: Id("荣誉") });
export const HonourRemoveQuery = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 200, title: "原因" })) });

export const HonourAdd = Type.Object({
  awardLevelId: Id("奖项"),
  teacherUserId: Type.Optional(Id("指导教师")),
  schoolId: Type.Optional(Id("学校")),
  workId: Type.Optional(Id("作品")),
  reason: Type.Optional(Type.String({ maxLength: 200, title: "原因" })),
});
export type HonourAdd = Static<typeof HonourAdd>;

export { FONT_SIZE };
