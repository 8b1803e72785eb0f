/**
 * antd's styles as the build's static CSS file (src/server/static/antd-styles.ts) for the admin
 * application: with it loaded before antd's first render, cssinjs neither builds nor inserts the
 * styles it lists. Resolves once the file has loaded or failed (then styles are made at run time,
 * as in dev); never rejects. main.tsx calls it once, before the admin application mounts. Put
 * first in <head>, where cssinjs puts its own, so the app's CSS still comes after antd's.
 */
import href from "virtual:antd-styles";

export function loadAntdStyles(): Promise<void> {
  if (!href) return Promise.resolve();
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  const loaded = new Promise<void>((resolve) => {
    link.onload = link.onerror = () => resolve();
  });
  document.head.prepend(link);
  return loaded;
}
