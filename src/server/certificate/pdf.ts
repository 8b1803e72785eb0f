/**
 * Certificates to PDF (pdfkit), one A4 page each, at the template's positions
 * (src/shared/certificate/layout.ts; millimetres → points). Pure: facts, layouts and fonts
 * in, a PDF stream out; the caller decides what to print and logs it.
 *
 * - The background image is scaled to the whole page (a scan of the printed form); one
 *   image object per document, however many pages use it.
 * - A text field: its text (fieldText) is broken into lines that fit the box width — CJK
 *   between any two characters, Latin and digits at spaces, no line starting with closing
 *   punctuation or ending with an opening one — onto at most maxLines lines; when it needs
 *   more, the font shrinks (the largest size, to 0.1 pt, that fits). Lines are LINE_HEIGHT ×
 *   size apart from the field's top; the baseline sits where CSS puts it (the primary
 *   font's ascent + descent centred in the line box), so the browser's print view matches.
 *   Each line is aligned in the box and drawn as runs of one font each (fonts.ts) at x
 *   positions measured here.
 * - The QR code (qr.ts) is drawn as vector rectangles on a white square.
 * - assertPrintable runs before anything is written: a character that no font has refuses
 *   the whole batch with the certificate, the holder, the character and the remedy.
 * Pages are written to the stream as they are finished and pdfkit's text layout cache is
 * emptied every 20 pages, so memory stays flat for any batch; the font subsets (only the
 * glyphs used) are written at the end.
 */
import { once } from "node:events";
import type { Writable } from "node:stream";
import type PDFDocument from "pdfkit";
import { badRequest } from "../../shared/errors";
import {
  FIELD_NAMES,
  fieldText,
  LINE_HEIGHT,
  MM_PT,
  PAGE_MM,
  type PrintFacts,
  type TemplateLayout,
  type TextField,
} from "../../shared/certificate/layout";
import {
  codePointLabel,
  fontSet,
  measuredRuns,
  printable,
  type FontChain,
  type FontFace,
  type FontSet,
  type MeasuredRun,
} from "./fonts";
import { qrRuns } from "./qr";

export interface PrintItem {
  facts: PrintFacts;
  layout: TemplateLayout;
  verifyUrl: string;
}

// ---- Line breaking and fitting (pure maths on measured widths)

