/**
 * Reading what a person types or pastes from a printed certificate (the offline check of
 * /verify-cert) into the signed facts: the date as printed ("2026 年 7 月 20 日"), the title in
 * 《》, the number line with its version ("证书编号：…（第 2 版）"), and a code or the QR
 * code's whole address. The texts' spaces and widths are handled by canonical() itself.
 */

/** "2026 年 7 月 20 日", "2026-07-20", "2026/7/20", "2026.7.20" → "2026-07-20"; null if not a date. */
export function parsePrintedDate(text: string): string | null {
  const t = text.normalize("NFKC").replace(/\s+/g, "");
  const m = /^(\d{4})(?:年|[-/.])(\d{1,2})(?:月|[-/.])(\d{1,2})日?$/.exec(t);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return `${m[1]}-${String(mo).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** 《作品名称》 → 作品名称; an empty title → null (teacher and school certificates have none). */
export function parsePrintedTitle(text: string | undefined): string | null {
  const t = (text ?? "").trim().replace(/^《/, "").replace(/》$/, "").trim();
  return t || null;
}

/** "证书编号：2026-ZJ-1-000123（第 2 版）" → { number, version: 2 }; a bare number → { number }. */
export function parsePrintedNumber(text: string): { number: string; version?: number } {
  const t = text.normalize("NFKC").trim();
  const version = /\(第\s*(\d+)\s*版\)/.exec(t);
  const number = t
    .replace(/^证书编号\s*[:：]?\s*/, "")
    .replace(/\(第\s*\d+\s*版\)\s*$/, "")
    .trim();
  return version ? { number, version: Number(version[1]) } : { number };
}

/** A pasted code, or the QR code's address `…/verify-cert?number=…&code=…` → its code and number. */
export function parseCodeInput(text: string): { code: string; number?: string } {
  const t = text.trim();
  if (/[?&]code=/.test(t)) {
    try {
      const u = new URL(t, "http://x");
      return { code: (u.searchParams.get("code") ?? "").trim(), number: u.searchParams.get("number")?.trim() || undefined };
    } catch {
      // fall through: treat as a code
    }
  }
  return { code: t.replace(/\s+/g, "") };
}
