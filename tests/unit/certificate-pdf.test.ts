/**
 * The certificate renderer's pure parts: the split of a text into runs per font (rare
 * characters from the fallback font, real glyphs, not .notdef), CERT_FONT_FALLBACKS, the
 * refusal of a character no font has, line breaking, shrinking and alignment in a field box,
 * the QR path (and a production-length verification URL decoding back from its code), and
 * the background image header checks.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_FALLBACKS,
  fallbackSpecs,
  fontSet,
  measuredRuns,
  missingCharacter,
  printable,
  splitRuns,
} from "../../src/server/certificate/fonts";
import { assertPrintable, baselineOffset, fitText, placeField, unprintable, wrap, units } from "../../src/server/certificate/pdf";
import jsQR from "jsqr";
import { qrPath, qrRuns } from "../../src/server/certificate/qr";
import { imageInfo } from "../../src/server/certificate/templates";
import { defaultLayout, LINE_HEIGHT, MM_PT, SAMPLE_FACTS, type TextField } from "../../src/shared/certificate/layout";
import { DomainError } from "../../src/shared/errors";

const HAS_CJK = existsSync(DEFAULT_FALLBACKS.regular.split("#")[0]);
const fonts = fontSet(undefined);
const none = fontSet("");
const file = (p: string) => p.split("/").pop();

describe("runs per font", () => {
  it("keeps BMP and Extension A characters in Noto Sans SC, every glyph a real one", () => {
    const runs = measuredRuns("欧阳䶮 Li", fonts.regular);
    expect(runs).toHaveLength(1);
    expect(file(runs[0].face.path)).toBe("NotoSansSC_400Regular.ttf");
    expect(runs[0].glyphs).toHaveLength(6);
    expect(runs[0].glyphs.every((g) => g > 0)).toBe(true);
  });

  it.skipIf(!HAS_CJK)(
    "takes an Extension B character (𠮷) from the fallback face, with a real glyph, and goes back to the primary after it",
    () => {
      const runs = measuredRuns("欧阳䶮𠮷明", fonts.regular);
      expect(runs.map((r) => [file(r.face.path), r.face.postscriptName ?? null, r.text])).toEqual([
        ["NotoSansSC_400Regular.ttf", null, "欧阳䶮"],
        ["NotoSansCJK-Regular.ttc", "NotoSansCJKsc-Regular", "𠮷"],
        ["NotoSansSC_400Regular.ttf", null, "明"],
      ]);
      for (const r of runs)
        expect(
          r.glyphs.every((g) => g > 0),
          r.text,
        ).toBe(true);
      expect(runs[1].glyphs).toHaveLength(1);
      // Bold: the bold collection face.
      const bold = measuredRuns("𠮷", fonts.bold);
      expect(bold[0].face.postscriptName).toBe("NotoSansCJKsc-Bold");
      expect(bold[0].glyphs[0]).toBeGreaterThan(0);
    },
  );

  it("a space stays in the run before it; default-ignorable characters are dropped", () => {
    expect(printable("王\u200D小\uFE0F明\t甲")).toBe("王小明 甲");
    const runs = splitRuns("䶮 A", fonts.regular);
    expect(runs.map((r) => r.text)).toEqual(["䶮 A"]);
  });

  it("without fallbacks (CERT_FONT_FALLBACKS set empty) 𠮷 has no font; U+10FFFD never has one", () => {
    expect(fallbackSpecs("", "regular")).toEqual([]);
    expect(fallbackSpecs(" /a.ttf , /b.ttc#X ", "bold")).toEqual(["/a.ttf", "/b.ttc#X"]);
    expect(missingCharacter("欧阳䶮𠮷", none.regular)).toBe("𠮷");
    expect(missingCharacter("欧阳䶮", none.regular)).toBeNull();
    expect(missingCharacter("王\u{10FFFD}", fonts.regular)).toBe("\u{10FFFD}");
    expect(() => splitRuns("𠮷", none.regular)).toThrow(/U\+20BB7/);
  });

  it("a missing fallback file is a clear error", () => {
    const set = fontSet("/nonexistent/font.ttf");
    expect(() => set.regular.faceFor(0x20bb7)).toThrow("证书字体文件不存在：/nonexistent/font.ttf");
  });

  it("the check before printing names the certificate, the holder, the field and the character", () => {
    const layout = defaultLayout("work");
    const facts = { ...SAMPLE_FACTS, holderName: "王\u{10FFFD}" };
    expect(unprintable({ facts, layout }, fonts)).toEqual({ field: "正文", char: "\u{10FFFD}" });
    try {
      assertPrintable({ facts, layout }, fonts);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).status).toBe(400);
      expect((e as DomainError).info).toContain(
        `证书 ${SAMPLE_FACTS.number}（王\u{10FFFD}）的「正文」中有字符「\u{10FFFD}」（U+10FFFD）`,
      );
      expect((e as DomainError).info).toContain("fonts-noto-cjk");
      expect((e as DomainError).info).toContain("CERT_FONT_FALLBACKS");
    }
    expect(unprintable({ facts: SAMPLE_FACTS, layout }, none)?.char).toBe("𠮷");
    if (HAS_CJK) expect(unprintable({ facts: SAMPLE_FACTS, layout }, fonts)).toBeNull();
  });
});

describe("fitting a text in a field box", () => {
  const chain = fonts.regular;
  const em = (s: string) => measuredRuns(s, chain).reduce((a, r) => a + r.em, 0);

  it("a short text stays on one line at its size", () => {
    expect(fitText("一等奖", chain, 300, 30, 1)).toEqual({ size: 30, lines: ["一等奖"] });
  });

  it("CJK breaks between characters; closing punctuation never starts a line, opening never ends one", () => {
    // Room for 5 ideographs per line (1 em each).
    const lines = wrap(units("在大赛（省级）中荣获一等奖。", chain), 5.01, chain);
    expect(lines.join("")).toBe("在大赛（省级）中荣获一等奖。");
    for (const l of lines) {
      expect(/^[）。，]/.test(l), l).toBe(false);
      expect(/（$/.test(l), l).toBe(false);
      expect(em(l)).toBeLessThanOrEqual(5.01 + 1e-6);
    }
  });

  it("Latin words and numbers are kept whole, spaces at a break dropped", () => {
    const lines = wrap(units("Deep learning for ancient books 2026-ZJ-1-000123", chain), 9, chain);
    expect(lines).toContain("2026-ZJ-1-000123");
    for (const l of lines) expect(l).toBe(l.trim());
    expect(lines.join(" ")).toBe("Deep learning for ancient books 2026-ZJ-1-000123");
  });

  it("wraps to maxLines, then shrinks to the largest size that fits", () => {
    const text = SAMPLE_FACTS.contestName;
    const width = 100 * MM_PT;
    const two = fitText(text, chain, width, 12, 2);
    expect(two.size).toBe(12);
    expect(two.lines.length).toBe(2);
    const one = fitText(text, chain, width, 12, 1);
    expect(one.lines).toHaveLength(1);
    expect(one.size).toBeLessThan(12);
    expect(em(one.lines[0]) * one.size).toBeLessThanOrEqual(width + 0.01);
    // 0.1 pt larger would not fit on one line.
    expect(em(text) * (one.size + 0.1)).toBeGreaterThan(width);
    // A word wider than the box is cut rather than overflowing.
    const cut = fitText("ABCDEFGHIJKLMNOPQRSTUVWXYZ", chain, 20, 12, 4);
    for (const l of cut.lines) expect(em(l) * cut.size).toBeLessThanOrEqual(20.01);
    expect(cut.lines.join("")).toBe("ABCDEFGHIJKLMNOPQRSTUVWXYZ");
  });

  it("places lines LINE_HEIGHT apart from the field's top, aligned in the box", () => {
    const base: TextField = { key: "body", x: 20, y: 30, width: 200, fontSize: 18, align: "center", maxLines: 2 };
    const text = "在2026 年（第 19 届）中国大学生计算机设计大赛浙江省级赛（人工智能应用）中荣获";
    const c = placeField(base, text, chain);
    expect(c.size).toBe(18);
    expect(c.lines).toHaveLength(2);
    const top = 30 * MM_PT;
    expect(c.lines[0].baseline).toBeCloseTo(top + baselineOffset(chain.primary, 18), 6);
    expect(c.lines[1].baseline - c.lines[0].baseline).toBeCloseTo(LINE_HEIGHT * 18, 6);
    // CSS: ascent + descent centred in the line box (Noto: 1.16 + 0.288 em).
    expect(baselineOffset(chain.primary, 10)).toBeCloseTo((10 * (1.25 - 1.16 - 0.288)) / 2 + 11.6, 6);
    const left = 20 * MM_PT;
    const right = 220 * MM_PT;
    for (const l of c.lines) expect((l.runs[0].x - left + (l.runs[0].x + l.width - right)) / 2).toBeCloseTo(0, 6);
    const r = placeField({ ...base, align: "right" }, "一等奖", chain);
    expect(r.lines[0].runs[0].x + r.lines[0].width).toBeCloseTo(right, 6);
    const l = placeField({ ...base, align: "left" }, "一等奖", chain);
    expect(l.lines[0].runs[0].x).toBeCloseTo(left, 6);
  });

  it.skipIf(!HAS_CJK)("runs of a line follow each other at their measured widths", () => {
    const p = placeField({ key: "holderName", x: 0, y: 0, width: 200, fontSize: 20, align: "left" }, "欧阳䶮𠮷明", chain);
    const runs = p.lines[0].runs;
    expect(runs).toHaveLength(3);
    for (let i = 1; i < runs.length; i++) expect(runs[i].x).toBeCloseTo(runs[i - 1].x + runs[i - 1].em * 20, 6);
  });
});

describe("QR path and background images", () => {
  it("the QR path covers the modules inside a 2-module quiet zone", () => {
    const { size, path } = qrPath("http://localhost:8080/verify-cert?number=2026-ZJ-1-000123&code=abc");
    expect(size).toBeGreaterThanOrEqual(25);
    const xs = [...path.matchAll(/M(\d+) (\d+)h(\d+)/g)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])]);
    expect(Math.min(...xs.map((x) => x[0]))).toBe(2);
    expect(Math.min(...xs.map((x) => x[1]))).toBe(2);
    expect(Math.max(...xs.map((x) => x[0] + x[2]))).toBe(size - 2);
    expect(Math.max(...xs.map((x) => x[1]))).toBe(size - 3);
  });

  it("a production verification URL (https, about 150 characters) is a version 9 code that decodes back to the URL", () => {
    const url =
      "https://saiwu.example.edu.cn/verify-cert?number=2026-JS-1-000040&code=9a5f5429c81e.hpDTAzmSuYnXUoKrJE68I3Tz9FrFelpQjVgu72p1OX9ia4Aeay1waFy-h821ix-urCABBdYiVMzKCOARIAJUCQ";
    const { size, runs } = qrRuns(url);
    // Version 9 has 53 modules a side, plus the 2-module quiet zone on each side.
    expect(size).toBe(53 + 4);
    // Drawn 4 px per module with a wider white margin, as a scanner would see the page.
    const px = 4;
    const side = (size + 8) * px;
    const rgba = new Uint8ClampedArray(side * side * 4).fill(255);
    for (const [x, y, len] of runs)
      for (let dy = 0; dy < px; dy++)
        for (let dx = 0; dx < len * px; dx++) {
          const at = (((y + 4) * px + dy) * side + (x + 4) * px + dx) * 4;
          rgba[at] = rgba[at + 1] = rgba[at + 2] = 0;
        }
    expect(jsQR(rgba, side, side)?.data).toBe(url);
  });

  it("reads PNG and JPEG sizes from their headers and refuses anything else", () => {
    const png = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(png);
    png.write("IHDR", 12, "latin1");
    png.writeUInt32BE(3508, 16);
    png.writeUInt32BE(2480, 20);
    expect(imageInfo(png)).toEqual({ type: "image/png", width: 3508, height: 2480 });
    // SOI, APP0 (16 bytes), SOF2 (progressive) 600 × 800.
    const jpg = Buffer.from([
      0xff,
      0xd8,
      0xff,
      0xe0,
      0,
      16,
      ...Array(14).fill(0),
      0xff,
      0xc2,
      0,
      17,
      8,
      0x03,
      0x20,
      0x02,
      0x58,
      3,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
    ]);
    expect(imageInfo(jpg)).toEqual({ type: "image/jpeg", width: 600, height: 800 });
    expect(imageInfo(Buffer.from("%PDF-1.7 not an image"))).toBeNull();
    expect(imageInfo(Buffer.from("GIF89a......"))).toBeNull();
  });
});
