/**
 * The browser build's stand-in for react-markdown and remark-gfm. `@refinedev/antd` imports
 * them at the top of its one bundle for its MarkdownField, which no page of the project uses;
 * they were shipped on every admin page and the login pages (about 70 KB gzip of micromark and
 * mdast). vite.config.ts maps both here outside tests: a MarkdownField would show its text
 * as plain text, never as HTML.
 */
import type { ReactNode } from "react";

export default function PlainMarkdown({ children }: { children?: ReactNode }) {
  return <span style={{ whiteSpace: "pre-wrap" }}>{children}</span>;
}
