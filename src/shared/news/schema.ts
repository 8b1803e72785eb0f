/** News: a title, a rich-text body and a cover, platform-wide (national) or of one contest. */
import { Type, type Static } from "typebox";
import { RICH_TEXT_MAX } from "../notice/schema";
import { MAX_ID, MAX_PAGE } from "../bounds";

const Nullable = <T extends import("typebox").TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const NEWS_STATUSES = ["draft", "published"] as const;
export type NewsStatus = (typeof NEWS_STATUSES)[number];
export const NEWS_STATUS_NAMES: Record<NewsStatus, string> = { draft: "草稿", published: "已发布" };

/** A cover: an http(s) image address, or a data:image URL of at most this many bytes of image. */
export const COVER_MAX_BYTES = 500 * 1024;
/** A coarse guard only: the server measures a data: URL's image bytes and names the limit in KB. */
const COVER_MAX_CHARS = 1_000_000;

const Status = Type.Union([Type.Literal("draft"), Type.Literal("published")], { title: "状态" });

export const NewsView = Type.Object({
  id: Type.Integer(),
  contestId: Nullable(Type.Integer()),
  contestName: Nullable(Type.String()),
  title: Type.String(),
  /** omitted in lists */
  body: Type.Optional(Type.String()),
  cover: Nullable(Type.String()),
  status: Status,
  /** when it appears publicly; a published item with a future time is scheduled */
  publishAt: Nullable(Type.String()),
  createdBy: Nullable(Type.Integer()),
  createdByName: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type NewsView = Static<typeof NewsView>;

export const NewsCreate = Type.Object({
  contestId: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" }))),
  title: Type.String({ minLength: 1, maxLength: 100, title: "标题" }),
  body: Type.String({ maxLength: RICH_TEXT_MAX, title: "正文" }),
  cover: Type.Optional(Nullable(Type.String({ maxLength: COVER_MAX_CHARS, title: "封面" }))),
  status: Type.Optional(Status),
  publishAt: Type.Optional(Nullable(Type.String({ format: "date-time", title: "发布时间" }))),
});
export type NewsCreate = Static<typeof NewsCreate>;

export const NewsUpdate = Type.Partial(NewsCreate);
export type NewsUpdate = Static<typeof NewsUpdate>;

export const NewsFilters = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 60, title: "关键词" })),
  status: Type.Optional(Status),
  contestId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" })),
  /** true: only platform (national) news; false: only news of contests */
  platform: Type.Optional(Type.Boolean({ title: "全平台" })),
});

/** What the public pages see. */
export const PublicNewsItem = Type.Object({
  id: Type.Integer(),
  contestId: Nullable(Type.Integer()),
  contestName: Nullable(Type.String()),
  title: Type.String(),
  cover: Nullable(Type.String()),
  publishAt: Type.String(),
  /** the body's first characters as plain text */
  summary: Type.String(),
});
export type PublicNewsItem = Static<typeof PublicNewsItem>;

export const PublicNewsDetail = Type.Intersect([PublicNewsItem, Type.Object({ body: Type.String() })]);
export type PublicNewsDetail = Static<typeof PublicNewsDetail>;

export const PublicNewsQuery = Type.Object({
  /** absent: the platform's (national) news */
  contestId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" })),
  current: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, title: "页码" })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, title: "每页条数" })),
});
