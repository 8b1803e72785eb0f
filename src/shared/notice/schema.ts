/** Notices: a role's announcement or an explanation text, platform-wide or of one contest. */
import { Type, type Static } from "typebox";
import { MAX_ID } from "../bounds";

const Nullable = <T extends import("typebox").TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** Rich text (HTML) is sanitised on the server; the limit leaves room for inline images within the 1 MB request limit. */
export const RICH_TEXT_MAX = 900_000;

export const NoticeView = Type.Object({
  id: Type.Integer(),
  contestId: Nullable(Type.Integer()),
  contestName: Nullable(Type.String()),
  section: Type.String(),
  sectionName: Type.String(),
  title: Type.String(),
  content: Type.String(),
  updatedAt: Type.String(),
  updatedBy: Nullable(Type.Integer()),
  updatedByName: Nullable(Type.String()),
});
export type NoticeView = Static<typeof NoticeView>;

export const NoticeCreate = Type.Object({
  section: Type.String({ minLength: 1, maxLength: 40, title: "栏目" }),
  contestId: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" }))),
  title: Type.String({ minLength: 1, maxLength: 100, title: "标题" }),
  content: Type.String({ maxLength: RICH_TEXT_MAX, title: "内容" }),
});
export type NoticeCreate = Static<typeof NoticeCreate>;

export const NoticeUpdate = Type.Partial(NoticeCreate);
export type NoticeUpdate = Static<typeof NoticeUpdate>;

export const NoticeFilters = Type.Object({
  section: Type.Optional(Type.String({ maxLength: 40, title: "栏目" })),
  contestId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" })),
  /** true: only platform-wide notices; false: only notices of contests */
  platform: Type.Optional(Type.Boolean({ title: "全平台" })),
  keyword: Type.Optional(Type.String({ maxLength: 60, title: "关键词" })),
});

/** The explanation text a works page shows. */
export const SectionText = Type.Object({
  section: Type.String(),
  sectionName: Type.String(),
  /** the contest whose text this is; null: the platform-wide text (or none written yet) */
  contestId: Nullable(Type.Integer()),
  title: Type.String(),
  content: Type.String(),
  updatedAt: Nullable(Type.String()),
});
export type SectionText = Static<typeof SectionText>;
