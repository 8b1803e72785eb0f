/**
 * The fonts certificates print with, and the split of a text into runs per font.
 *
 * Primary: Noto Sans SC (the TTF of @expo-google-fonts/noto-sans-sc, regular and bold). It
 * covers the BMP's CJK and Extension A (䶮 U+4DAE) but not Extension B and beyond (𠮷
 * U+20BB7), which some names use. So each weight is a chain: the primary, then the fallbacks
 * of CERT_FONT_FALLBACKS (comma-separated `path` or `path#PostScriptName` for a .ttc/.otc
 * collection; set but empty = no fallbacks), by default the system's Noto Sans CJK SC
 * (/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc and -Bold.ttc, from Debian's
 * fonts-noto-cjk) when installed; bold text falls back to the regular faces last.
 *
 * Every character takes the first face of the chain that has a glyph for it (fontkit's
 * cmap lookup); a space keeps the face of the character before it, so a run is not cut at
 * every space. A character no face has is reported by missingCharacter (printing is then
 * refused before anything is written). Default-ignorable characters (variation selectors,
 * zero-width joiners) are dropped: no face draws them on their own.
 *
 * Files are read and parsed once per process (the primary at first use, fallbacks when a
 * character needs them); widths are measured here with fontkit, in em, so the text fitting
 * (pdf.ts) can try sizes without laying out again.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type * as fontkit from "fontkit";
import { lazyRequire } from "../lazy-require";

const fontkitLib = lazyRequire<typeof fontkit>("fontkit");
import { DomainError } from "../../shared/errors";

/** A font that cannot be used: the server's configuration, told to whoever prints (and logged as a 500). */
const fontError = (info: string) => new DomainError(500, info);

export interface FontFace {
  /** the name the face is registered under in a PDF document */
  id: string;
  path: string;
  /** for a face of a collection */
  postscriptName?: string;
  /** the file's bytes (pdfkit embeds a subset from them) */
  buffer: Buffer;
  font: fontkit.Font;
  /** ascent and descent (positive) in em */
  ascent: number;
  descent: number;
}

export interface Run {
  face: FontFace;
  text: string;
}

export interface MeasuredRun extends Run {
  /** advance width in em (× the font size = points) */
  em: number;
  /** the glyph ids the run draws with (0 would be .notdef, a blank box) */
  glyphs: number[];
}

export const DEFAULT_FALLBACKS = {
  regular: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc#NotoSansCJKsc-Regular",
  bold: "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc#NotoSansCJKsc-Bold",
};

const require = createRequire(import.meta.url);
export const PRIMARY = {
  regular: require.resolve("@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf"),
  bold: require.resolve("@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf"),
};

const buffers = new Map<string, Buffer>();
const faces = new Map<string, FontFace>();

/** One face of a file (`path` or `path#PostScriptName`), loaded once per process. */
export function loadFace(spec: string): FontFace {
  const known = faces.get(spec);
  if (known) return known;
  const hash = spec.lastIndexOf("#");
  const path = hash > 0 ? spec.slice(0, hash) : spec;
  const postscriptName = hash > 0 ? spec.slice(hash + 1) : undefined;
  if (!existsSync(path)) throw fontError(`证书字体文件不存在：${path}（请检查 CERT_FONT_FALLBACKS）`);
  let buffer = buffers.get(path);
  if (!buffer) buffers.set(path, (buffer = readFileSync(path)));
  let created: ReturnType<typeof fontkit.create>;
  try {
    created = fontkitLib().create(buffer);
  } catch {
    throw fontError(`证书字体文件无法读取：${path}（应为 TTF、OTF 或 TTC 字体，请检查 CERT_FONT_FALLBACKS）`);
  }
  let font: fontkit.Font | null;
  if ("fonts" in created) {
    if (!postscriptName)
      throw fontError(
        `证书字体 ${path} 是字体集，请写成 ${path}#PostScript 名称（可用：${created.fonts.map((f) => f.postscriptName).join("、")}）`,
      );
    font = created.getFont(postscriptName);
    if (!font)
      throw fontError(
        `证书字体集 ${path} 中没有 ${postscriptName}（可用：${created.fonts.map((f) => f.postscriptName).join("、")}）`,
      );
  } else font = created;
  const face: FontFace = {
    id: `F${faces.size}`,
    path,
    postscriptName: "fonts" in created ? postscriptName : undefined,
    buffer,
    font,
    ascent: font.ascent / font.unitsPerEm,
    descent: Math.abs(font.descent) / font.unitsPerEm,
  };
  faces.set(spec, face);
  return face;
}

