/**
 * The public 往届 section: the earlier editions.
 */
import type { EditionItem, PageOf } from "../../shared/mainpage/schema";
import type { Loc } from "./router";
import { LEVELS, useData, A, Loading, Failure, Pager, pageOf, useTitle } from "./ui";

export function EditionsPage({ loc }: { loc: Loc }) {
  useTitle("往届赛事");
  const { data, error } = useData<PageOf<EditionItem>>("editions", { current: pageOf(loc), pageSize: 20 });
  return (
    <section className="mp-card">
      <h1 className="mp-page-title">往届赛事</h1>
      {error ? (
        <Failure error={error} />
      ) : data ? (
        data.list.length ? (
          <>
            <ul className="mp-editions" data-testid="editions">
              {data.list.map((c) => (
                <li key={c.id}>
                  <span className="mp-year">{c.year}</span>
                  <div>
                    <strong>{c.name}</strong>
                    <p className="mp-muted mp-small">
                      {LEVELS[c.level]}
                      {c.province ? ` · ${c.province}` : ""} · 获奖作品 {c.awards} 件
                    </p>
                  </div>
                  {c.awards > 0 && (
                    <A to={`/mainpage/results?contestId=${c.id}`} className="mp-btn mp-btn-small">
                      获奖名单
                    </A>
                  )}
                </li>
              ))}
            </ul>
            <Pager loc={loc} total={data.total} pageSize={20} />
          </>
        ) : (
          <p className="mp-muted">暂无往届赛事</p>
        )
      ) : (
        <Loading />
      )}
    </section>
  );
}
