/**
 * The public main page (issue 14): /mainpage/:section and /mainpage/:section/:id for
 * visitors, in a light layout of its own. Sections: 首页, 新闻, 通知公告, 赛事介绍, 获奖名单,
 * 优秀作品, 往届; articles and works have stable URLs. Lists are paginated on the server
 * (?page=N in the address, so a page can be shared).
 */
import { useEffect, useState, type ReactNode } from "react";
import type {
  Article,
  ArticleItem,
  BestWorkCard,
  Edition,
  EditionItem,
  Home,
  Intro,
  PageOf,
  PublicWork,
  ResultItem,
  ResultOptions,
} from "../../shared/mainpage/schema";
import { ApiError, getPublic } from "./api";
import { SECTIONS, type SectionKey } from "./paths";
import { navigate, onLink, useLocation, withQuery, type Loc } from "./router";
import { LOGIN_CHOICE } from "./home-choice";

// ---------------------------------------------------------------- helpers

const TZ = "Asia/Shanghai";
const dateParts = (iso: string) => {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("zh-CN", { timeZone: TZ, year: "numeric", month: "2-digit", day: "2-digit" })
      .formatToParts(new Date(iso))
      .map((x) => [x.type, x.value]),
  );
  return { y: p.year, m: p.month, d: p.day };
};
export const fmtDate = (iso: string) => {
  const { y, m, d } = dateParts(iso);
  return `${y}-${m}-${d}`;
};
const fmtShort = (iso: string) => {
  const { m, d } = dateParts(iso);
  return `${Number(m)}月${Number(d)}日`;
};
const LEVELS: Record<string, string> = { national: "国赛", provincial: "省赛", school: "校赛" };

