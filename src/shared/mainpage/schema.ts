/**
 * The public main page (issue 14): what visitors read at /mainpage/:section. Only published,
 * public facts: news and notices whose publish time has come, published results (award,
 * work, school, author and teacher names as on the award list), published best works.
 * No judges, no scores, no contact data. The browser imports these as types only.
 */
import { Type, type Static, type TSchema } from "typebox";
import { MAX_ID, MAX_PAGE } from "../bounds";

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Page = {
  current: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, title: "页码" })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, title: "每页条数" })),
};
const OptId = (title: string) => Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title }));
const Level = Type.Union([Type.Literal("national"), Type.Literal("provincial"), Type.Literal("school")], { title: "赛事级别" });

export const PageQuery = Type.Object(Page);
export const IdParam = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "编号" }) });

export const ArticleItem = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  publishAt: Type.String(),
  summary: Type.String(),
  /** an http(s) image address (inline data: covers only on the article page) */
  cover: Nullable(Type.String()),
  contestId: Nullable(Type.Integer()),
  contestName: Nullable(Type.String()),
  contestLevel: Nullable(Level),
  province: Nullable(Type.String()),
});
export type ArticleItem = Static<typeof ArticleItem>;
export const Article = Type.Intersect([ArticleItem, Type.Object({ body: Type.String(), cover: Nullable(Type.String()) })]);
export type Article = Static<typeof Article>;

export const NoticeQuery = Type.Object({
  ...Page,
  level: Type.Optional(Level),
  province: Type.Optional(Type.String({ maxLength: 20, title: "省份" })),
});

export const StageItem = Type.Object({
  stage: Type.String(),
  name: Type.String(),
  startsAt: Type.String(),
  endsAt: Type.String(),
});
export const Edition = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  year: Type.Integer(),
  level: Level,
  description: Nullable(Type.String()),
  stages: Type.Array(StageItem),
  currentStage: Nullable(Type.String()),
});
export type Edition = Static<typeof Edition>;

export const BestWorkCard = Type.Object({
  id: Type.Integer(),
  workId: Type.Integer(),
  workName: Type.String(),
  contestName: Type.String(),
  year: Type.Integer(),
  categoryName: Type.String(),
  awardName: Nullable(Type.String()),
  schoolName: Type.String(),
  authorNames: Type.String(),
  text: Type.String(),
  summary: Nullable(Type.String()),
  coverUrl: Nullable(Type.String()),
  videoUrl: Nullable(Type.String()),
});
export type BestWorkCard = Static<typeof BestWorkCard>;

export const Home = Type.Object({
  edition: Nullable(Edition),
  news: Type.Array(ArticleItem),
  notices: Type.Array(ArticleItem),
  bestWorks: Type.Array(BestWorkCard),
  provinces: Type.Array(Type.String()),
});
export type Home = Static<typeof Home>;

export const RubricLine = Type.Object({ name: Type.String(), maxPoints: Type.Number(), description: Nullable(Type.String()) });
export const CategoryIntro = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  minAuthors: Type.Integer(),
  maxAuthors: Type.Integer(),
  maxTeachers: Type.Integer(),
  subcategories: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  rubric: Type.Array(RubricLine),
});
export type CategoryIntro = Static<typeof CategoryIntro>;
export const Intro = Type.Object({ edition: Nullable(Edition), categories: Type.Array(CategoryIntro) });
export type Intro = Static<typeof Intro>;

export const ResultQuery = Type.Object({
  ...Page,
  contestId: OptId("赛事"),
  categoryId: OptId("作品大类"),
  awardLevelId: OptId("奖项"),
  keyword: Type.Optional(Type.String({ maxLength: 50, title: "关键词（作品、学校、作者）" })),
});
export const ResultItem = Type.Object({
  workId: Type.Integer(),
  workName: Type.String(),
  contestId: Type.Integer(),
  contestName: Type.String(),
  year: Type.Integer(),
  categoryName: Type.String(),
  awardName: Type.String(),
  schoolName: Type.String(),
  authorNames: Type.String(),
  teacherNames: Type.String(),
});
export type ResultItem = Static<typeof ResultItem>;
const Option = Type.Object({ id: Type.Integer(), name: Type.String() });
export const ResultOptions = Type.Object({
  contests: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), year: Type.Integer() })),
  categories: Type.Array(Option),
  awards: Type.Array(Option),
});
export type ResultOptions = Static<typeof ResultOptions>;

export const EditionItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  year: Type.Integer(),
  level: Level,
  province: Nullable(Type.String()),
  awards: Type.Integer(),
});
export type EditionItem = Static<typeof EditionItem>;

export const PublicWork = Type.Object({
  workId: Type.Integer(),
  name: Type.String(),
  year: Type.Integer(),
  categoryName: Type.String(),
  schoolName: Type.String(),
  authorNames: Type.String(),
  teacherNames: Type.String(),
  summary: Nullable(Type.String()),
  awards: Type.Array(Type.Object({ contestId: Type.Integer(), contestName: Type.String(), awardName: Type.String() })),
  bestWork: Nullable(Type.Object({ text: Type.String(), coverUrl: Nullable(Type.String()), videoUrl: Nullable(Type.String()) })),
});
export type PublicWork = Static<typeof PublicWork>;

export interface PageOf<T> {
  list: T[];
  total: number;
}

// ---- /admin/BestWork (root)

export const CandidateQuery = Type.Object({
  ...Page,
  contestId: OptId("赛事"),
  categoryId: OptId("作品大类"),
  awardLevelId: OptId("奖项"),
  keyword: Type.Optional(Type.String({ maxLength: 50, title: "关键词" })),
});
export const Candidate = Type.Intersect([ResultItem, Type.Object({ chosen: Type.Boolean() })]);
export type Candidate = Static<typeof Candidate>;

export const BestWorkAdmin = Type.Intersect([
  BestWorkCard,
  Type.Object({
    sort: Type.Integer(),
    published: Type.Boolean(),
    publishedAt: Nullable(Type.String()),
    coverSha256: Nullable(Type.String()),
    updatedAt: Type.String(),
  }),
]);
export type BestWorkAdmin = Static<typeof BestWorkAdmin>;

export const BestWorkCreate = Type.Object({ workId: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "作品" }) });
export const BestWorkUpdate = Type.Object({
  text: Type.Optional(Type.String({ maxLength: 500, title: "简介" })),
  videoUrl: Type.Optional(Nullable(Type.String({ maxLength: 500, title: "视频地址" }))),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000, title: "顺序" })),
  published: Type.Optional(Type.Boolean({ title: "发布" })),
});
export type BestWorkUpdate = Static<typeof BestWorkUpdate>;
export const BestWorkOrder = Type.Object({
  ids: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 500, title: "顺序" }),
});
