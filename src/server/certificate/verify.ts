/**
 * Verification of a certificate by number and holder's name (and optionally its code).
 * An unknown number and a wrong name give the same answer (no enumeration).
 */
import { CERT_STATUS_NAMES, REVOKE_REASON_NAMES, type CertificateCheck } from "../../shared/certificate/schema";
import type { Handle } from "../work/repository";
import { verifyCode } from "./signing";

/** Names compare trimmed, inner white space removed (printed names have none). */
const norm = (s: string) => s.normalize("NFC").replace(/\s+/g, "");

const NOT_FOUND: CertificateCheck = { status: "not_found", statusText: CERT_STATUS_NAMES.not_found, statusAt: null, reason: null, reasonText: null, latestVersion: null, signature: null, certificate: null };

export async function checkCertificate(db: Handle, q: { number: string; name: string; code?: string }): Promise<CertificateCheck> {
  const rows = await db.selectFrom("certificate").selectAll().where("number", "=", q.number.trim()).orderBy("version", "desc").execute();
  const named = rows.filter((r) => norm(r.holder_name) === norm(q.name));
  if (!named.length) return NOT_FOUND;
  const code = q.code?.trim();
  // With a code: the version it signs, if any (an older version's printed code).
  const row = (code && named.find((r) => r.signature === code)) || named[0];
  const facts = { number: row.number, version: Number(row.version), holderName: row.holder_name, awardName: row.award_name, workId: row.work_id, workTitle: row.work_title, contestName: row.contest_name, contestDate: row.contest_date };
  const signature = code ? ((await verifyCode(db, facts, code)) ? "valid" : "invalid") : null;
  return {
    status: row.status,
    statusText: CERT_STATUS_NAMES[row.status],
    statusAt: row.status_at,
    reason: row.status_reason,
    reasonText: row.status_reason ? (REVOKE_REASON_NAMES[row.status_reason] ?? null) : null,
    latestVersion: Number(rows[0].version),
    signature,
    certificate: { ...facts, schoolName: row.school_name, categoryName: row.category_name, issuedAt: row.issued_at, keyId: row.key_id },
  };
}
