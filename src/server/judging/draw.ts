/**
 * The random draw of a defence order (答辩顺序抽签), reproducible by anyone: the seed is
 * drawn from crypto random and stored; the order follows from the seed alone by this pure
 * function, so publishing the seed and the list of works lets anybody re-check the order.
 *
 * Algorithm "sha256-fisher-yates-v1":
 * - input: the seed (text) and the works' ids sorted ascending;
 * - a byte stream: sha256(seed + ":" + k) for k = 0, 1, 2, … concatenated, read 4 bytes at a
 *   time as big-endian unsigned 32-bit numbers;
 * - Fisher–Yates from the last position down: for i = n−1 … 1, j is uniform in 0 … i by
 *   rejection sampling (numbers ≥ ⌊2³² / (i+1)⌋·(i+1) are skipped, then j = r mod (i+1)),
 *   and items i and j swap.
 * The result's first item is position 1.
 */
import { createHash } from "node:crypto";

export const DRAW_ALGORITHM = "sha256-fisher-yates-v1";

/** A deterministic stream of unsigned 32-bit numbers from a seed. */
export function seedStream(seed: string): () => number {
  let k = 0;
  let block = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at + 4 > block.length) {
      block = createHash("sha256").update(`${seed}:${k++}`, "utf8").digest();
      at = 0;
    }
    const v = block.readUInt32BE(at);
    at += 4;
    return v;
  };
}

const RANGE = 2 ** 32;

/** A uniform integer in 0 … max (inclusive) from the stream, without modulo bias. */
export function uniformBelow(next: () => number, max: number): number {
  const n = max + 1;
  const limit = Math.floor(RANGE / n) * n;
  for (;;) {
    const r = next();
    if (r < limit) return r % n;
  }
}

/** The items in the order the seed draws: every item exactly once. Does not change `items`. */
export function drawOrder<T>(seed: string, items: readonly T[]): T[] {
  if (!seed) throw new Error("drawOrder: empty seed");
  const out = [...items];
  const next = seedStream(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = uniformBelow(next, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The defence order of works: the ids are sorted ascending first, so only the set matters. */
export function drawWorkOrder(seed: string, workIds: readonly number[]): number[] {
  return drawOrder(
    seed,
    [...workIds].sort((a, b) => a - b),
  );
}

/** Slot times: starts_at + (position − 1) × minutes per work; null without a start. */
export function slotTime(startsAt: string | null, position: number, minutesPerWork: number): string | null {
  if (!startsAt) return null;
  const t = Date.parse(startsAt);
  if (Number.isNaN(t)) return null;
  return new Date(t + (position - 1) * minutesPerWork * 60_000).toISOString();
}
