/**
 * The template editor's live preview: CertificateSheet on the sample facts, scaled to the
 * width it is given, with the fields selectable and draggable (a drag moves the field in
 * 0.5 mm steps; the scale is undone so the pointer and the field move together).
 */
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { PAGE_MM, SAMPLE_FACTS, type TemplateLayout } from "../../shared/certificate/layout";
import { CertificateSheet } from "./CertificateSheet";

export const PX_PER_MM = 96 / 25.4;

/** A pointer moved by (dxPx, dyPx) screen pixels over a sheet shown at `scale` → millimetres, rounded to 0.5 mm. */
export function dragToMm(start: { x: number; y: number }, dxPx: number, dyPx: number, scale: number): { x: number; y: number } {
  const r = (n: number) => Math.round(n * 2) / 2;
  return { x: r(start.x + dxPx / scale / PX_PER_MM), y: r(start.y + dyPx / scale / PX_PER_MM) };
}

interface Props {
  layout: TemplateLayout;
  backgroundUrl: string | null;
  selected: number | null;
  problems: ReadonlySet<number>;
  onSelect: (index: number) => void;
  onMove: (index: number, x: number, y: number) => void;
}

export function ScaledPreview({ layout, backgroundUrl, selected, problems, onSelect, onMove }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const page = PAGE_MM[layout.orientation];
  const scale = width ? Math.min(1, width / (page.width * PX_PER_MM)) : 0.5;

  const onPointerDown = (index: number, e: ReactPointerEvent<Element>) => {
    e.preventDefault();
    onSelect(index);
    const f = layout.fields[index];
    const start = { x: f.x, y: f.y, cx: e.clientX, cy: e.clientY };
    const move = (ev: PointerEvent) => {
      const p = dragToMm(start, ev.clientX - start.cx, ev.clientY - start.cy, scale);
      if (p.x !== f.x || p.y !== f.y) onMove(index, p.x, p.y);
    };
    const up = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  };

  return (
    <div ref={box} style={{ width: "100%" }} data-testid="cert-template-preview" data-scale={scale.toFixed(4)}>
      <div
        style={{
          width: page.width * PX_PER_MM * scale,
          height: page.height * PX_PER_MM * scale,
          boxShadow: "0 2px 12px rgba(0,0,0,0.18)",
          overflow: "hidden",
        }}
      >
        <div style={{ transform: `scale(${scale})`, transformOrigin: "0 0", width: `${page.width}mm` }}>
          <CertificateSheet
            layout={layout}
            facts={SAMPLE_FACTS}
            backgroundUrl={backgroundUrl}
            editing={{ selected, problems, onPointerDown }}
          />
        </div>
      </div>
    </div>
  );
}
