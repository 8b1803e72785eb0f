/**
 * The public 获奖名单 section: the award list with its filters, paginated.
 */
import { useEffect, useState } from "react";
import type { PageOf, ResultItem, ResultOptions } from "../../shared/mainpage/schema";
import { navigate, withQuery, type Loc } from "./router";
import { useData, A, Loading, Failure, Pager, pageOf, useTitle } from "./ui";

export function ResultsPage({ loc }: { loc: Loc }) {
  useTitle("获奖名单");
  const f = {
    contestId: loc.search.get("contestId") ?? "",
    categoryId: loc.search.get("categoryId") ?? "",
    awardLevelId: loc.search.get("awardLevelId") ?? "",
    keyword: loc.search.get("keyword") ?? "",
  };
  const page = pageOf(loc);
  const options = useData<ResultOptions>("results/options");
  const { data, error } = useData<PageOf<ResultItem>>("results", { ...f, current: page, pageSize: 20 });
  const [kw, setKw] = useState(f.keyword);
  useEffect(() => setKw(f.keyword), [f.keyword]);
  const go = (patch: Partial<typeof f>) => navigate(withQuery(loc.path, { ...f, ...patch }));
  return (
    <section className="mp-card">
      <h1 className="mp-page-title">获奖名单</h1>
      <form
        className="mp-filters"
        onSubmit={(e) => {
          e.preventDefault();
          go({ keyword: kw.trim() });
        }}
      >
        <label>
          赛事
          <select value={f.contestId} onChange={(e) => go({ contestId: e.target.value })} data-testid="filter-contest">
            <option value="">全部</option>
            {options.data?.contests.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          类别
          <select value={f.categoryId} onChange={(e) => go({ categoryId: e.target.value })}>
            <option value="">全部</option>
            {options.data?.categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          奖项
          <select value={f.awardLevelId} onChange={(e) => go({ awardLevelId: e.target.value })}>
            <option value="">全部</option>
            {options.data?.awards.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label className="mp-search">
          搜索
          <span>
            <input
              type="search"
              value={kw}
              maxLength={50}
              placeholder="作品名称、学校或作者"
              onChange={(e) => setKw(e.target.value)}
              data-testid="results-keyword"
            />
            <button type="submit" className="mp-btn">
              搜索
            </button>
          </span>
        </label>
      </form>
      {error ? (
        <Failure error={error} />
      ) : data ? (
        data.list.length ? (
          <>
            <ul className="mp-results" data-testid="results">
              {data.list.map((r) => (
                <li key={`${r.contestId}-${r.workId}`}>
                  <span className={`mp-award mp-award-${/一等|特等/.test(r.awardName) ? 1 : /二等/.test(r.awardName) ? 2 : 3}`}>
                    {r.awardName}
                  </span>
                  <div>
                    <A to={`/mainpage/work/${r.workId}`} className="mp-result-name">
                      {r.workName}
                    </A>
                    <p className="mp-muted">
                      {r.schoolName} · {r.authorNames}
                      {r.teacherNames && ` · 指导教师：${r.teacherNames}`}
                    </p>
                    <p className="mp-muted mp-small">
                      {r.contestName} · {r.categoryName}
                    </p>
                  </div>
                </li>
              ))}
            </ul>
            <Pager loc={loc} total={data.total} pageSize={20} />
          </>
        ) : (
          <p className="mp-muted">没有符合条件的获奖作品</p>
        )
      ) : (
        <Loading />
      )}
    </section>
  );
}
