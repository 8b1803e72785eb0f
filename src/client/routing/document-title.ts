/** The browser tab's title for a page: "<label> - 赛务平台" (the route's label, or a page's own). */
import { useEffect } from "react";

export function useDocumentTitle(label: string) {
  useEffect(() => {
    document.title = `${label} - 赛务平台`;
  }, [label]);
}
