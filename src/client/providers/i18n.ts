/** refine's i18nProvider: Chinese for refine's own labels, {{name}} interpolation. */
import type { I18nProvider } from "@refinedev/core";
import { ZH_CN } from "./i18n-zh";
import { resourceMeta } from "./resources";

export const LOCALE = "zh-CN";

export function interpolate(text: string, values: unknown): string {
  if (!values || typeof values !== "object") return text;
  const v = values as Record<string, unknown>;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    name in v && v[name] !== undefined ? String(v[name]) : whole,
  );
}

export function translate(key: string, options?: unknown, defaultMessage?: string): string {
  const text = ZH_CN[key];
  if (text !== undefined) return interpolate(text, options);
  // refine names a resource in its messages as "<name>.<name>": use the resource's Chinese label.
  const [name, again] = key.split(".");
  const label = again === name ? resourceMeta(name)?.label : undefined;
  if (label) return label;
  if (defaultMessage !== undefined) return interpolate(defaultMessage, options);
  if (typeof options === "string") return options;
  return key;
}

export const i18nProvider: I18nProvider = {
  translate,
  changeLocale: () => Promise.resolve(),
  getLocale: () => LOCALE,
};
