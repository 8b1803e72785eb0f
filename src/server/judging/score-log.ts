/**
 * The append-only, hash-chained score log. Every score change (draft saved, submitted,
 * reopened by the contest admin, …) is one entry; each entry carries the hash of the entry
 * before it, and its own hash is
 *   sha256( prevHash + "\n" + canonicalJson(entry without prevHash and hash) )   (hex)
 * so changing, deleting, inserting or reordering any entry breaks the chain at a definite
 * place, which `verifyChain` reports. Pure: times are passed in, nothing is written here.
 *
 * What a chain alone cannot show: a tail cut off, or the whole chain rewritten from some
 * entry on. For that the latest hash (the head) is anchored elsewhere, e.g. stored with each
 * published result and in the audit log; `verifyChain(entries, { expectedHead })` checks it.
 */
import { createHash } from "node:crypto";

/** prevHash of the first entry. */
export const GENESIS_HASH = "0".repeat(64);

export interface ScoreLogBody {
  /** 1-based position in the log. */
  seq: number;
  /** ISO 8601 time, supplied by the caller. */
  at: string;
  actorId: number;
  contestId: number;
  workId: number;
  judgeId: number;
  /** e.g. "draft", "submit", "reopen", "admin_edit". */
  action: string;
  /** Total score; null when cleared. */
  score: number | null;
  /** Rubric item id → points. */
  items?: Record<string, number>;
  /** Names of the deductions taken. */
  deductions?: string[];
  comment?: string;
  reason?: string;
}

export interface ScoreLogEntry extends ScoreLogBody {
  prevHash: string;
  hash: string;
}

/**
 * JSON with object keys sorted (by UTF-16 code units) at every level, no whitespace, keys
 * whose value is undefined left out. Throws on what JSON cannot represent faithfully
 * (non-finite numbers, undefined in arrays, functions, bigint, symbols).
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw new TypeError("canonicalJson: non-finite number");
      return JSON.stringify(value);
    case "string":
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) {
        return `[${value
          .map((v) => {
            if (v === undefined) throw new TypeError("canonicalJson: undefined in an array");
            return canonicalJson(v);
          })
          .join(",")}]`;
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj)
        .filter((k) => obj[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(",")}}`;
    }
    default:
      throw new TypeError(`canonicalJson: cannot serialise a ${typeof value}`);
  }
}

const bodyOf = (entry: ScoreLogBody | ScoreLogEntry): ScoreLogBody => {
  const body: Partial<ScoreLogEntry> = { ...entry };
  delete body.prevHash;
  delete body.hash;
  return body as ScoreLogBody;
};

/** The hash of an entry given the previous entry's hash (prevHash and hash fields, if present, are ignored). */
export function entryHash(prev: string, entry: ScoreLogBody | ScoreLogEntry): string {
  return createHash("sha256")
    .update(`${prev}\n${canonicalJson(bodyOf(entry))}`)
    .digest("hex");
}

/** The next entry of `log` for `body` (its seq, prevHash and hash filled in). */
export function appendEntry(log: readonly ScoreLogEntry[], body: Omit<ScoreLogBody, "seq">): ScoreLogEntry {
  const last = log.length ? log[log.length - 1] : undefined;
  const full: ScoreLogBody = { ...body, seq: last ? last.seq + 1 : 1 };
  const prevHash = last ? last.hash : GENESIS_HASH;
  return { ...full, prevHash, hash: entryHash(prevHash, full) };
}

export type ChainBreak = "prev_mismatch" | "seq_mismatch" | "hash_mismatch" | "head_mismatch";

export type ChainCheck =
  { ok: true; count: number; head: string } | { ok: false; index: number; reason: ChainBreak; message: string };

const MESSAGES: Record<ChainBreak, (i: number) => string> = {
  prev_mismatch: (i) => `第 ${i + 1} 条记录的前序哈希与上一条记录不符（记录被删除、插入或调换了顺序）`,
  seq_mismatch: (i) => `第 ${i + 1} 条记录的序号不连续`,
  hash_mismatch: (i) => `第 ${i + 1} 条记录的内容与其哈希不符（记录被修改）`,
  head_mismatch: (i) => `日志只到第 ${i} 条，末条哈希与存档的链头不符（末尾记录被删除或整链被改写）`,
};

/**
 * Checks the chain from the first entry (or from a segment: pass the prevHash and seq the
 * segment starts from). Reports the FIRST index where it breaks:
 * - prev_mismatch: prevHash ≠ hash of the entry before (deleted, inserted or reordered entries);
 * - seq_mismatch: seq is not the previous seq + 1;
 * - hash_mismatch: the entry's content does not give its hash (the entry was changed);
 * - head_mismatch (index = entries.length): the last hash is not the anchored head.
 */
export function verifyChain(
  entries: readonly ScoreLogEntry[],
  opts: { expectedHead?: string; startPrev?: string; startSeq?: number } = {},
): ChainCheck {
  let prev = opts.startPrev ?? GENESIS_HASH;
  let seq = opts.startSeq ?? 1;
  const fail = (index: number, reason: ChainBreak): ChainCheck => ({
    ok: false,
    index,
    reason,
    message: MESSAGES[reason](index),
  });
  for (let i = 0; i < entries.length; i++, seq++) {
    const e = entries[i];
    if (e.prevHash !== prev) return fail(i, "prev_mismatch");
    if (e.seq !== seq) return fail(i, "seq_mismatch");
    let hash: string;
    try {
      hash = entryHash(prev, e);
    } catch {
      return fail(i, "hash_mismatch");
    }
    if (e.hash !== hash) return fail(i, "hash_mismatch");
    prev = e.hash;
  }
  if (opts.expectedHead !== undefined && prev !== opts.expectedHead) return fail(entries.length, "head_mismatch");
  return { ok: true, count: entries.length, head: prev };
}