function useData<T>(path: string | null, params?: Record<string, string | number | undefined | null>) {
  const key = path === null ? null : path + JSON.stringify(params ?? {});
  const [state, setState] = useState<{ key: string | null; data?: T; error?: ApiError }>({ key: null });
  useEffect(() => {
    if (path === null) return;
    let live = true;
    getPublic<T>(path, params).then(
      (data) => live && setState({ key, data }),
      (error: ApiError) => live && setState({ key, error }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return state.key === key ? state : { key, data: undefined, error: undefined };
}

const A = ({
  to,
  children,
  className,
  ...rest
}: {
  to: string;
  children: ReactNode;
  className?: string;
  "data-testid"?: string;
}) => (
  <a href={to} onClick={onLink} className={className} {...rest}>
    {children}
  </a>
);

function Loading() {
  return (
    <div className="mp-loading" aria-busy="true">
      加载中…
    </div>
  );
}

function Failure({ error }: { error: ApiError }) {
  if (error.status === 404) return <NotFound text={error.message} />;
  return (
    <div className="mp-error" role="alert">
      {error.message}
    </div>
  );
}

function NotFound({ text }: { text?: string }) {
  useEffect(() => {
    document.title = "页面不存在 · 大赛主页";
  }, []);
  return (
    <div className="mp-404" data-testid="error-screen">
      <div className="mp-404-code" data-testid="error-status">
        404
      </div>
      <p>抱歉，您访问的页面不存在，来到了一片没有内容的荒原。</p>
      {text && <p className="mp-muted">{text}</p>}
      <A to="/mainpage/home" className="mp-btn">
        返回大赛主页
      </A>
    </div>
  );
}

function Pager({ loc, total, pageSize }: { loc: Loc; total: number; pageSize: number }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(pages, Math.max(1, Number(loc.search.get("page")) || 1));
  if (pages <= 1) return null;
  const to = (p: number) => {
    const s = new URLSearchParams(loc.search);
    if (p === 1) s.delete("page");
    else s.set("page", String(p));
    const q = s.toString();
    return loc.path + (q ? `?${q}` : "");
  };
  const nums = [...new Set([1, page - 1, page, page + 1, pages])].filter((n) => n >= 1 && n <= pages).sort((a, b) => a - b);
  return (
    <nav className="mp-pager" aria-label="分页">
      {page > 1 ? <A to={to(page - 1)}>上一页</A> : <span className="mp-disabled">上一页</span>}
      {nums.map((n, i) => (
        <span key={n}>
          {i > 0 && n - nums[i - 1] > 1 && <span className="mp-gap">…</span>}
          {n === page ? (
            <span className="mp-current" aria-current="page">
              {n}
            </span>
          ) : (
            <A to={to(n)}>{n}</A>
          )}
        </span>
      ))}
      {page < pages ? <A to={to(page + 1)}>下一页</A> : <span className="mp-disabled">下一页</span>}
      <span className="mp-muted">共 {total} 条</span>
    </nav>
  );
}
const pageOf = (loc: Loc) => Math.max(1, Math.min(1000000, Number(loc.search.get("page")) || 1));

function useTitle(title: string | undefined) {
  useEffect(() => {
    if (title) document.title = `${title} · 中国大学生计算机设计大赛`;
  }, [title]);
}

// ---------------------------------------------------------------- layout

function Emblem() {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" className="mp-emblem">
      <circle cx="32" cy="32" r="30" fill="#fff" />
      <path d="M21 15h22v9c0 6.1-4.9 11-11 11s-11-4.9-11-11z" fill="#b3261e" />
      <path d="M21 18h-5v3.5c0 4 3.1 7.5 7 7.5M43 18h5v3.5c0 4-3.1 7.5-7 7.5" stroke="#b3261e" strokeWidth="3" fill="none" />
      <rect x="29" y="35" width="6" height="7" fill="#b3261e" />
      <rect x="22" y="42" width="20" height="6" rx="2" fill="#b3261e" />
    </svg>
  );
}

function Layout({ section, children }: { section: SectionKey; children: ReactNode }) {
  return (
    <div className="mp">
      <header className="mp-header">
        <div className="mp-wrap mp-brand">
          <A to="/mainpage/home" className="mp-brand-link">
            <Emblem />
            <span>
              <strong>中国大学生计算机设计大赛</strong>
              <small>Chinese Collegiate Computing Competition</small>
            </span>
          </A>
          <a className="mp-login" href={LOGIN_CHOICE} data-testid="mp-login">
            登录 / 注册
          </a>
        </div>
        <nav className="mp-nav" aria-label="栏目">
          <div className="mp-wrap mp-nav-inner">
            {SECTIONS.map((s) => (
              <A
                key={s.key}
                to={`/mainpage/${s.key}`}
                className={s.key === section ? "mp-active" : undefined}
                data-testid={`nav-${s.key}`}
              >
                {s.name}
              </A>
            ))}
          </div>
        </nav>
      </header>
      <main className="mp-wrap mp-main">{children}</main>
      <footer className="mp-footer">
        <div className="mp-wrap">
          <div className="mp-footer-links">
            <a href="/query-work">作品查询</a>
            <a href="/verify-cert">证书查询</a>
            <a href="/complaint">申诉入口</a>
            <a href={LOGIN_CHOICE}>登录赛务平台</a>
          </div>
          <p>中国大学生计算机设计大赛组织委员会 · 赛务平台</p>
        </div>
      </footer>
    </div>
  );
}

// ---------------------------------------------------------------- 首页

function Timeline({ edition }: { edition: Edition }) {
  const now = Date.now();
  const items: ReactNode[] = [];
  let todayShown = false;
  const today = (
    <li key="today" className="mp-tl-today" data-testid="timeline-today">
      <span className="mp-tl-dot" />
      <span className="mp-tl-name">今天</span>
      <span className="mp-tl-date">{fmtShort(new Date(now).toISOString())}</span>
    </li>
  );
  for (const s of edition.stages) {
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
        <span className="mp-tl-date">
          {fmtShort(s.startsAt)} – {fmtShort(s.endsAt)}
        </span>
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

function ArticleList({ items, base, testid }: { items: ArticleItem[]; base: string; testid?: string }) {
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

function HomePage() {
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

// ---------------------------------------------------------------- 新闻 / 通知公告

const PAGE_SIZE = 10;

function ArticlesPage({ kind, loc }: { kind: "news" | "notices"; loc: Loc }) {
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

function ArticlePage({ kind, id }: { kind: "news" | "notices"; id: number }) {
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

// ---------------------------------------------------------------- 赛事介绍

function IntroPage() {
  const { data, error } = useData<Intro>("intro");
  useTitle("赛事介绍");
  if (error) return <Failure error={error} />;
  if (!data) return <Loading />;
  return (
    <>
      <section className="mp-card">
        <h1 className="mp-page-title">赛事介绍</h1>
        {data.edition && (
          <>
            <h2>{data.edition.name}</h2>
            {data.edition.description && <p>{data.edition.description}</p>}
          </>
        )}
        <p>
          大赛实行校级赛、省级赛、国赛三级赛制：校级赛推荐作品参加省级赛，省级赛按名额推荐优秀作品晋级国赛。作品须为参赛学生本人的原创作品，经形式审查、网络评审、现场答辩后公布结果，结果公示期内可提出申诉。
        </p>
        {data.edition && data.edition.stages.length > 0 && <Timeline edition={data.edition} />}
      </section>
      <section className="mp-card">
        <h2>作品类别与评分标准</h2>
        <div className="mp-categories">
          {data.categories.map((c) => (
            <details key={c.id} className="mp-category">
              <summary>
                <strong>{c.name}</strong>
                <span className="mp-muted">
                  作者 {c.minAuthors}–{c.maxAuthors} 人，指导教师不超过 {c.maxTeachers} 人
                </span>
              </summary>
              {c.description && <p>{c.description}</p>}
              {c.subcategories.length > 0 && (
                <p className="mp-tags">
                  {c.subcategories.map((s) => (
                    <span key={s.id} className="mp-tag">
                      {s.name}
                    </span>
                  ))}
                </p>
              )}
              {c.rubric.length > 0 && (
                <table className="mp-table">
                  <thead>
                    <tr>
                      <th>评分项</th>
                      <th>分值</th>
                      <th>说明</th>
                    </tr>
                  </thead>
                  <tbody>
                    {c.rubric.map((r) => (
                      <tr key={r.name}>
                        <td>{r.name}</td>
                        <td>{r.maxPoints}</td>
                        <td>{r.description ?? ""}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </details>
          ))}
        </div>
      </section>
    </>
  );
}

// ---------------------------------------------------------------- 获奖名单

function ResultsPage({ loc }: { loc: Loc }) {
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

// ---------------------------------------------------------------- 优秀作品

const isVideoFile = (u: string) => /\.(mp4|webm|ogg)(\?|$)/i.test(u);

function Cover({ w }: { w: BestWorkCard }) {
  return w.coverUrl ? (
    <img className="mp-cover" src={w.coverUrl} alt={w.workName} loading="lazy" />
  ) : (
    <div className="mp-cover mp-cover-empty" aria-hidden="true">
      <span>{w.categoryName}</span>
    </div>
  );
}

function BestGrid({ items, compact }: { items: BestWorkCard[]; compact?: boolean }) {
  return (
    <div className={`mp-grid${compact ? " mp-grid-compact" : ""}`} data-testid="best-works">
      {items.map((w) => (
        <article key={w.id} className="mp-best">
          <A to={`/mainpage/work/${w.workId}`}>
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

function BestPage({ loc }: { loc: Loc }) {
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

// ---------------------------------------------------------------- 往届

function EditionsPage({ loc }: { loc: Loc }) {
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

// ---------------------------------------------------------------- 作品

function WorkPage({ id }: { id: number }) {
  const { data, error } = useData<PublicWork>(`works/${id}`);
  useTitle(data?.name);
  if (error) return <Failure error={error} />;
  if (!data) return <Loading />;
  const best = data.bestWork;
  return (
    <article className="mp-card mp-work" data-testid="work">
      <nav className="mp-crumbs">
        <A to="/mainpage/home">首页</A> › <A to="/mainpage/results">获奖名单</A>
      </nav>
      <h1>{data.name}</h1>
      <p className="mp-tags">
        {data.awards.map((a) => (
          <span key={a.contestId} className="mp-badge">
            {a.awardName}
          </span>
        ))}
      </p>
      {best?.coverUrl && <img className="mp-work-cover" src={best.coverUrl} alt={data.name} />}
      <dl className="mp-dl">
        <dt>作品编号</dt>
        <dd>{data.workId}</dd>
        <dt>类别</dt>
        <dd>{data.categoryName}</dd>
        <dt>学校</dt>
        <dd>{data.schoolName}</dd>
        <dt>作者</dt>
        <dd>{data.authorNames}</dd>
        {data.teacherNames && (
          <>
            <dt>指导教师</dt>
            <dd>{data.teacherNames}</dd>
          </>
        )}
        {data.awards.map((a) => (
          <span key={a.contestId} style={{ display: "contents" }}>
            <dt>获奖</dt>
            <dd>
              {a.contestName} {a.awardName}
            </dd>
          </span>
        ))}
      </dl>
      {best?.text && <blockquote className="mp-quote">{best.text}</blockquote>}
      {best?.videoUrl &&
        (isVideoFile(best.videoUrl) ? (
          <video src={best.videoUrl} controls preload="none" className="mp-video" />
        ) : (
          <p>
            <a href={best.videoUrl} target="_blank" rel="noopener noreferrer">
              ▶ 观看作品视频
            </a>
          </p>
        ))}
      {data.summary && (
        <>
          <h2>作品简介</h2>
          <p className="mp-pre">{data.summary}</p>
        </>
      )}
    </article>
  );
}

// ---------------------------------------------------------------- the app

const KEYS = new Set<string>(SECTIONS.map((s) => s.key));

function Page({ loc }: { loc: Loc }) {
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
