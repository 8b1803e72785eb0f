/**
 * The address's query for pages that both the admin application and the light public app show
 * (/complaint, /verify-cert: issue 29), through the shared navigation of routing/nav.tsx instead of
 * react-router, which the light app does not download.
 */
import { useCallback, useMemo } from "react";
import { useAppLocation, useAppNavigate } from "./nav";

export function useSearch(): [URLSearchParams, (next: URLSearchParams | Record<string, string>) => void] {
  const { pathname, search } = useAppLocation();
  const go = useAppNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const set = useCallback(
    (next: URLSearchParams | Record<string, string>) => {
      const q = new URLSearchParams(next).toString();
      go(q ? `${pathname}?${q}` : pathname);
    },
    [go, pathname],
  );
  return [params, set];
}
