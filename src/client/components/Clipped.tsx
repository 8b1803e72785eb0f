/**
 * One line cut with "…" by CSS, the whole text in the native tooltip (title). For table
 * cells: antd's Typography ellipsis measures every cell with forced layouts (about 270 ms
 * for a 20-row user list on a busy machine, issue 15); this costs nothing at render.
 */
import type { CSSProperties, ReactNode } from "react";
import { SECONDARY_COLOR } from "./light";

export function Clipped({
  text,
  maxWidth,
  type,
  strong,
  children,
}: {
  text: string;
  maxWidth: number;
  type?: "secondary";
  strong?: boolean;
  children?: ReactNode;
}) {
  const style: CSSProperties = {
    display: "inline-block",
    maxWidth,
    overflow: "hidden",
    textOverflow: "ellipsis",
    whiteSpace: "nowrap",
    verticalAlign: "bottom",
    color: type === "secondary" ? SECONDARY_COLOR : undefined,
    fontWeight: strong ? 600 : undefined,
  };
  return (
    <span style={style} title={text}>
      {children ?? text}
    </span>
  );
}
