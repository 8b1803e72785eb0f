// @vitest-environment jsdom
/**
 * Issue 31 in the client's own pieces: every colour the antd theme uses for text reaches 4.5:1
 * against white and against its own light background; fast review's shortcuts can be single
 * keys, Alt+key or off (WCAG 2.1.4) and the choice is kept; antd's toasts and field errors are
 * copied into live regions that screen readers read aloud.
 */
import { afterEach, describe, expect, test } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { theme } from "antd";
import { ANTD_THEME } from "../../src/client/providers/antd-theme";
import { commandOf, keysOf, setKeyMode, type KeyMode } from "../../src/client/judging/review/review-keys";
import { LiveAnnouncer } from "../../src/client/providers/live-announcer";

/** WCAG relative luminance of an opaque #rrggbb or of rgba() over white. */
function luminance(color: string): number {
  let rgb: number[];
  const m = /^rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)$/.exec(color);
  if (m) {
    const a = m[4] === undefined ? 1 : Number(m[4]);
    rgb = [m[1], m[2], m[3]].map((c) => Number(c) * a + 255 * (1 - a));
  } else {
    const hex = color.replace("#", "");
    rgb = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  }
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

describe("the antd theme's text colours reach AA", () => {
  const t = theme.getDesignToken(ANTD_THEME) as unknown as Record<string, string>;
  test.each([
    "colorPrimary",
    "colorLink",
    "colorText",
    "colorTextSecondary",
    "colorTextTertiary",
    "colorTextDescription",
    "colorTextPlaceholder",
    "colorError",
    "colorSuccess",
    "colorWarning",
  ])("%s on white", (token) => {
    expect(contrast(t[token], "#ffffff")).toBeGreaterThanOrEqual(4.5);
  });
  test("white on the primary button, the primary on the selected menu item", () => {
    expect(contrast("#ffffff", t.colorPrimary)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(t.colorPrimary, t.colorPrimaryBg)).toBeGreaterThanOrEqual(4.5);
  });
  test("status tags: their text on their background", () => {
    for (const s of ["Success", "Warning", "Error", "Info"])
      expect(contrast(t[`color${s}`], t[`color${s}Bg`])).toBeGreaterThanOrEqual(4.5);
  });
  test.each(["blue", "green", "orange", "gold", "cyan", "red", "volcano", "lime", "yellow", "magenta", "purple", "geekblue"])(
    "preset %s tag: its 7th shade on its 1st",
    (c) => {
      expect(contrast(t[`${c}7`], t[`${c}1`])).toBeGreaterThanOrEqual(4.5);
    },
  );
});

describe("fast review's key modes", () => {
  const key = (k: string, extra: Partial<KeyboardEventInit> & { code?: string } = {}) =>
    new KeyboardEvent("keydown", { key: k, code: extra.code ?? (k.length === 1 ? `Key${k.toUpperCase()}` : k), ...extra });
  const run = (mode: KeyMode, e: KeyboardEvent) => {
    document.body.dispatchEvent(e); // sets target
    return commandOf(e, mode);
  };

  test("single keys: letters, Enter and arrows; not with a modifier", () => {
    expect(run("single", key("p"))).toBe("format_pass");
    expect(run("single", key("Enter"))).toBe("format_pass");
    expect(run("single", key("j"))).toBe("next");
    expect(run("single", key("ArrowLeft"))).toBe("prev");
    expect(run("single", key("p", { altKey: true }))).toBeNull();
    expect(run("single", key("p", { ctrlKey: true }))).toBeNull();
  });
  test("Alt+key: only the letters with Alt, by the physical key", () => {
    expect(run("alt", key("p"))).toBeNull();
    expect(run("alt", key("Enter"))).toBeNull();
    expect(run("alt", key("π", { altKey: true, code: "KeyP" }))).toBe("format_pass");
    expect(run("alt", key("x", { altKey: true }))).toBe("format_reject");
    expect(run("alt", key("k", { altKey: true }))).toBe("prev");
  });
  test("off: nothing", () => {
    for (const k of ["p", "r", "x", "u", "j", "k", "Enter", "ArrowRight"]) expect(run("off", key(k))).toBeNull();
    expect(run("off", key("p", { altKey: true }))).toBeNull();
  });
  test("typing in a field is never a command", () => {
    const input = document.createElement("input");
    document.body.append(input);
    const e = key("p");
    input.dispatchEvent(e);
    expect(commandOf(e, "single")).toBeNull();
    input.remove();
  });
  test("the keys shown follow the mode, and the mode is kept in the browser", () => {
    expect(keysOf("format_pass", "single")).toEqual(["P", "Enter"]);
    expect(keysOf("next", "single")).toEqual(["J", "→"]);
    expect(keysOf("format_pass", "alt")).toEqual(["Alt+P"]);
    expect(keysOf("format_pass", "off")).toEqual([]);
    setKeyMode("off");
    expect(localStorage.getItem("saiwu.fastReview.keys")).toBe("off");
    setKeyMode("single");
  });
});

describe("live announcements", () => {
  afterEach(cleanup);
  test("a new error toast and a new field error are copied into the live regions", async () => {
    render(<LiveAnnouncer />);
    const toast = document.createElement("div");
    toast.className = "ant-message-notice";
    toast.innerHTML = '<div class="ant-message-custom-content ant-message-error"><span>保存失败：作品名称已存在</span></div>';
    const fieldError = document.createElement("div");
    fieldError.className = "ant-form-item-explain-error";
    fieldError.textContent = "请填写作品名称";
    const info = document.createElement("div");
    info.className = "ant-message-notice";
    info.innerHTML = '<div class="ant-message-custom-content ant-message-success"><span>已保存</span></div>';
    document.body.append(toast, fieldError, info);
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.getByTestId("live-urgent").textContent).toBe("保存失败：作品名称已存在。请填写作品名称");
    expect(screen.getByTestId("live-urgent").getAttribute("role")).toBe("alert");
    expect(screen.getByTestId("live-polite").textContent).toBe("已保存");
    expect(screen.getByTestId("live-polite").getAttribute("aria-live")).toBe("polite");
    toast.remove();
    fieldError.remove();
    info.remove();
  });
});
