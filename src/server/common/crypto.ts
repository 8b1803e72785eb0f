/**
 * The hashing and random values the server's own secrets are made of: the SHA-256 (hex) that
 * is stored instead of a session id, a link token or a code, the random tokens themselves
 * (base64url) and the six-digit codes mailed for recovery and complaint filing.
 */
import { createHash, randomBytes, randomInt } from "node:crypto";

/** The hex SHA-256 of a string: what is stored in place of a token or a code. */
export const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** `bytes` random bytes as base64url. */
export const randomToken = (bytes: number) => randomBytes(bytes).toString("base64url");

/** A session or link token: 32 random bytes, base64url. */
export const newToken = () => randomToken(32);

/** The code of an invitation link: 24 random bytes (192 bits, more than the 128 a link needs); only its sha256 is stored. */
export const newLinkCode = () => randomToken(24);

/** A six-digit code a person types in, "000000"–"999999". */
export const sixDigitCode = () => String(randomInt(0, 1_000_000)).padStart(6, "0");
