/**
 * A lazily loaded page with a `preload` that starts the same download ahead of the first render:
 * the router fetches the chunk of the page being opened while it still waits for the current
 * user and permissions, instead of after them (issue 15, heavy pages).
 *
 * A page whose script is already in when it mounts renders at once, in the same pass as the
 * layout around it. React.lazy alone suspends on first use even then (it learns of the finished
 * download only a microtask later): the layout committed with the loading logo, and React showed
 * the page in a second pass no sooner than 300 ms after the logo (its Suspense reveal throttle),
 * ~250 ms more before the first row of a heavy page or the login form. A page mounted before its
 * script came uses React.lazy as before, for that mount's whole life (its component type never
 * changes under it).
 */
import { createElement, lazy, useState, type ComponentProps, type ComponentType } from "react";

/** Used as the page itself (it takes the page's props). */
export type PreloadableLazy<T extends ComponentType<any>> = T & { preload: () => Promise<unknown> };

export function lazyPage<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): PreloadableLazy<T> {
  let loading: Promise<{ default: T }> | undefined;
  let loaded: T | undefined;
  const once = () => {
    // A failed download may be retried (the next render or preload asks again).
    loading ??= load().then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (e) => {
        loading = undefined;
        throw e;
      },
    );
    return loading;
  };
  const Lazy = lazy(once);
  function LazyPage(props: ComponentProps<T>) {
    const [Ready] = useState(() => loaded);
    return Ready ? createElement(Ready, props) : createElement(Lazy, props);
  }
  return Object.assign(LazyPage as unknown as T, { preload: once });
}

/** How long a first render waits for the opened page's script, at most (waitForPage). */
export const PAGE_WAIT_MS = 1500;

/**
 * Resolves when the page's script is in (or failed), or after PAGE_WAIT_MS. The entries render
 * first after it (the router's root loader, the light login entry), so that the frame and a page
 * render as one: a page that suspends shows the loading logo, and React then reveals the page no
 * sooner than 300 ms after the logo appeared (its Suspense throttle).
 */
export async function waitForPage(download: Promise<unknown> | undefined): Promise<void> {
  if (!download) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([download.catch(() => {}), new Promise((resolve) => (timer = setTimeout(resolve, PAGE_WAIT_MS)))]);
  clearTimeout(timer);
}
