/** The platform's emblem: a trophy in a blue disc. */
import type { CSSProperties, Ref } from "react";

export function Logo({ style, title = "赛务平台", ref }: { style?: CSSProperties; title?: string; ref?: Ref<SVGSVGElement> }) {
  return (
    <svg ref={ref} viewBox="0 0 64 64" role="img" aria-label={title} style={{ display: "block", ...style }}>
      <circle cx="32" cy="32" r="30" fill="#1677ff" />
      <path d="M21 15h22v9c0 6.1-4.9 11-11 11s-11-4.9-11-11z" fill="#fff" />
      <path d="M21 18h-5v3.5c0 4 3.1 7.5 7 7.5M43 18h5v3.5c0 4-3.1 7.5-7 7.5" stroke="#fff" strokeWidth="3" fill="none" />
      <rect x="29" y="35" width="6" height="7" fill="#fff" />
      <rect x="22" y="42" width="20" height="6" rx="2" fill="#fff" />
    </svg>
  );
}
