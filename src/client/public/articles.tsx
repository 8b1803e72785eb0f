/**
 * The public 新闻 and 通知公告 sections: the paginated lists and one article.
 */
import type { Article, ArticleItem, Home, PageOf } from "../../shared/mainpage/schema";
import { navigate, withQuery, type Loc } from "./router";
import { fmtDate, useData, A, Loading, Failure, Pager, pageOf, useTitle } from "./ui";
import { ArticleList } from "./home";

const PAGE_SIZE = 10;

export function ArticlesPage({ kind, loc }: { kind: "news" | "notices"; loc: Loc }) {
  const level = loc.search.get("level") ?? "";
  const province = loc.search.get("province") ?? "";
  const page = pageOf(loc);
  const title = kind === "news" ? "新闻" : "通知公告";
  useTitle(title);
  const { data, error } = useData<PageOf<ArticleItem>>(kind, {
    current: page,
    pageSize: PAGE_SIZE,
    level: kind === "notices" ? level : undefined,
    province: kind === "notices" ? province : undefined,
  });
  const home = useData<Home>(kind === "notices" ? "home" : null);
  const set = (k: string, v: string) => navigate(withQuery(loc.path, { level, province, [k]: v }));
  return (
    <section className="mp-card">
      <h1 className="mp-page-title">{title}</h1>
      {kind === "notices" && (
        <div className="mp-filters">
          <label>
            赛事级别
            <select value={level} onChange={(e) => set("level", e.target.value)} data-testid="filter-level">
              <option value="">全部</option>
              <option value="national">国赛</option>
              <option value="provincial">省赛</option>
              <option value="school">校赛</option>
            </select>
          </label>
          <label>
            省份
            <select value={province} onChange={(e) => set("province", e.target.value)} data-testid="filter-province">
              <option value="">全部</option>
              {(home.data?.provinces ?? (province ? [province] : [])).map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
      {error ? (
        <Failure error={error} />
      ) : data ? (
        <>
          <ArticleList items={data.list} base={`/mainpage/${kind}`} testid={kind === "news" ? "news" : "notices"} />
          <Pager loc={loc} total={data.total} pageSize={PAGE_SIZE} />
        </>
      ) : (
        <Loading />
      )}
    </section>
  );
}

export function ArticlePage({ kind, id }: { kind: "news" | "notices"; id: number }) {
  const { data, error } = useData<Article>(`${kind}/${id}`);
  useTitle(data?.title);
  if (error) return <Failure error={error} />;
  if (!data) return <Loading />;
  return (
    <article className="mp-card mp-article" data-testid="article">
      <nav className="mp-crumbs">
        <A to="/mainpage/home">首页</A> › <A to={`/mainpage/${kind}`}>{kind === "news" ? "新闻" : "通知公告"}</A>
      </nav>
      <h1>{data.title}</h1>
      <p className="mp-article-meta">
        <time dateTime={data.publishAt}>{fmtDate(data.publishAt)}</time>
        {data.contestName && <span>{data.contestName}</span>}
      </p>
      {data.cover && <img className="mp-article-cover" src={data.cover} alt="" />}
      <div className="mp-richtext" dangerouslySetInnerHTML={{ __html: data.body }} />
    </article>
  );
}
