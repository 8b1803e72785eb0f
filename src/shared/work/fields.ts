/**
 * The editable fields of a work, in one table: API key, Chinese label, the field lock
 * (/admin/EntryLock) that guards it, and whether submit requires it. The server maps the
 * keys to columns; the log and the lock messages use the labels.
 */
import type { LockableField } from "../contest/lockable-fields";

export const GROUPS = ["normal", "professional"] as const;
export type WorkGroupKey = (typeof GROUPS)[number];
export const GROUP_NAMES: Record<WorkGroupKey, string> = { normal: "普通组", professional: "专业组" };

/** Long text fields: the API key and its length limit. */
export const TEXT_FIELDS = [
  "summary",
  "designIdea",
  "keyPoints",
  "openSource",
  "installGuide",
  "teacherReview",
  "otherNotes",
] as const;
export const LINK_FIELDS = ["deployLink1", "deployLink2"] as const;
export type TextField = (typeof TEXT_FIELDS)[number];
export type LinkField = (typeof LINK_FIELDS)[number];

/** Every field an edit can change. */
export type WorkField = "name" | "categoryId" | "subcategoryId" | "group" | TextField | LinkField | "aiDeclaration";

export interface FieldDef {
  label: string;
  lock: LockableField;
  /** submit refuses while it is empty */
  requiredAtSubmit?: boolean;
}

export const FIELDS: Record<WorkField, FieldDef> = {
  name: { label: "作品名称", lock: "name", requiredAtSubmit: true },
  categoryId: { label: "作品大类", lock: "category" },
  subcategoryId: { label: "作品小类", lock: "category" },
  group: { label: "组别", lock: "category" },
  summary: { label: "作品简介", lock: "summary", requiredAtSubmit: true },
  designIdea: { label: "设计思路", lock: "designIdea", requiredAtSubmit: true },
  keyPoints: { label: "设计重点和难点", lock: "keyPoints", requiredAtSubmit: true },
  openSource: { label: "开源代码与组件使用情况说明", lock: "openSource" },
  installGuide: { label: "作品安装说明", lock: "installGuide" },
  teacherReview: { label: "指导老师自评", lock: "teacherReview" },
  otherNotes: { label: "其他说明", lock: "otherNotes" },
  deployLink1: { label: "部署链接1", lock: "deployLink1" },
  deployLink2: { label: "部署链接2", lock: "deployLink2" },
  aiDeclaration: { label: "AI工具使用声明", lock: "aiDeclaration", requiredAtSubmit: true },
};

/** Names of the fields and facts a work-log entry can record. */
export const LOG_FIELD_NAMES: Record<string, string> = {
  ...Object.fromEntries(Object.entries(FIELDS).map(([k, f]) => [k, f.label])),
  contestId: "赛事",
  schoolId: "学校",
  status: "状态",
  reason: "原因",
  authors: "作者",
  teachers: "指导教师",
  confirmed: "确认参赛",
  note: "说明",
  reasonCodes: "问题类型",
  deadline: "修改截止时间",
  attachments: "附件",
};

export const LOG_ACTION_NAMES: Record<string, string> = {
  create: "创建作品",
  admin_create: "赛事管理员代为录入",
  update: "修改作品信息",
  delete: "删除草稿",
  add_author: "添加作者",
  remove_author: "移除作者",
  reorder_authors: "调整作者顺序",
  confirm_author: "确认参赛",
  decline_author: "拒绝或退出参赛",
  add_teacher: "添加指导教师",
  remove_teacher: "移除指导教师",
  teacher_review: "填写指导老师自评",
  submit: "提交",
  return: "退回修改",
  approve: "审核通过",
  withdraw_approval: "撤销审核",
  recommend: "推荐至省赛",
  unrecommend: "撤回推荐",
  accept: "接收",
  reject: "退回学校",
  disqualify: "取消资格",
  format_pass: "形式审查通过",
  format_return: "形式审查退回修改",
  format_resubmit: "重新提交形式审查",
  format_reject: "形式审查判定不符合要求",
  format_reopen: "撤销形式审查结论",
  upload_file: "上传附件",
  replace_file: "替换附件",
  delete_file: "删除附件",
};

/** Each author may enter one work per 大类 a year, whatever the rank. */
export const onePerCategoryMessage = (workName: string, workId: number, who?: string) =>
  `${who ? `作者「${who}」` : "该作者"}在本大类已有作品《${workName}》（编号 ${workId}），每位作者每个大类只能参加一件作品`;
