/**
 * The public main page's small parts: date formats, the data hook over getPublic, links, the loading,
 * failure and not-found states, the pager and the page title.
 */
import { useEffect, useState, type ReactNode } from "react";
import { ApiError, getPublic } from "./api";
import { onLink, type Loc } from "./router";
import { formatBeijing } from "../../shared/time";

export const fmtDate = (iso: string) => formatBeijing(Date.parse(iso), "YYYY-MM-DD");
export const LEVELS: Record<string, string> = { national: "国赛", provincial: "省赛", school: "校赛" };

export function useData<T>(path: string | null, params?: Record<string, string | number | undefined | null>) {
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

export const A = ({
  to,
  children,
  className,
  ...rest
}: {
  to: string;
  children: ReactNode;
  className?: string;
  "data-testid"?: string;
  tabIndex?: number;
  "aria-hidden"?: "true";
}) => (
  <a href={to} onClick={onLink} className={className} {...rest}>
    {children}
  </a>
);

export function Loading() {
  return (
    <div className="mp-loading" aria-busy="true">
      加载中…
    </div>
  );
}

export function Failure({ error }: { error: ApiError }) {
  if (error.status === 404) return <NotFound text={error.message} />;
  return (
    <div className="mp-error" role="alert">
      {error.message}
    </div>
  );
}

export function NotFound({ text }: { text?: string }) {
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

export function Pager({ loc, total, pageSize }: { loc: Loc; total: number; pageSize: number }) {
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
export const pageOf = (loc: Loc) => Math.max(1, Math.min(1000000, Number(loc.search.get("page")) || 1));

export function useTitle(title: string | undefined) {
  useEffect(() => {
    if (title) document.title = `${title} · 中国大学生计算机设计大赛`;
  }, [title]);
}