const OPENING = new Set([..."（([{《〈「『【〔〖“‘<"]);
const CLOSING = new Set([..."）)]}》〉」』】〕〗”’，。、；：？！,.;:?!…—·%％>"]);
const CJK =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\u3000-\u303F\uFF00-\uFFEF]/u;
const WORD = /[\p{L}\p{N}\-_./@#&+'’]/u;

/** A piece that is never broken (unless it alone is wider than the box): a CJK character, a Latin word or a number, with its attached punctuation. */
interface Unit {
  text: string;
  space: boolean;
  em: number;
}

const emOf = (text: string, chain: FontChain) => measuredRuns(text, chain).reduce((s, r) => s + r.em, 0);

/** The text's unbreakable pieces, measured in em. */
export function units(text: string, chain: FontChain): Unit[] {
  const out: { text: string; space: boolean }[] = [];
  let word = false;
  for (const ch of printable(text)) {
    const last = out.at(-1);
    if (ch === " ") {
      if (last?.space) last.text += ch;
      else out.push({ text: ch, space: true });
      word = false;
      continue;
    }
    const isWord = WORD.test(ch) && !CJK.test(ch);
    const glue = last && !last.space && (CLOSING.has(ch) || OPENING.has([...last.text].at(-1)!) || (isWord && word));
    if (glue) last.text += ch;
    else out.push({ text: ch, space: false });
    word = isWord;
  }
  return out.map((u) => ({ ...u, em: emOf(u.text, chain) }));
}

/** Greedy line breaking at a box width in em; a piece wider than the box is cut between characters. */
export function wrap(pieces: Unit[], widthEm: number, chain: FontChain): string[] {
  const lines: string[] = [];
  let line: Unit[] = [];
  let w = 0;
  const flush = () => {
    while (line.length && line.at(-1)!.space) line.pop();
    if (line.length) lines.push(line.map((u) => u.text).join(""));
    line = [];
    w = 0;
  };
  const queue = [...pieces];
  while (queue.length) {
    const u = queue.shift()!;
    if (u.space) {
      if (line.length) {
        line.push(u);
        w += u.em;
      }
      continue;
    }
    if (w + u.em <= widthEm + 1e-9) {
      line.push(u);
      w += u.em;
      continue;
    }
    if (line.some((x) => !x.space)) {
      flush();
      queue.unshift(u);
      continue;
    }
    // Alone and still too wide: its characters one by one (at least one per line).
    const chars = [...u.text];
    if (chars.length === 1) {
      line.push(u);
      flush();
      continue;
    }
    queue.unshift(...chars.map((c) => ({ text: c, space: false, em: emOf(c, chain) })));
    line = [];
    w = 0;
  }
  flush();
  return lines;
}

export interface Fitted {
  /** points */
  size: number;
  lines: string[];
}

/**
 * The lines of a text in a box `widthPt` wide: at `fontSize` when it fits in `maxLines`
 * lines, else at the largest size (0.1 pt steps) at which it does.
 */
export function fitText(text: string, chain: FontChain, widthPt: number, fontSize: number, maxLines = 1): Fitted {
  const pieces = units(text, chain);
  if (!pieces.some((u) => !u.space) || widthPt <= 0) return { size: fontSize, lines: [] };
  const at = (size: number) => wrap(pieces, widthPt / size, chain);
  const first = at(fontSize);
  if (first.length <= maxLines) return { size: fontSize, lines: first };
  const total = pieces.reduce((s, u) => s + u.em, 0);
  // On one line at this size it surely fits; the line count only grows with the size.
  let lo = Math.min(fontSize, widthPt / total);
  let hi = fontSize;
  for (let i = 0; i < 24 && hi - lo > 0.01; i++) {
    const mid = (lo + hi) / 2;
    if (at(mid).length <= maxLines) lo = mid;
    else hi = mid;
  }
  const size = Math.max(Math.floor(lo * 10) / 10, lo > 0.1 ? 0.1 : lo);
  const lines = at(size);
  return lines.length <= maxLines ? { size, lines } : { size: lo, lines: at(lo) };
}

/** Where a line's baseline is below the line box's top, in points (CSS: ascent + descent centred in the box). */
export const baselineOffset = (face: FontFace, size: number) =>
  (size * (LINE_HEIGHT - face.ascent - face.descent)) / 2 + face.ascent * size;

export interface PlacedLine {
  runs: (MeasuredRun & { x: number })[];
  /** baseline, points from the page's top */
  baseline: number;
  width: number;
}

/** A text field laid out on the page (points from the top-left corner). */
export function placeField(field: TextField, text: string, chain: FontChain): { size: number; lines: PlacedLine[] } {
  const box = { x: field.x * MM_PT, y: field.y * MM_PT, width: field.width * MM_PT };
  const { size, lines } = fitText(text, chain, box.width, field.fontSize, field.maxLines ?? 1);
  const placed = lines.map((line, i) => {
    const runs = measuredRuns(line, chain);
    const width = runs.reduce((s, r) => s + r.em * size, 0);
    let x =
      field.align === "left" ? box.x : field.align === "right" ? box.x + box.width - width : box.x + (box.width - width) / 2;
    const baseline = box.y + i * LINE_HEIGHT * size + baselineOffset(chain.primary, size);
    return {
      baseline,
      width,
      runs: runs.map((r) => {
        const at = x;
        x += r.em * size;
        return { ...r, x: at };
      }),
    };
  });
  return { size, lines: placed };
}

// ---- The check before printing

const chainOf = (fonts: FontSet, field: TextField) => (field.bold ? fonts.bold : fonts.regular);

/** The first character of a certificate's printed texts that no font has, with its field. */
export function unprintable(
  item: Pick<PrintItem, "facts" | "layout">,
  fonts: FontSet = fontSet(),
): { field: string; char: string } | null {
  for (const field of item.layout.fields) {
    if (field.key === "qr") continue;
    const text = fieldText(field, item.facts);
    for (const ch of printable(text)) {
      if (!chainOf(fonts, field).faceFor(ch.codePointAt(0)!)) return { field: FIELD_NAMES[field.key] ?? field.key, char: ch };
    }
  }
  return null;
}

export const missingGlyphMessage = (facts: Pick<PrintFacts, "number" | "holderName">, field: string, ch: string) =>
  `证书 ${facts.number}（${facts.holderName}）的「${field}」中有字符「${ch}」（${codePointLabel(ch)}），服务器上没有任何字体能显示它，未生成任何证书。` +
  `请在服务器上安装含该字符的字体（如 Debian/Ubuntu 的 fonts-noto-cjk 软件包，安装后重启服务），或在环境变量 CERT_FONT_FALLBACKS 中加入含该字符的字体文件（path 或 path#PostScript 名称），然后重试；如果是录入错误，请先更正姓名等信息。`;

/** Throws 400 (nothing printed) naming the certificate, the holder and the character. */
export function assertPrintable(item: Pick<PrintItem, "facts" | "layout">, fonts: FontSet = fontSet()) {
  const bad = unprintable(item, fonts);
  if (bad) throw badRequest(missingGlyphMessage(item.facts, bad.field, bad.char));
}

// ---- Rendering

export interface RenderOptions {
  fonts?: FontSet;
  /** the bytes of a background image (called once per image and document) */
  background?: (sha256: string) => Promise<Buffer>;
  /** after each page (progress); may throw to stop (a cancelled job) */
  onPage?: (pages: number) => void;
  title?: string;
}

type Doc = InstanceType<typeof PDFDocument>;
/** pdfkit opens an image once and can place the opened image on many pages (not in its types). */
type OpenedImage = Parameters<Doc["image"]>[0];
const openImage = (doc: Doc, bytes: Buffer) => (doc as unknown as { openImage(src: Buffer): OpenedImage }).openImage(bytes);

/** The QR code: a white square, then one "re" per run of dark modules in the square's own coordinates. */
function drawQr(doc: Doc, x: number, y: number, side: number, url: string) {
  const { size, runs } = qrRuns(url);
  doc.save();
  doc.rect(x, y, side, side).fill("#ffffff");
  doc.translate(x, y).scale(side / size);
  doc.fillColor("#000000");
  doc.addContent(runs.map(([rx, ry, len]) => `${rx} ${ry} ${len} 1 re`).join("\n"));
  doc.addContent("f");
  doc.restore();
}

/** Writes one PDF of the items to `out` (one page each); resolves with the page count once `out` has it all. */
export async function renderPdf(
  out: Writable,
  items: AsyncIterable<PrintItem> | Iterable<PrintItem>,
  opts: RenderOptions = {},
): Promise<{ pages: number }> {
  const fonts = opts.fonts ?? fontSet();
  // pdfkit is loaded by the first PDF, not at start (about 12 MB that most processes never need).
  const { default: PDFKit } = await import("pdfkit");
  const doc = new PDFKit({
    autoFirstPage: false,
    margin: 0,
    compress: true,
    info: { Title: opts.title ?? "获奖证书", Producer: "赛务平台", Creator: "赛务平台" },
  });
  const done = new Promise<void>((resolve, reject) => {
    out.once("finish", resolve);
    out.once("error", reject);
    doc.once("error", reject);
  });
  doc.pipe(out);
  const registered = new Set<string>();
  const images = new Map<string, OpenedImage>();
  // pdfkit keeps every laid-out text per font and document; names are unique, so the cache
  // is emptied every few pages (repeated texts — titles, the contest — stay cheap within them).
  const embedded = new Set<{ layoutCache?: object }>();
  const use = (face: FontFace) => {
    if (!registered.has(face.id)) {
      doc.registerFont(face.id, face.buffer, face.postscriptName as string);
      registered.add(face.id);
    }
    doc.font(face.id);
    embedded.add((doc as unknown as { _font: { layoutCache?: object } })._font);
  };
  let pages = 0;
  try {
    for await (const item of items) {
      const { width, height } = PAGE_MM[item.layout.orientation];
      doc.addPage({ size: [width * MM_PT, height * MM_PT], margin: 0 });
      const bg = item.layout.backgroundSha256;
      if (bg && opts.background) {
        let img = images.get(bg);
        if (!img) images.set(bg, (img = openImage(doc, await opts.background(bg))));
        doc.image(img, 0, 0, { width: width * MM_PT, height: height * MM_PT });
      }
      for (const field of item.layout.fields) {
        if (field.key === "qr") {
          drawQr(doc, field.x * MM_PT, field.y * MM_PT, field.size * MM_PT, item.verifyUrl);
          continue;
        }
        const text = fieldText(field, item.facts);
        if (!text.trim()) continue;
        const placed = placeField(field, text, chainOf(fonts, field));
        doc.fillColor(field.color ?? "#000000");
        for (const line of placed.lines) {
          for (const run of line.runs) {
            use(run.face);
            doc.fontSize(placed.size).text(run.text, run.x, line.baseline, {
              lineBreak: false,
              baseline: "alphabetic",
              textWidth: run.em * placed.size,
            } as PDFKit.Mixins.TextOptions);
          }
        }
      }
      pages++;
      if (pages % 20 === 0) for (const f of embedded) if (f.layoutCache) f.layoutCache = Object.create(null);
      opts.onPage?.(pages);
      // Let the file catch up, and other requests run, between pages.
      if (out.writableNeedDrain) await once(out, "drain");
      else if (pages % 4 === 0) await new Promise((r) => setImmediate(r));
    }
    if (!pages) doc.addPage({ size: "A4", margin: 0 });
    doc.end();
    await done;
  } catch (err) {
    doc.unpipe(out);
    out.destroy(err as Error);
    throw err;
  }
  return { pages };
}
