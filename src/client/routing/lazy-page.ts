/**
 * A lazily loaded page with a `preload` that starts the same download ahead of the first render:
 * the router fetches the chunk of the page being opened while it still waits for the current
 * user and permissions, instead of after them (issue 15, heavy pages).
 *
 * A page whose script is already in when it mounts renders at once, in the same pass as the
 * layout around it. React.lazy alone suspends on first use even then (it learns of the finished
 * download only a microtask later), so the layout committed first and the page followed in a
 * second, interruptible pass: on the heavy pages ~150–250 ms later before the first row. A page
 * mounted before its script came uses React.lazy as before, for that mount's whole life (its
 * component type never changes under it).
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
