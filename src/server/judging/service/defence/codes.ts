/**
 * The random codes of the defence: the unguessable link code of each slot (the authors'
 * link /contest/reply/:code) and the readable seed of a draw.
 */
import { randomBytes } from "node:crypto";
import { randomToken } from "../../../common/crypto";

/** An unguessable link code: 18 random bytes, base64url (24 characters). */
export const newCode = () => randomToken(18);
/** The alphabet of draw codes: no 0/O, 1/I/L look-alikes. */
const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
/**
 * A draw seed: a short code people can read out and check (issue 15), "K7M2P-9QX4A": ten
 * characters of a 31-letter alphabet (~49 bits, without modulo bias), the seed of the draw as
 * it is. Older draws keep their 64-hex seeds; both are verified the same way.
 */
export function newSeed(): string {
  const out: string[] = [];
  while (out.length < 10) for (const b of randomBytes(16)) if (b < 248 && out.length < 10) out.push(CODE_ALPHABET[b % 31]);
  return `${out.slice(0, 5).join("")}-${out.slice(5).join("")}`;
}
