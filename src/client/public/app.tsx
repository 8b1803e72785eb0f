/**
 * The public main page (issue 14): /mainpage/:section and /mainpage/:section/:id for
 * visitors, in a light layout of its own. Sections: 首页, 新闻, 通知公告, 赛事介绍, 获奖名单,
 * 优秀作品, 往届; articles and works have stable URLs. Lists are paginated on the server
 * (?page=N in the address, so a page can be shared). This file picks the section's page from the
 * address; each section is a file of its own (home, articles, intro, results, best, editions, work),
 * with the frame in layout.tsx and the small shared parts in ui.tsx. The visitor pages /complaint,
 * /verify-cert and /query-work (issue 29) show in the same frame, their bodies from ./visitor.
 */
import { lazy, Suspense, useEffect, type ReactNode } from "react";
import { SECTIONS, visitorPage, type SectionKey } from "./paths";
import { navigate, useLocation, type Loc } from "./router";
import { Loading, NotFound, useTitle } from "./ui";
import { Layout } from "./layout";
import { HomePage } from "./home";
import { ArticlesPage, ArticlePage } from "./articles";
import { IntroPage } from "./intro";
import { ResultsPage } from "./results";
import { BestPage } from "./best";
import { EditionsPage } from "./editions";
import { WorkPage } from "./work";

const KEYS = new Set<string>(SECTIONS.map((s) => s.key));

// The visitor pages (/complaint, /verify-cert, /query-work: issue 29) are one lazy chunk with the
// antd parts they use; the main page's sections never download it.
const VisitorPage = lazy(() => import("./visitor"));

function Visitor({ page }: { page: NonNullable<ReturnType<typeof visitorPage>> }) {
  useTitle(page.name);
  return (
    <Layout section="visitor">
      <Suspense fallback={<Loading />}>
        <VisitorPage path={page.path} label={page.name} />
      </Suspense>
    </Layout>
  );
}

function Page({ loc }: { loc: Loc }) {
  const visitor = visitorPage(loc.path);
  if (visitor) return <Visitor page={visitor} />;
  // "/" for a visitor is the main page's home (main.tsx decides who gets this app there).
  const [, , section = "", idText, extra] = (loc.path === "/" ? "/mainpage/home" : loc.path).split("/");
  const id = idText === undefined ? null : /^[1-9]\d{0,9}$/.test(idText) && Number(idText) <= 2147483647 ? Number(idText) : NaN;
  if (extra !== undefined || Number.isNaN(id))
    return (
      <Layout section="home">
        <NotFound />
      </Layout>
    );
  if (section === "work" && id !== null)
    return (
      <Layout section="results">
        <WorkPage id={id} />
      </Layout>
    );
  if (!KEYS.has(section))
    return (
      <Layout section="home">
        <NotFound />
      </Layout>
    );
  const key = section as SectionKey;
  let body: ReactNode;
  if (id !== null) {
    if (key === "news" || key === "notices") body = <ArticlePage kind={key} id={id} />;
    else body = <NotFound />;
  } else if (key === "home") body = <HomePage />;
  else if (key === "news" || key === "notices") body = <ArticlesPage kind={key} loc={loc} />;
  else if (key === "intro") body = <IntroPage />;
  else if (key === "results") body = <ResultsPage loc={loc} />;
  else if (key === "best") body = <BestPage loc={loc} />;
  else body = <EditionsPage loc={loc} />;
  return <Layout section={key}>{body}</Layout>;
}

export function PublicApp() {
  const loc = useLocation();
  useEffect(() => {
    if (loc.path === "/mainpage" || loc.path === "/mainpage/") navigate("/mainpage/home", true);
  }, [loc.path]);
  return <Page loc={loc} />;
}
