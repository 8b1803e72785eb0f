/**
 * Plain-markup stand-ins for the antd pieces a table cell repeats on every row: a vertical
 * Space of size 0 (Lines) and a secondary Typography.Text (Muted). They look the same as the
 * antd ones (the theme's colours) but render no antd component: each antd instance
 * registers its CSS-in-JS styles at render, and on a 20-row list the cells' Space and
 * Typography were a good part of the rows' main-thread time (issue 15, like Clipped.tsx).
 */
import { Children, type CSSProperties, type ReactNode } from "react";
import { SECONDARY_TEXT } from "../providers/antd-theme";

/** The theme's colorTextSecondary (providers/antd-theme.ts: #595959, AA on white). */
export const SECONDARY_COLOR = SECONDARY_TEXT;

/** Each child in a block of its own, as antd's Space items (an inline Tag keeps its own width and line box). */
const items = (children: ReactNode) =>
  Children.map(children, (c) => (c === null || c === undefined || c === false || c === "" ? null : <div>{c}</div>));

const LINES: CSSProperties = { display: "inline-flex", flexDirection: "column" };

/** The lines of a cell, one under the other (antd's <Space direction="vertical" size={0}>); empty children are skipped. */
export function Lines({ children, gap, ...rest }: { children: ReactNode; gap?: number; "data-testid"?: string }) {
  return (
    <div style={gap ? { ...LINES, rowGap: gap } : LINES} {...rest}>
      {items(children)}
    </div>
  );
}

/** Secondary text (antd's <Typography.Text type="secondary">), small when `small` (font-size 12). */
export function Muted({ children, small, strong }: { children: ReactNode; small?: boolean; strong?: boolean }) {
  return (
    <span style={{ color: SECONDARY_COLOR, fontSize: small ? 12 : undefined, fontWeight: strong ? 600 : undefined }}>
      {children}
    </span>
  );
}

const INLINE: CSSProperties = { display: "inline-flex", alignItems: "center", flexWrap: "wrap" };

/** Items side by side, centred, wrapping (antd's <Space size={gap} wrap>). */
export function Inline({ children, gap = 8, ...rest }: { children: ReactNode; gap?: number; "data-testid"?: string }) {
  return (
    <div style={{ ...INLINE, gap }} {...rest}>
      {items(children)}
    </div>
  );
}
