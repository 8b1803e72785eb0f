/** Which paths the light public app serves, and the main page's sections (issue 14). */
export const isPublicPath = (path: string) => /^\/mainpage(\/|$)/.test(path);

export const SECTIONS = [
  { key: "home", name: "首页" },
  { key: "news", name: "新闻" },
  { key: "notices", name: "通知公告" },
  { key: "intro", name: "赛事介绍" },
  { key: "results", name: "获奖名单" },
  { key: "best", name: "优秀作品" },
  { key: "editions", name: "往届" },
] as const;
export type SectionKey = (typeof SECTIONS)[number]["key"] | "work";
