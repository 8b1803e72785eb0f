/**
 * A vite plugin: in a build, antd's component styles as one static, cached CSS file instead of
 * being generated in every page load (issue 15: heavy pages under a second). In `vite dev` and
 * tests it only provides the virtual module, as null.
 *
 * antd 5 writes its styles at run time (@ant-design/cssinjs): each component's first render
 * builds a style object, serialises it and inserts a <style> tag, ~40 of them before an admin
 * list shows its first row, about a third of the page's main-thread time. antd's documented
 * "whole export" (ant.design/docs/react/server-side-rendering) renders every component once at
 * build time under the app's theme and extracts the CSS, which ends with a rule
 * `.data-ant-cssinjs-cache-path{content:"<path>:<hash>;…"}`. When the page has that file,
 * cssinjs reads the map once (getComputedStyle of a probe element) and for every listed style
 * neither builds nor inserts it. The extractor's one default render of each component skips the
 * portal components (Modal, Drawer, Tooltip, …); extractAntdStyles adds them and a few variants
 * the first screens show. Anything still not in the file (another theme, a nested
 * ConfigProvider, a variant not rendered here) is generated at run time as before, so a stale or
 * missing file costs speed, never looks.
 *
 * Only the admin application loads it (src/client/antd-styles.ts, from main.tsx, alongside the
 * admin bundle, and mounts once it has loaded: cssinjs reads the map once per page, at antd's
 * first render). ~0.9 MB, 60 KB as br, 86 KB gzip: the light login and public entries, which
 * have download-size aims (bench:frontend) and few antd components, keep run-time styles.
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import type { Plugin } from "vite";
import { ANTD_THEME } from "../../client/providers/antd-theme";

/** antd's styles under the app's theme, as CSS with the cache-path map (the extractor's own antd and React instances). */
export function extractAntdStyles(): string {
  // The extractor is CommonJS and renders with require("antd"): the ConfigProvider wrapping its
  // components must come from that same module instance, or the theme would not reach them.
  const require = createRequire(import.meta.url);
  const { extractStyle } = require("@ant-design/static-style-extract") as {
    extractStyle: (wrap?: (node: unknown) => unknown) => string;
  };
  const { createElement } = require("react") as typeof import("react");
  const antd = require("antd") as typeof import("antd");
  // What the extractor's one default render of each component misses and the app shows on its
  // first screens: the layout's sider, tags' preset and status colours, form items, and the
  // portal components it skips (Modal closed, the others as their static panels).
  const panel = (c: unknown) =>
    (c as { _InternalPanelDoNotUseOrYouWillBeFired: import("react").ComponentType<object> })
      ._InternalPanelDoNotUseOrYouWillBeFired;
  const more = [
    createElement(antd.Layout, { key: "layout" }, createElement(antd.Layout.Sider)),
    createElement(antd.Tag, { key: "tag-preset", color: "blue" }),
    createElement(antd.Tag, { key: "tag-status", color: "success" }),
    createElement(antd.Form, { key: "form" }, createElement(antd.Form.Item, { label: "x" }, createElement(antd.Input))),
    // A closed Modal renders nothing but registers its styles (its panel renders under a theme of its own).
    createElement(antd.Modal, { key: "modal", open: false }),
    // A provider inside the app's (a form's componentDisabled, a phone's sizes) registers the
    // icons' reset under the app's theme, not antd's default one: it must be in the file too.
    createElement(antd.ConfigProvider, { key: "nested" }),
    ...[antd.Drawer, antd.Tooltip, antd.Popover, antd.Popconfirm].map((c, i) =>
      createElement(panel(c), { key: `panel-${i}`, title: "x" } as object),
    ),
  ];
  return extractStyle((node) => createElement(antd.ConfigProvider, { theme: ANTD_THEME }, node as never, ...more));
}

const ID = "virtual:antd-styles";
const RESOLVED = "\0" + ID;

/**
 * The module "virtual:antd-styles" is the address of the extracted file in a build, null in
 * `vite dev` and tests (there the class hashes are antd's dev-only ones and styles stay run-time).
 */
export function antdStylesPlugin(): Plugin {
  let base = "/";
  let build = false;
  let file: { fileName: string; source: string } | null = null;
  const styles = () => {
    if (file) return file;
    const source = extractAntdStyles();
    // Dev-mode hashes never match a production bundle's: the file would be dead weight.
    if (source.includes("css-dev-only-do-not-override")) throw new Error("antd styles extracted with NODE_ENV !== production");
    file = { fileName: `assets/antd-${createHash("sha256").update(source).digest("hex").slice(0, 10)}.css`, source };
    return file;
  };
  return {
    name: "saiwu-antd-styles",
    configResolved(config) {
      base = config.base;
      build = config.command === "build" && config.mode !== "test";
    },
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      return `export default ${build ? JSON.stringify(base + styles().fileName) : "null"};`;
    },
    generateBundle() {
      if (!build || !file) return;
      this.emitFile({ type: "asset", fileName: file.fileName, source: file.source });
    },
  };
}
