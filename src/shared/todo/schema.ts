/**
 * The to-do centre (issue 15): what waits for the signed-in user, computed on the server
 * from each domain's state (GET /Backend/UserCenter/todo) and shown on /index with counts,
 * due dates and a link to the exact place; the same counts badge the menu entries. Which
 * kinds a role gets is in casbin/policy.csv (objects `todo.<kind>`, action `read`).
 */
import { Type, type Static } from "typebox";

export const TODO_KINDS = [
  "coauthor",
  "teacherReview",
  "schoolReview",
  "formatReview",
  "judging",
  "defence",
  "complaint",
  "complaintParty",
  "judgeInvite",
  "promotion",
] as const;
export type TodoKind = (typeof TODO_KINDS)[number];

export const TODO_KIND_NAMES: Record<TodoKind, string> = {
  coauthor: "待确认参赛",
  teacherReview: "待填写指导老师自评",
  schoolReview: "待学校审核与推荐",
  formatReview: "待形式审查",
  judging: "待网评打分",
  defence: "现场答辩",
  complaint: "待处理申诉",
  judgeInvite: "待答复的评委邀请",
  complaintParty: "与我的作品有关的申诉和投诉",
  promotion: "待决定的晋级",
};

/** The casbin object of a kind: a role sees the kinds its subjects may `read`. */
export const todoObject = (k: TodoKind) => `todo.${k}`;

export const TodoItem = Type.Object({
  /** stable while the item waits; the digest names an item whose key (or count) is new */
  key: Type.String(),
  kind: Type.Union([
    Type.Literal("coauthor"),
    Type.Literal("teacherReview"),
    Type.Literal("schoolReview"),
    Type.Literal("formatReview"),
    Type.Literal("judging"),
    Type.Literal("defence"),
    Type.Literal("complaint"),
    Type.Literal("complaintParty"),
    Type.Literal("judgeInvite"),
    Type.Literal("promotion"),
  ]),
  title: Type.String(),
  detail: Type.String(),
  /** how many things this item stands for (works to score, works to review, …) */
  count: Type.Integer(),
  /** ISO time by which it is due, when there is one */
  dueAt: Type.Union([Type.String(), Type.Null()]),
  /** the page (path and query) where it is done */
  link: Type.String(),
  /** the menu entry it belongs to (its badge) */
  menu: Type.String(),
  /** a co-author's confirmation can be answered in place */
  workId: Type.Optional(Type.Integer()),
  version: Type.Optional(Type.Integer()),
});
export type TodoItem = Static<typeof TodoItem>;

export const TodoReply = Type.Object({
  items: Type.Array(TodoItem),
  /** total count per menu path */
  badges: Type.Record(Type.String(), Type.Integer()),
  total: Type.Integer(),
});
export type TodoReply = Static<typeof TodoReply>;

/** Marks a promotion item 已处理 (POST /Backend/UserCenter/todo/promotion/done). */
export const PromotionDone = Type.Object({
  key: Type.String({ title: "待办事项", maxLength: 48, pattern: "^promotion:[0-9]{1,10}:[0-9]{1,10}:(candidate|loose)$" }),
});
export type PromotionDone = Static<typeof PromotionDone>;

export const DigestPreference = Type.Object({ todoDigest: Type.Boolean({ title: "每日待办邮件" }) });
export type DigestPreference = Static<typeof DigestPreference>;
