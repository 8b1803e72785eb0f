/** The browser build's stand-in for remark-gfm (see no-markdown.tsx): a plugin that does nothing. */
export default function noGfm() {
  return undefined;
}
