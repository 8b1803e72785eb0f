/**
 * The public 优秀作品 section: the cards of the best works (also on the home page), paginated.
 */
import type { BestWorkCard, PageOf } from "../../shared/mainpage/schema";
import type { Loc } from "./router";
import { useData, A, Loading, Failure, Pager, pageOf, useTitle } from "./ui";

export const isVideoFile = (u: string) => /\.(mp4|webm|ogg)(\?|$)/i.test(u);

function Cover({ w }: { w: BestWorkCard }) {
  return w.coverUrl ? (
    <img className="mp-cover" src={w.coverUrl} alt={w.workName} loading="lazy" />
  ) : (
    <div className="mp-cover mp-cover-empty" aria-hidden="true">
      <span>{w.categoryName}</span>
    </div>
  );
}

export function BestGrid({ items, compact }: { items: BestWorkCard[]; compact?: boolean }) {
  return (
    <div className={`mp-grid${compact ? " mp-grid-compact" : ""}`} data-testid="best-works">
      {items.map((w) => (
        <article key={w.id} className="mp-best">
          {/* The same link as the title's: out of the Tab order and hidden from screen readers (no second, nameless link). */}
          <A to={`/mainpage/work/${w.workId}`} tabIndex={-1} aria-hidden="true">
            <Cover w={w} />
          </A>
          <div className="mp-best-body">
            {w.awardName && <span className="mp-badge">{w.awardName}</span>}
            <h3>
              <A to={`/mainpage/work/${w.workId}`}>{w.workName}</A>
            </h3>
            <p className="mp-muted mp-small">
              {w.schoolName} · {w.authorNames}
            </p>
            {!compact && (
              <p className="mp-muted mp-small">
                {w.contestName} · {w.categoryName}
              </p>
            )}
            {w.text && <p>{w.text}</p>}
            {!compact && w.summary && <p className="mp-muted mp-small mp-clamp">{w.summary}</p>}
            {!compact &&
              w.videoUrl &&
              (isVideoFile(w.videoUrl) ? (
                <video src={w.videoUrl} controls preload="none" className="mp-video" />
              ) : (
                <a href={w.videoUrl} target="_blank" rel="noopener noreferrer">
                  ▶ 观看作品视频
                </a>
              ))}
          </div>
        </article>
      ))}
    </div>
  );
}

export function BestPage({ loc }: { loc: Loc }) {
  useTitle("优秀作品");
  const { data, error } = useData<PageOf<BestWorkCard>>("best-works", { current: pageOf(loc), pageSize: 12 });
  return (
    <section className="mp-card">
      <h1 className="mp-page-title">优秀作品</h1>
      {error ? (
        <Failure error={error} />
      ) : data ? (
        data.list.length ? (
          <>
            <BestGrid items={data.list} />
            <Pager loc={loc} total={data.total} pageSize={12} />
          </>
        ) : (
          <p className="mp-muted">优秀作品即将公布</p>
        )
      ) : (
        <Loading />
      )}
    </section>
  );
}
