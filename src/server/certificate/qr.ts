/**
 * A certificate's QR code as runs of dark modules: one rectangle per run in a row, offset by
 * a 2-module quiet zone, on a size × size grid (size = modules + 4). The PDF draws the runs
 * as rectangles scaled to the field (pdf.ts); the browser print view gets them as an SVG
 * path's "d" (PrintSheet.qr: "M x y h n v 1 h -n z" per run) and draws it with
 * viewBox="0 0 size size" — no QR library in the browser. Error correction M: a
 * verification URL (~150 characters) is version 8–9.
 */
import { lazyRequire } from "../lazy-require";

const qrcode = lazyRequire<typeof import("qrcode")>("qrcode");

export const QR_QUIET_MODULES = 2;

export interface QrRuns {
  size: number;
  /** [x, y, length] of each run of dark modules, in modules from the grid's top-left */
  runs: [number, number, number][];
}

export function qrRuns(text: string): QrRuns {
  // One byte segment: given a string, qrcode searches the cheapest split into numeric,
  // alphanumeric and byte segments (a shortest-path search, about 1.7 MB of garbage per URL,
  // three quarters of a PDF batch's allocations); for a verification URL it finds the same
  // version (9), so the code is as large and decodes to the same text.
  const { modules } = qrcode().create([{ data: Buffer.from(text, "utf8"), mode: "byte" }], { errorCorrectionLevel: "M" });
  const n = modules.size;
  const m = QR_QUIET_MODULES;
  const runs: [number, number, number][] = [];
  for (let y = 0; y < n; y++) {
    let x = 0;
    while (x < n) {
      if (!modules.data[y * n + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < n && modules.data[y * n + x]) x++;
      runs.push([start + m, y + m, x - start]);
    }
  }
  return { size: n + 2 * m, runs };
}

/** The QR code as an SVG path on its size × size grid. */
export function qrPath(text: string): { size: number; path: string } {
  const { size, runs } = qrRuns(text);
  return { size, path: runs.map(([x, y, len]) => `M${x} ${y}h${len}v1h-${len}z`).join("") };
}
