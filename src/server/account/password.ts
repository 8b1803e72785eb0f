/**
 * argon2id password hashing, off the event loop and never hogging the libuv threadpool.
 *
 * @node-rs/argon2 runs each hash on the libuv threadpool (UV_THREADPOOL_SIZE threads, 4 by
 * default), which file I/O (uploads to the blob store), async crypto and zlib share. A burst
 * of logins on deadline day would queue dozens of ~30 ms hashes there and stall every file
 * write behind them; so at most HASH_SLOTS hashes run at once (half the pool, at least one),
 * the others wait here, in JavaScript, holding no thread.
 */
import { availableParallelism } from "node:os";
import { hash, verify } from "@node-rs/argon2";

// Algorithm.Argon2id (a const enum, so spelled out here).
const ARGON2ID = 2;

const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Hashes at once: half the threadpool, and no more than the cores (argon2 is CPU-bound). */
export const HASH_SLOTS = Math.max(
  1,
  Math.min(Math.floor((Number(process.env.UV_THREADPOOL_SIZE) || 4) / 2), availableParallelism()),
);

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `work` when a hashing slot is free. */
async function inSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASH_SLOTS) await new Promise<void>((ok) => waiting.push(ok));
  else running++;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line (running stays as it is), else it is freed.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export const hashPassword = (password: string) => inSlot(() => hash(password, OPTIONS));

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await inSlot(() => verify(stored, password));
  } catch {
    return false;
  }
}

/** Verified against when the account does not exist, so the reply takes as long either way. */
let dummy: Promise<string> | null = null;
export const dummyHash = () => (dummy ??= hashPassword("dummy-password-0"));
