/**
 * The public main page's frame: the emblem, the header with the section menu and the footer.
 */
import type { ReactNode } from "react";
import { SECTIONS, type SectionKey } from "./paths";
import { LOGIN_CHOICE } from "./home-choice";
import { A } from "./ui";

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

export function Layout({ section, children }: { section: SectionKey; children: ReactNode }) {
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
