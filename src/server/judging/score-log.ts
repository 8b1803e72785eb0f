/**
 * The append-only, hash-chained score log. Every score change (draft saved, submitted,
 * reopened by the contest admin, …) is one entry; each entry carries the hash of the entry
 * before it, and its own hash is
 *   sha256( prevHash + "\n" + canonicalJson(entry without prevHash and hash) )   (hex)
 * so changing, deleting, inserting or reordering any entry breaks the chain at a definite
 * place, which `verifyChain` reports. Pure: times are passed in, nothing is written here.
 *
 * A contest's log is several chains (migration 0038): one per judge, holding the entries of
 * that judge's scores (saves, submissions, reopenings, defence scores), so saves of different
 * judges never wait for one another; and chain 0 (CONTEST_CHAIN), the contest's single chain of
 * the entries written before, kept as it was. `verifyLog` checks every chain and that each
 * entry belongs to its chain.
 *
 * What a chain alone cannot show: a tail cut off, or the whole chain rewritten from some
 * entry on. For that the head is anchored elsewhere: each result publication stores every
 * chain's head (seq and hash, `encodeHeads`) and their digest (`headsRoot`, shown and written
 * to the audit log); `verifyLog` checks each chain still passes through its anchored head.
 * Publications from before 0038 anchored chain 0's last hash and seq alone.
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

export type ChainBreak = "prev_mismatch" | "seq_mismatch" | "hash_mismatch" | "head_mismatch" | "chain_mismatch";

export type ChainCheck =
  { ok: true; count: number; head: string } | { ok: false; index: number; reason: ChainBreak; message: string };

const MESSAGES: Record<ChainBreak, (i: number) => string> = {
  prev_mismatch: (i) => `第 ${i + 1} 条记录的前序哈希与上一条记录不符（记录被删除、插入或调换了顺序）`,
  seq_mismatch: (i) => `第 ${i + 1} 条记录的序号不连续`,
  hash_mismatch: (i) => `第 ${i + 1} 条记录的内容与其哈希不符（记录被修改）`,
  head_mismatch: (i) => `日志只到第 ${i} 条，末条哈希与存档的链头不符（末尾记录被删除或整链被改写）`,
  chain_mismatch: (i) => `第 ${i + 1} 条记录属于其他赛事或其他评委的评分链（记录被移动）`,
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

/* ------------------------------------------------------- a contest's chains */

/** The chain of the entries written before migration 0038 (one chain per contest then); judges' chains are their user ids. */
export const CONTEST_CHAIN = 0;

/** A chain's last entry: its seq (the chain's length) and hash. */
export interface ChainHead {
  chain: number;
  seq: number;
  hash: string;
}

const byChain = (heads: readonly ChainHead[]) => [...heads].sort((a, b) => a.chain - b.chain);

/** The heads as a publication stores them (log_heads): canonical JSON of [chain, seq, hash] in chain order. */
export function encodeHeads(heads: readonly ChainHead[]): string {
  return canonicalJson(byChain(heads).map((h) => [h.chain, h.seq, h.hash]));
}

/** The heads stored by encodeHeads; null when the text is not such a list. */
export function decodeHeads(text: string): ChainHead[] | null {
  try {
    const list: unknown = JSON.parse(text);
    if (!Array.isArray(list)) return null;
    const heads: ChainHead[] = [];
    for (const h of list) {
      if (!Array.isArray(h) || h.length !== 3) return null;
      const [chain, seq, hash] = h as unknown[];
      if (!Number.isInteger(chain) || (chain as number) < 0 || !Number.isInteger(seq) || (seq as number) < 1) return null;
      if (typeof hash !== "string") return null;
      heads.push({ chain: chain as number, seq: seq as number, hash });
    }
    return heads;
  } catch {
    return null;
  }
}

/** One hash for a set of chain heads: the genesis hash when there are none, else sha256 over encodeHeads. */
export function headsRoot(heads: readonly ChainHead[]): string {
  if (!heads.length) return GENESIS_HASH;
  return createHash("sha256")
    .update(`score-log-heads\n${encodeHeads(heads)}`)
    .digest("hex");
}

/** What a publication anchored: the digest and entry count, and each chain's head (null: a publication from before 0038, chain 0's head alone). */
export interface LogAnchor {
  head: string;
  seq: number;
  heads: ChainHead[] | null;
}

export type LogCheck =
  | { ok: true; count: number; chains: number; head: string; heads: ChainHead[] }
  | { ok: false; chain: number | null; index: number; reason: ChainBreak; message: string };

/**
 * Checks every chain of a contest's log (`chains`: entries of each chain in seq order), that
 * each entry belongs to its contest and its chain (a judge's chain holds that judge's
 * entries only), and that every chain still passes through the head each anchor stored.
 * Reports the first break: in chain order, then in the anchors' order; `chain` null when the
 * anchor itself does not add up.
 */
export function verifyLog(
  contestId: number,
  chains: ReadonlyMap<number, readonly ScoreLogEntry[]>,
  anchors: readonly LogAnchor[] = [],
): LogCheck {
  const heads: ChainHead[] = [];
  let count = 0;
  for (const chain of [...chains.keys()].sort((a, b) => a - b)) {
    const entries = chains.get(chain)!;
    const r = verifyChain(entries);
    if (!r.ok) return { ...r, chain };
    const stray = entries.findIndex((e) => e.contestId !== contestId || (chain !== CONTEST_CHAIN && e.judgeId !== chain));
    if (stray >= 0) return { ok: false, chain, index: stray, reason: "chain_mismatch", message: MESSAGES.chain_mismatch(stray) };
    if (entries.length) heads.push({ chain, seq: entries.length, hash: r.head });
    count += entries.length;
  }
  for (const a of anchors) {
    if (!a.heads) {
      const r = verifyChain((chains.get(CONTEST_CHAIN) ?? []).slice(0, a.seq), { expectedHead: a.head });
      if (!r.ok) return { ...r, chain: CONTEST_CHAIN };
      continue;
    }
    if (headsRoot(a.heads) !== a.head || a.heads.reduce((s, h) => s + h.seq, 0) !== a.seq)
      return {
        ok: false,
        chain: null,
        index: 0,
        reason: "head_mismatch",
        message: "发布结果时存档的各评分链链头与其摘要或记录数不符（存档被改动）",
      };
    for (const h of a.heads) {
      const entries = chains.get(h.chain) ?? [];
      if (entries.length < h.seq)
        return {
          ok: false,
          chain: h.chain,
          index: entries.length,
          reason: "head_mismatch",
          message: MESSAGES.head_mismatch(entries.length),
        };
      if (entries[h.seq - 1].hash !== h.hash)
        return {
          ok: false,
          chain: h.chain,
          index: h.seq - 1,
          reason: "head_mismatch",
          message: `第 ${h.seq} 条记录的哈希与发布结果时存档的链头不符（整链被改写）`,
        };
    }
  }
  return { ok: true, count, chains: heads.length, head: headsRoot(heads), heads };
}
