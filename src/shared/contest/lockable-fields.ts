/**
 * The work fields that can be locked from a contest stage on (/admin/EntryLock). The
 * works issue maps each key to the work's own fields when a work is edited.
 */
export const LOCKABLE_FIELD_KEYS = [
  "name",
  "category",
  "summary",
  "designIdea",
  "keyPoints",
  "openSource",
  "installGuide",
  "teacherReview",
  "otherNotes",
  "deployLink1",
  "deployLink2",
  "authors",
  "teachers",
  "attachments",
  "aiDeclaration",
] as const;
export type LockableField = (typeof LOCKABLE_FIELD_KEYS)[number];

export const LOCKABLE_FIELD_NAMES: Record<LockableField, string> = {
  name: "作品名称",
  category: "作品大类/小类",
  summary: "作品简介",
  designIdea: "设计思路",
  keyPoints: "设计重点和难点",
  openSource: "开源代码与组件使用情况说明",
  installGuide: "作品安装说明",
  teacherReview: "指导老师自评",
  otherNotes: "其他说明",
  deployLink1: "部署链接1",
  deployLink2: "部署链接2",
  authors: "作者",
  teachers: "指导教师",
  attachments: "附件",
  aiDeclaration: "AI工具使用声明",
};

export const LOCKABLE_FIELD_OPTIONS = LOCKABLE_FIELD_KEYS.map((key) => ({ key, name: LOCKABLE_FIELD_NAMES[key] }));

export const isLockableField = (s: unknown): s is LockableField =>
  typeof s === "string" && (LOCKABLE_FIELD_KEYS as readonly string[]).includes(s);
