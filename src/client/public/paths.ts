/** Which paths the light public app serves, and the main page's sections (issue 14). */

/**
 * The visitor pages outside the main page (issue 29): the complaint entry, the certificate check a
 * certificate's QR code opens and the work lookup. They load the light public app too, whose frame
 * fits a phone; their bodies are one lazy chunk (public/visitor) with the few antd parts they use,
 * still without refine, the policy engine, react-router or the admin frame. Inside the admin
 * application the same pages keep their routes (src/client/routes.tsx), so its menu links work.
 */
export const VISITOR_PAGES = [
  { path: "/complaint", name: "申诉入口" },
  { path: "/verify-cert", name: "证书查询" },
  { path: "/query-work", name: "作品查询" },
] as const;
export type VisitorPath = (typeof VISITOR_PAGES)[number]["path"];

/** The visitor page at `path` (a trailing slash allowed), or undefined. */
export const visitorPage = (path: string) => VISITOR_PAGES.find((p) => path === p.path || path === p.path + "/");

export const isPublicPath = (path: string) => /^\/mainpage(\/|$)/.test(path) || visitorPage(path) !== undefined;

export const SECTIONS = [
  { key: "home", name: "首页" },
  { key: "news", name: "新闻" },
  { key: "notices", name: "通知公告" },
  { key: "intro", name: "赛事介绍" },
  { key: "results", name: "获奖名单" },
  { key: "best", name: "优秀作品" },
  { key: "editions", name: "往届" },
] as const;
export type SectionKey = (typeof SECTIONS)[number]["key"] | "work" | "visitor";
