/**
 * Email addresses are stored and compared trimmed and in lower case: one rule for accounts,
 * users, invitations, the judge pool, complaint filing and the rate limits; and the masked
 * address shown to the holder of an invitation link.
 */

/** " Zhang@Example.COM " → "zhang@example.com" */
export const normEmail = (e: string) => e.trim().toLowerCase();

/** An optional address: normalised, or null when there is none (absent or blank). */
export const normEmailOrNull = (e: string | null | undefined) => (e?.trim() ? normEmail(e) : null);

/** "zhangsan@example.com" → "zh***@example.com" */
export function maskEmail(email: string): string {
  const [local, domain = ""] = email.split("@");
  const keep = local.length <= 2 ? 1 : 2;
  return `${local.slice(0, keep)}***@${domain}`;
}
