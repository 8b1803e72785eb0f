/**
 * CertificateSheet: THE rendering of one certificate in the browser, used by the print view
 * (real facts and the server's QR code) and the template editor's live preview (SAMPLE_FACTS,
 * a placeholder code). A template layout (src/shared/certificate/layout.ts) becomes a page of
 * A4 in millimetres with absolutely placed elements: the background image over the whole page,
 * each text field a box `width` mm wide whose first line's top is at `y` (line height 1.25,
 * font size in points, aligned in the box, wrapping onto at most `maxLines` lines and then
 * shrinking, as the PDF renderer does), and the QR code as an SVG path on its module grid.
 */
import { useLayoutEffect, useRef, type PointerEvent as ReactPointerEvent } from "react";
import {
  FIELD_NAMES,
  LINE_HEIGHT,
  PAGE_MM,
  fieldText,
  type PrintFacts,
  type QrField,
  type TemplateLayout,
  type TextField,
} from "../../shared/certificate/layout";
import "./certificate.css";

export interface SheetQr {
  /** modules per side */
  size: number;
  /** SVG path "d" on a size × size grid */
  path: string;
}

export interface SheetEditing {
  selected: number | null;
  /** indexes of the fields checkLayout complains about */
  problems: ReadonlySet<number>;
  onPointerDown: (index: number, e: ReactPointerEvent<Element>) => void;
}

export interface CertificateSheetProps {
  layout: TemplateLayout;
  facts: PrintFacts;
  /** the certificate's code; null/undefined draws the placeholder (preview) */
  qr?: SheetQr | null;
  /** the background image's address (when the layout has one) */
  backgroundUrl?: string | null;
  /** the template editor's preview: outlines, selection, dragging */
  editing?: SheetEditing;
  testId?: string;
}

const mm = (n: number) => `${n}mm`;
const PX_PER_PT = 96 / 72;

export function CertificateSheet({ layout, facts, qr, backgroundUrl, editing, testId }: CertificateSheetProps) {
  const page = PAGE_MM[layout.orientation];
  const cls = (i: number) => [editing?.selected === i ? "selected" : "", editing?.problems.has(i) ? "has-problem" : ""].join(" ");
  return (
    <div
      className={`certificate-sheet certificate-${layout.orientation}${editing ? " editing" : ""}`}
      style={{ width: mm(page.width), height: mm(page.height) }}
      data-testid={testId}
      data-number={facts.number}
    >
      {layout.backgroundSha256 && backgroundUrl && (
        <img
          className="certificate-bg"
          src={backgroundUrl}
          alt=""
          draggable={false}
          style={{ width: mm(page.width), height: mm(page.height) }}
        />
      )}
      {layout.fields.map((f, i) =>
        f.key === "qr" ? (
          <QrCode
            key={i}
            field={f}
            qr={qr ?? PLACEHOLDER_QR}
            className={cls(i)}
            onPointerDown={editing ? (e) => editing.onPointerDown(i, e) : undefined}
          />
        ) : (
          <FieldText
            key={i}
            field={f}
            text={fieldText(f, facts)}
            editing={!!editing}
            className={cls(i)}
            onPointerDown={editing ? (e) => editing.onPointerDown(i, e) : undefined}
          />
        ),
      )}
    </div>
  );
}

/**
 * Whether the text overflows its box: one line → wider than the box; several → taller than
 * maxLines lines of the current size.
 */
function overflows(el: HTMLElement, lines: number, sizePt: number): boolean {
  if (lines <= 1) return el.scrollWidth > el.clientWidth + 0.5;
  return el.scrollHeight > lines * sizePt * PX_PER_PT * LINE_HEIGHT + 0.5;
}

/**
 * The field's size when the text fits in maxLines lines, else the largest size (to 0.1 pt)
 * at which it does — the PDF renderer's rule (src/server/certificate/pdf.ts fitText).
 */
function fitFontSize(el: HTMLElement, field: TextField): number {
  const lines = field.maxLines ?? 1;
  const fits = (size: number) => {
    if (el.style.fontSize !== `${size}pt`) el.style.fontSize = `${size}pt`;
    return !overflows(el, lines, size);
  };
  // Usually the text fits as rendered: only reads, so a print of many sheets lays out once.
  if (fits(field.fontSize)) return field.fontSize;
  let lo = 0.1;
  let hi = field.fontSize;
  for (let i = 0; i < 24 && hi - lo > 0.01; i++) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  const size = Math.max(0.1, Math.floor(lo * 10) / 10);
  fits(size);
  return size;
}

function FieldText({
  field,
  text,
  editing,
  className,
  onPointerDown,
}: {
  field: TextField;
  text: string;
  editing: boolean;
  className: string;
  onPointerDown?: (e: ReactPointerEvent<HTMLDivElement>) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const lines = field.maxLines ?? 1;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const fit = () => void fitFontSize(el, field);
    fit();
    // Sizes measured before the fonts are ready are measured again once they are.
    let live = true;
    void document.fonts?.ready.then(() => live && fit());
    return () => {
      live = false;
    };
  }, [field, text, lines]);
  if (!text && !editing) return null;
  return (
    <div
      ref={ref}
      className={`certificate-field${lines <= 1 ? " single-line" : ""}${text ? "" : " empty"} ${className}`}
      data-field={field.key}
      style={{
        left: mm(field.x),
        top: mm(field.y),
        width: mm(field.width),
        fontSize: `${field.fontSize}pt`,
        lineHeight: LINE_HEIGHT,
        textAlign: field.align,
        fontWeight: field.bold ? 700 : 400,
        color: field.color ?? "#000000",
      }}
      onPointerDown={onPointerDown}
    >
      {text || (editing ? `（${FIELD_NAMES[field.key]}）` : "")}
    </div>
  );
}

function QrCode({
  field,
  qr,
  className,
  onPointerDown,
}: {
  field: QrField;
  qr: SheetQr;
  className: string;
  onPointerDown?: (e: ReactPointerEvent<SVGSVGElement>) => void;
}) {
  return (
    <svg
      className={`certificate-qr ${className}`}
      data-field="qr"
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      shapeRendering="crispEdges"
      style={{ left: mm(field.x), top: mm(field.y), width: mm(field.size), height: mm(field.size) }}
      onPointerDown={onPointerDown}
    >
      <rect width={qr.size} height={qr.size} fill="#fff" />
      <path d={qr.path} fill="#000" />
    </svg>
  );
}

/** A QR-looking placeholder for the preview (finder patterns and fixed noise): it opens nothing. */
export const PLACEHOLDER_QR: SheetQr = (() => {
  const n = 29;
  const q = 2;
  const dark = (x: number, y: number): boolean => {
    const finder = (fx: number, fy: number) => {
      const dx = x - fx;
      const dy = y - fy;
      if (dx < -1 || dy < -1 || dx > 7 || dy > 7) return null;
      if (dx === -1 || dy === -1 || dx === 7 || dy === 7) return false;
      const ring = Math.max(Math.abs(dx - 3), Math.abs(dy - 3));
      return ring !== 2;
    };
    const inner = n - 2 * q;
    for (const [fx, fy] of [
      [q, q],
      [q + inner - 7, q],
      [q, q + inner - 7],
    ]) {
      const f = finder(fx, fy);
      if (f !== null) return f;
    }
    if (x < q || y < q || x >= n - q || y >= n - q) return false;
    return (x * 7919 + y * 104729 + x * y * 31) % 11 < 5;
  };
  let path = "";
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) if (dark(x, y)) path += `M${x} ${y}h1v1h-1z`;
  return { size: n, path };
})();
