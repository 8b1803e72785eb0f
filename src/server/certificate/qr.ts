/**
 * A certificate's QR code as an SVG path: one "M x y h n v 1 h -n z" rectangle per run of dark
 * modules in a row, offset by a 2-module quiet zone, on a size × size grid (size = modules +
 * 4). The PDF draws the path scaled to the field (pdf.ts); the browser print view gets the
 * same string (PrintSheet.qr) and draws it with viewBox="0 0 size size" — no QR library in
 * the browser. Error correction M: a verification URL (~150 characters) is version 8–9.
 */
import QRCode from "qrcode";

export const QR_QUIET_MODULES = 2;

export function qrPath(text: string): { size: number; path: string } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const n = modules.size;
  const m = QR_QUIET_MODULES;
  const parts: string[] = [];
  for (let y = 0; y < n; y++) {
    let x = 0;
    while (x < n) {
      if (!modules.data[y * n + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < n && modules.data[y * n + x]) x++;
      parts.push(`M${start + m} ${y + m}h${x - start}v1h-${x - start}z`);
    }
  }
  return { size: n + 2 * m, path: parts.join("") };
}
