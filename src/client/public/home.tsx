/**
 * The public main page's 首页: the edition's timeline, the latest news and notices, quick links, best works.
 */
import type { ReactNode } from "react";
import type { ArticleItem, Edition, Home } from "../../shared/mainpage/schema";
import { inStageOrder, stageDates } from "../../shared/contest/stage-dates";
import { fmtDate, LEVELS, useData, A, Loading, Failure, useTitle } from "./ui";
import { BestGrid } from "./best";

/** The edition's stages in the contest's order (报名 first, 申诉 last), each with its dates and years. */
export function Timeline({ edition }: { edition: Edition }) {
  const now = Date.now();
  const items: ReactNode[] = [];
  let todayShown = false;
  const today = (
    <li key="today" className="mp-tl-today" data-testid="timeline-today">
      <span className="mp-tl-dot" />
      <span className="mp-tl-name">今天</span>
      <span className="mp-tl-date">{fmtDate(new Date(now).toISOString())}</span>
    </li>
  );
  for (const s of inStageOrder(edition.stages)) {
    const start = Date.parse(s.startsAt);
    const end = Date.parse(s.endsAt);
    const state = end <= now ? "done" : start <= now ? "current" : "next";
    if (state === "next" && !todayShown) {
      items.push(today);
      todayShown = true;
    }
    items.push(
      <li key={s.stage} className={`mp-tl-${state}`} aria-current={state === "current" ? "step" : undefined}>
        <span className="mp-tl-dot" />
        <span className="mp-tl-name">
          {s.name}
          {state === "current" && <em>进行中</em>}
        </span>
        <span className="mp-tl-date">{stageDates(s.startsAt, s.endsAt)}</span>
      </li>,
    );
    if (state === "current") todayShown = true;
  }
  if (!todayShown) items.push(today);
  return (
    <ol className="mp-timeline" data-testid="timeline">
      {items}
    </ol>
  );
}

export function ArticleList({ items, base, testid }: { items: ArticleItem[]; base: string; testid?: string }) {
  if (!items.length) return <p className="mp-muted">暂无内容</p>;
  return (
    <ul className="mp-articles" {...(testid === "news" ? { "data-news-list": "" } : {})} data-testid={testid}>
      {items.map((n) => (
        <li key={n.id}>
          <A to={`${base}/${n.id}`}>
            <span className="mp-article-title">{n.title}</span>
            <span className="mp-article-meta">
              <time dateTime={n.publishAt}>{fmtDate(n.publishAt)}</time>
              {n.contestName && <span>{n.contestName}</span>}
            </span>
            {n.summary && <span className="mp-article-summary">{n.summary}</span>}
          </A>
        </li>
      ))}
    </ul>
  );
}

const icon = (d: string) => (
  <svg
    viewBox="0 0 24 24"
    width="26"
    height="26"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.8"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
  >
    <path d={d} />
  </svg>
);
const QUICK = [
  {
    href: "/query-work",
    title: "作品查询",
    text: "凭作品编号和作者姓名查询参赛与获奖情况",
    icon: icon("M10.5 18a7.5 7.5 0 1 1 0-15 7.5 7.5 0 0 1 0 15zM16 16l5 5"),
  },
  {
    href: "/verify-cert",
    title: "证书查询",
    text: "核验获奖证书的真伪",
    icon: icon("M12 15a6 6 0 1 0 0-12 6 6 0 0 0 0 12zM8.5 14 7 22l5-3 5 3-1.5-8M9.5 9l1.8 1.8L15 7"),
  },
  { href: "/complaint", title: "申诉入口", text: "对评审结果提出申诉或投诉", icon: icon("M4 4h16v12H8l-4 4zM8 9h8M8 12h5") },
];

export function HomePage() {
  const { data, error } = useData<Home>("home");
  useTitle("大赛主页");
  if (error) return <Failure error={error} />;
  return (
    <>
      <section className="mp-hero">
        <div>
          <p className="mp-hero-kicker">
            {data?.edition ? `${data.edition.year} 年 · ${LEVELS[data.edition.level]}` : "本届赛事"}
          </p>
          <h1>{data?.edition?.name ?? "中国大学生计算机设计大赛"}</h1>
          <p className="mp-hero-text">{data?.edition?.description ?? "校级赛 → 省级赛 → 国赛，三级赛制，面向全国高校本科生。"}</p>
          <div className="mp-hero-actions">
            <a className="mp-btn mp-btn-light" href="/account/StudentLogin">
              学生报名
            </a>
            <A to="/mainpage/intro" className="mp-btn mp-btn-ghost">
              了解赛事
            </A>
          </div>
        </div>
      </section>
      {data?.edition && data.edition.stages.length > 0 && (
        <section className="mp-card">
          <h2>赛程安排</h2>
          <Timeline edition={data.edition} />
        </section>
      )}
      <div className="mp-quick">
        {QUICK.map((q) => (
          <a key={q.href} href={q.href} className="mp-quick-item" data-quick={q.href}>
            <span className="mp-quick-icon" aria-hidden="true">
              {q.icon}
            </span>
            <span>
              <strong>{q.title}</strong>
              <small>{q.text}</small>
            </span>
          </a>
        ))}
      </div>
      <div className="mp-cols">
        <section className="mp-card">
          <div className="mp-card-head">
            <h2>新闻动态</h2>
            <A to="/mainpage/news">更多 ›</A>
          </div>
          {data ? <ArticleList items={data.news} base="/mainpage/news" testid="news" /> : <Loading />}
        </section>
        <section className="mp-card">
          <div className="mp-card-head">
            <h2>通知公告</h2>
            <A to="/mainpage/notices">更多 ›</A>
          </div>
          {data ? <ArticleList items={data.notices} base="/mainpage/notices" testid="notices" /> : <Loading />}
        </section>
      </div>
      {data && data.bestWorks.length > 0 && (
        <section className="mp-card">
          <div className="mp-card-head">
            <h2>优秀作品</h2>
            <A to="/mainpage/best">更多 ›</A>
          </div>
          <BestGrid items={data.bestWorks} compact />
        </section>
      )}
    </>
  );
}
