/**
 * React.lazy with a `preload` that starts the same download ahead of the first render: the
 * router fetches the chunk of the page being opened while it still waits for the current
 * user and permissions, instead of after them (issue 15, heavy pages).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from "react";

export type PreloadableLazy<T extends ComponentType<any>> = LazyExoticComponent<T> & { preload: () => Promise<unknown> };

export function lazyPage<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): PreloadableLazy<T> {
  let loading: Promise<{ default: T }> | undefined;
  const once = () => {
    // A failed download may be retried (the next render or preload asks again).
    loading ??= load().catch((e) => {
      loading = undefined;
      throw e;
    });
    return loading;
  };
  return Object.assign(lazy(once), { preload: once });
}
