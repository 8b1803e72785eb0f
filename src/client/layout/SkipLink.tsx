/**
 * 「跳到主要内容」: the first stop of the Tab key on every page with the menu (WCAG 2.4.1). Out of
 * sight until it has the focus; following it moves the focus to the page's <main> (without
 * changing the address, so the router does not see a new location).
 */
import { useState, type CSSProperties } from "react";
import { theme } from "antd";

export const MAIN_ID = "main-content";

const hidden: CSSProperties = { position: "absolute", left: -10000, top: 0, width: 1, height: 1, overflow: "hidden" };

export function SkipLink() {
  const { token } = theme.useToken();
  const [focused, setFocused] = useState(false);
  const shown: CSSProperties = {
    position: "fixed",
    left: 8,
    top: 8,
    zIndex: 2000,
    padding: "12px 16px",
    background: token.colorBgElevated,
    color: token.colorPrimary,
    border: `2px solid ${token.colorPrimary}`,
    borderRadius: token.borderRadius,
    boxShadow: token.boxShadow,
  };
  return (
    <a
      href={`#${MAIN_ID}`}
      style={focused ? shown : hidden}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      onClick={(e) => {
        e.preventDefault();
        const main = document.getElementById(MAIN_ID);
        main?.focus();
        main?.scrollIntoView();
      }}
      data-testid="skip-link"
    >
      跳到主要内容
    </a>
  );
}
