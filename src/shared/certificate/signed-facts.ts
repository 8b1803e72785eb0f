/**
 * What a certificate's signature covers, written once for both sides: the server signs and
 * verifies with canonical() (src/server/certificate/signing.ts, node:crypto) and the browser
 * checks a code with the same canonical() (src/client/certificate/verify-local.ts, WebCrypto),
 * so the two can never disagree.
 *
 * Signed facts: what the certificate PRINTS of the number, name, award, work and contest —
 * number, version (printed when > 1), holder's name, award, work title, contest name, date —
 * so a printed copy can be checked offline from the paper alone. The work's id is not printed
 * and is not signed. The school and category are printed but not signed (as the issue asks).
 *
 * Every text is normalised before it is joined (normFact): Unicode NFKC (full-width letters,
 * digits and brackets become their ordinary forms) and every white-space character removed,
 * so a copy typed from the paper — with or without the typesetting's spaces, half- or
 * full-width — gives the same string, while any change of a visible character does not.
 * Numbers are also upper-cased. The date is ISO `YYYY-MM-DD`.
 *
 * A code is `<key id: 12 hex>.<signature: 64 bytes base64url, 86 characters>`.
 */

export interface SignedFacts {
  number: string;
  version: number;
  holderName: string;
  awardName: string;
  workTitle: string | null;
  contestName: string;
  /** YYYY-MM-DD */
  contestDate: string;
}

/** NFKC, white space removed. */
export const normFact = (s: string) => s.normalize("NFKC").replace(/\s+/gu, "");
/** A certificate number as typed: NFKC, white space removed, upper case. */
export const normNumber = (s: string) => normFact(s).toUpperCase();

/** The signed string: a JSON array (no field can shift into another). */
export function canonical(f: SignedFacts): string {
  const title = f.workTitle === null ? null : normFact(f.workTitle);
  return JSON.stringify([
    normNumber(f.number),
    f.version,
    normFact(f.holderName),
    normFact(f.awardName),
    title || null,
    normFact(f.contestName),
    normFact(f.contestDate),
  ]);
}

export const CODE_PATTERN = /^([0-9a-f]{12})\.([A-Za-z0-9_-]{86})$/;

const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** The 64 signature bytes of an 86-character base64url text, or null (also for a non-canonical last character). */
export function decodeSignature(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]{86}$/.test(text)) return null;
  const out = new Uint8Array(64);
  let acc = 0;
  let bits = 0;
  let n = 0;
  for (const ch of text) {
    acc = (acc << 6) | B64URL.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
      acc &= (1 << bits) - 1;
    }
  }
  // 86 × 6 = 516 bits: the last 4 must be zero, else two texts would name one signature.
  return acc === 0 ? out : null;
}

/** A code's key id and signature bytes, or null when it is not of the form `<12 hex>.<86 base64url>`. */
export function parseCode(code: string): { keyId: string; signature: Uint8Array<ArrayBuffer> } | null {
  const m = CODE_PATTERN.exec(code.trim());
  if (!m) return null;
  const signature = decodeSignature(m[2]);
  return signature ? { keyId: m[1], signature } : null;
}

/** The DER bytes of a PEM block (e.g. a `PUBLIC KEY`). */
export function pemToDer(pem: string): Uint8Array<ArrayBuffer> {
  const b64 = pem.replace(/-----(BEGIN|END)[^-]*-----/g, "").replace(/\s+/g, "");
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
