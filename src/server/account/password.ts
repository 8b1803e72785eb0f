/** argon2id password hashing. */
import { hash, verify } from "@node-rs/argon2";

// Algorithm.Argon2id (a const enum, so spelled out here).
const ARGON2ID = 2;

const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** Verified against when the account does not exist, so the reply takes as long either way. */
let dummy: Promise<string> | null = null;
export const dummyHash = () => (dummy ??= hashPassword("dummy-password-0"));