/** A weight's faces in order, the fallbacks loaded on first need. */
export class FontChain {
  #fallbacks: FontFace[] | null = null;
  readonly #cache = new Map<number, FontFace | null>();
  constructor(
    readonly primary: FontFace,
    private readonly fallbackSpecs: () => string[],
    private readonly after: FontChain | null = null,
  ) {}

  get fallbacks(): FontFace[] {
    this.#fallbacks ??= this.fallbackSpecs().map(loadFace);
    return this.#fallbacks;
  }

  /** The first face with a glyph for the code point, or null. */
  faceFor(cp: number): FontFace | null {
    let face = this.#cache.get(cp);
    if (face !== undefined) return face;
    face = this.primary.font.hasGlyphForCodePoint(cp)
      ? this.primary
      : (this.fallbacks.find((f) => f.font.hasGlyphForCodePoint(cp)) ?? this.after?.faceFor(cp) ?? null);
    if (this.#cache.size < 50_000) this.#cache.set(cp, face);
    return face;
  }
}

export interface FontSet {
  regular: FontChain;
  bold: FontChain;
}

/** The fallback specs of CERT_FONT_FALLBACKS (undefined: the defaults that exist; "": none). */
export function fallbackSpecs(env: string | undefined, weight: "regular" | "bold"): string[] {
  if (env === undefined) {
    const spec = DEFAULT_FALLBACKS[weight];
    return existsSync(spec.slice(0, spec.lastIndexOf("#"))) ? [spec] : [];
  }
  return env
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const sets = new Map<string, FontSet>();

/** The fonts of this process for a CERT_FONT_FALLBACKS value (one set per value, kept). */
export function fontSet(env: string | undefined = process.env.CERT_FONT_FALLBACKS): FontSet {
  const key = env === undefined ? "\u0000default" : env;
  let set = sets.get(key);
  if (!set) {
    const regular = new FontChain(loadFace(PRIMARY.regular), () => fallbackSpecs(env, "regular"));
    const bold = new FontChain(loadFace(PRIMARY.bold), () => fallbackSpecs(env, "bold"), regular);
    sets.set(key, (set = { regular, bold }));
  }
  return set;
}

// Lone variation selectors and joiners are exactly what this class is for.
// eslint-disable-next-line no-misleading-character-class
const IGNORABLE = /[\u00AD\u034F\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFE00-\uFE0F\uFEFF]|[\u{E0000}-\u{E0FFF}]/gu;

/** The text as printed: line breaks and tabs as spaces, default-ignorable characters dropped. */
export const printable = (text: string) => text.replace(/[\t\r\n\u000B\u000C]/g, " ").replace(IGNORABLE, "");

/** The first character of the text that no face of the chain can draw (after `printable`). */
export function missingCharacter(text: string, chain: FontChain): string | null {
  for (const ch of printable(text)) {
    if (!chain.faceFor(ch.codePointAt(0)!)) return ch;
  }
  return null;
}

export const codePointLabel = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** Splits a text into runs of one face each; throws on a character no face has (check first). */
export function splitRuns(text: string, chain: FontChain): Run[] {
  const runs: Run[] = [];
  for (const ch of printable(text)) {
    const cp = ch.codePointAt(0)!;
    const last = runs.at(-1);
    const face = cp === 0x20 && last?.face.font.hasGlyphForCodePoint(cp) ? last.face : chain.faceFor(cp);
    if (!face) throw new Error(`no font has ${codePointLabel(ch)}`);
    if (last && last.face === face) last.text += ch;
    else runs.push({ face, text: ch });
  }
  return runs;
}

const widths = new Map<string, { em: number; glyphs: number[] }>();

/** The run's advance width in em and its glyph ids (kept per face and text: titles repeat on every page). */
export function measureRun(run: Run): MeasuredRun {
  const key = `${run.face.id}\u0000${run.text}`;
  let m = widths.get(key);
  if (!m) {
    const laid = run.face.font.layout(run.text);
    m = { em: laid.advanceWidth / run.face.font.unitsPerEm, glyphs: laid.glyphs.map((g) => g.id) };
    if (widths.size > 20_000) widths.clear();
    widths.set(key, m);
  }
  return { ...run, em: m.em, glyphs: m.glyphs };
}

/** Runs of the text, measured. */
export const measuredRuns = (text: string, chain: FontChain): MeasuredRun[] => splitRuns(text, chain).map(measureRun);
