/**
 * Verification of a certificate by its number and either the holder's name or its code.
 *
 * - number + name (a person reading the paper): the newest version of that number whose
 *   holder has that name; with a code too, the version it signs among those, and whether the
 *   code signs that version's facts (a changed code → signature "invalid").
 * - number + code, no name (the printed QR code): the version whose code it is. The code is a
 *   64-byte signature, unguessable, so this allows no enumeration; a code that is no version's
 *   (one character changed, or another number's) is not_found like an unknown number.
 * An unknown number, a wrong name and a wrong code (without name) give the same answer.
 * Answers are kept in a read cache (db/changes.ts) while the certificate and key tables are
 * unchanged: a certificate is checked again and again (every scan of its QR code), and a
 * check costs a lookup and an Ed25519 verification.
 */
import { badRequest } from "../../shared/errors";
import { CERT_STATUS_NAMES, REVOKE_REASON_NAMES, type CertificateCheck } from "../../shared/certificate/schema";
import { normFact, normNumber } from "../../shared/certificate/signed-facts";
import type { Handle } from "../work/repository";
import { readCache } from "../db/changes";
import { verifyCode } from "./signing";

export const NOT_FOUND: CertificateCheck = {
  status: "not_found",
  statusText: CERT_STATUS_NAMES.not_found,
  statusAt: null,
  reason: null,
  reasonText: null,
  latestVersion: null,
  signature: null,
  certificate: null,
};
export const NAME_OR_CODE = "请填写持证人姓名，或使用证书二维码中的验证码";

export async function checkCertificate(
  db: Handle,
  q: { number: string; name?: string; code?: string },
): Promise<CertificateCheck> {
  const name = q.name?.trim() ? normFact(q.name) : undefined;
  const code = q.code?.trim() || undefined;
  if (!name && !code) throw badRequest(NAME_OR_CODE);
  const rows = await db
    .selectFrom("certificate")
    .selectAll()
    .where("number", "=", normNumber(q.number))
    .orderBy("version", "desc")
    .execute();
  const candidates = name ? rows.filter((r) => normFact(r.holder_name) === name) : rows;
  const byCode = code ? candidates.find((r) => r.signature === code) : undefined;
  const row = name ? (byCode ?? candidates[0]) : byCode;
  if (!row) return NOT_FOUND;
  const facts = {
    number: row.number,
    version: Number(row.version),
    holderName: row.holder_name,
    awardName: row.award_name,
    workTitle: row.work_title,
    contestName: row.contest_name,
    contestDate: row.contest_date,
  };
  const signature = code ? ((await verifyCode(db, facts, code)) ? "valid" : "invalid") : null;
  return {
    status: row.status,
    statusText: CERT_STATUS_NAMES[row.status],
    statusAt: row.status_at,
    reason: row.status_reason,
    reasonText: row.status_reason ? (REVOKE_REASON_NAMES[row.status_reason] ?? null) : null,
    latestVersion: Number(rows[0].version),
    signature,
    certificate: {
      ...facts,
      workId: row.work_id === null ? null : Number(row.work_id),
      schoolName: row.school_name,
      categoryName: row.category_name,
      issuedAt: row.issued_at,
      keyId: row.key_id,
      code: row.signature,
    },
  };
}

const TABLES = ["certificate", "certificate_key"] as const;

/** checkCertificate through the read cache (the same question, the same answer until a certificate or key changes). */
export function checkCertificateCached(
  db: Handle,
  q: { number: string; name?: string; code?: string },
): Promise<CertificateCheck> {
  const key = JSON.stringify([normNumber(q.number), q.name?.trim() ? normFact(q.name) : null, q.code?.trim() || null]);
  return readCache(db, "certificateChecks", { maxEntries: 10_000, maxAgeMs: 60_000 }).get(key, TABLES, () =>
    checkCertificate(db, q),
  );
}
