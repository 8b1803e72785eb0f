import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  appendEntry,
  canonicalJson,
  CONTEST_CHAIN,
  decodeHeads,
  encodeHeads,
  entryHash,
  GENESIS_HASH,
  headsRoot,
  verifyChain,
  verifyLog,
  type ChainHead,
  type LogAnchor,
  type ScoreLogEntry,
} from "../../../src/server/judging/score-log";

function chain(n: number): ScoreLogEntry[] {
  const log: ScoreLogEntry[] = [];
  for (let i = 0; i < n; i++) {
    log.push(
      appendEntry(log, {
        at: `2026-06-0${1 + (i % 9)}T08:00:00.000Z`,
        actorId: 500 + (i % 3),
        contestId: 7,
        workId: 2026000100 + (i % 4),
        judgeId: 500 + (i % 3),
        action: i % 5 === 4 ? "reopen" : "submit",
        score: 60 + i,
        items: { 主题与内容: 15 + (i % 5), 核心内容: 30 },
        comment: i % 2 ? "结构清晰" : undefined,
      }),
    );
  }
  return log;
}

describe("canonicalJson", () => {
  it("sorts keys at every level, drops undefined members and writes no whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, "x", null], c: true }, u: undefined })).toBe(
      '{"a":{"c":true,"d":[1,"x",null]},"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });

  it("refuses values JSON cannot carry faithfully", () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalJson([undefined])).toThrow(TypeError);
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
  });
});

describe("score log hash chain", () => {
  it("links each entry to the previous one with sha256 over prevHash and the canonical entry", () => {
    const log = chain(3);
    expect(log.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(log[0].prevHash).toBe(GENESIS_HASH);
    expect(log[1].prevHash).toBe(log[0].hash);
    const { prevHash, hash, ...body } = log[1];
    expect(hash).toBe(
      createHash("sha256")
        .update(`${prevHash}\n${canonicalJson(body)}`)
        .digest("hex"),
    );
    expect(entryHash(prevHash, log[1])).toBe(hash);
  });

  it("verifies a valid chain and returns its head", () => {
    const log = chain(20);
    expect(verifyChain(log)).toEqual({ ok: true, count: 20, head: log[19].hash });
    expect(verifyChain(log, { expectedHead: log[19].hash }).ok).toBe(true);
    expect(verifyChain([])).toEqual({ ok: true, count: 0, head: GENESIS_HASH });
    expect(verifyChain(log.slice(5), { startPrev: log[4].hash, startSeq: 6 }).ok).toBe(true);
  });

  it("detects a changed entry at its index", () => {
    const log = chain(10);
    log[4] = { ...log[4], score: 99 };
    expect(verifyChain(log)).toMatchObject({ ok: false, index: 4, reason: "hash_mismatch" });
    const items = chain(10);
    items[6] = { ...items[6], items: { ...items[6].items, 核心内容: 35 } };
    expect(verifyChain(items)).toMatchObject({
      ok: false,
      index: 6,
      reason: "hash_mismatch",
      message: "第 7 条记录的内容与其哈希不符（记录被修改）",
    });
  });

  it("detects a changed entry whose own hash was recomputed at the next entry", () => {
    const log = chain(10);
    const forged = { ...log[4], score: 99 };
    log[4] = { ...forged, hash: entryHash(forged.prevHash, forged) };
    expect(verifyChain(log)).toMatchObject({ ok: false, index: 5, reason: "prev_mismatch" });
  });

  it("detects a deleted entry at the position it leaves", () => {
    const log = chain(10);
    log.splice(3, 1);
    expect(verifyChain(log)).toMatchObject({ ok: false, index: 3, reason: "prev_mismatch" });
  });

  it("detects an inserted entry: at its own index if it does not fit, at the next one if it was forged to fit", () => {
    const log = chain(10);
    const copy = [...log];
    copy.splice(5, 0, { ...log[7] });
    expect(verifyChain(copy)).toMatchObject({ ok: false, index: 5, reason: "prev_mismatch" });

    const forged = appendEntry(log.slice(0, 5), {
      at: "2026-06-09T08:00:00.000Z",
      actorId: 1,
      contestId: 7,
      workId: 2026000100,
      judgeId: 500,
      action: "submit",
      score: 100,
    });
    const fitted = [...log];
    fitted.splice(5, 0, forged);
    expect(verifyChain(fitted)).toMatchObject({ ok: false, index: 6, reason: "prev_mismatch" });
  });

  it("detects two entries swapped at the first of them", () => {
    const log = chain(10);
    [log[2], log[3]] = [log[3], log[2]];
    expect(verifyChain(log)).toMatchObject({ ok: false, index: 2, reason: "prev_mismatch" });
  });

  it("detects a renumbered entry", () => {
    const log = chain(5);
    log[3] = { ...log[3], seq: 9 };
    expect(verifyChain(log)).toMatchObject({ ok: false, index: 3, reason: "seq_mismatch" });
  });

  it("detects a cut tail or a rewritten chain only against the anchored head", () => {
    const log = chain(10);
    const head = log[9].hash;
    expect(verifyChain(log.slice(0, 8)).ok).toBe(true);
    expect(verifyChain(log.slice(0, 8), { expectedHead: head })).toMatchObject({ ok: false, index: 8, reason: "head_mismatch" });
    // Rewrite from entry 6 on, recomputing every hash: consistent in itself, caught by the head.
    const rewritten = log.slice(0, 6);
    for (const e of log.slice(6)) {
      const { seq: _s, prevHash: _p, hash: _h, ...body } = e;
      rewritten.push(appendEntry(rewritten, { ...body, score: 0 }));
      void [_s, _p, _h];
    }
    expect(verifyChain(rewritten).ok).toBe(true);
    expect(verifyChain(rewritten, { expectedHead: head })).toMatchObject({ ok: false, index: 10, reason: "head_mismatch" });
  });
});

describe("a contest's log of one chain per judge", () => {
  const CONTEST = 7;
  const J1 = 501;
  const J2 = 502;
  /** Appends `n` entries of `judge` to `log` (its chain), scores from `from`. */
  const grow = (log: ScoreLogEntry[], judge: number, n: number, from = 60) => {
    for (let i = 0; i < n; i++)
      log.push(
        appendEntry(log, {
          at: `2026-06-01T08:0${i % 10}:00.000Z`,
          actorId: judge,
          contestId: CONTEST,
          workId: 2026000100 + i,
          judgeId: judge,
          action: "draft",
          score: from + i,
        }),
      );
    return log;
  };
  /** Chain 0 as written before 0038 (both judges in one chain), and a chain per judge since. */
  const contestLog = () =>
    new Map<number, ScoreLogEntry[]>([
      [CONTEST_CHAIN, grow(grow([], J1, 2), J2, 2)],
      [J1, grow([], J1, 5)],
      [J2, grow([], J2, 4)],
    ]);
  const headsOf = (chains: Map<number, ScoreLogEntry[]>): ChainHead[] =>
    [...chains].map(([chain, list]) => ({ chain, seq: list.length, hash: list.at(-1)!.hash }));
  const anchor = (chains: Map<number, ScoreLogEntry[]>): LogAnchor => {
    const heads = headsOf(chains);
    return { head: headsRoot(heads), seq: heads.reduce((s, h) => s + h.seq, 0), heads };
  };

  it("verifies every chain and sums them up in one head", () => {
    const chains = contestLog();
    const r = verifyLog(CONTEST, chains);
    expect(r).toEqual({ ok: true, count: 13, chains: 3, head: headsRoot(headsOf(chains)), heads: headsOf(chains) });
    expect(verifyLog(CONTEST, new Map())).toMatchObject({ ok: true, count: 0, chains: 0, head: GENESIS_HASH });
    expect(verifyLog(CONTEST, chains, [anchor(chains)]).ok).toBe(true);
    // Appends after a publication keep it valid: each chain still passes through its anchored head.
    const a = anchor(chains);
    grow(chains.get(J1)!, J1, 3, 90);
    expect(verifyLog(CONTEST, chains, [a]).ok).toBe(true);
  });

  it("finds a changed, removed or inserted entry in a judge's chain, naming the chain", () => {
    const changed = contestLog();
    changed.get(J2)![2] = { ...changed.get(J2)![2], score: 99 };
    expect(verifyLog(CONTEST, changed)).toMatchObject({
      ok: false,
      chain: J2,
      index: 2,
      reason: "hash_mismatch",
      message: "第 3 条记录的内容与其哈希不符（记录被修改）",
    });
    const removed = contestLog();
    removed.get(J1)!.splice(1, 1);
    expect(verifyLog(CONTEST, removed)).toMatchObject({ ok: false, chain: J1, index: 1, reason: "prev_mismatch" });
    const inserted = contestLog();
    const j1 = inserted.get(J1)!;
    j1.splice(3, 0, grow(j1.slice(0, 3), J1, 1, 100)[3]);
    expect(verifyLog(CONTEST, inserted)).toMatchObject({ ok: false, chain: J1, index: 4, reason: "prev_mismatch" });
    const legacy = contestLog();
    legacy.get(CONTEST_CHAIN)![1] = { ...legacy.get(CONTEST_CHAIN)![1], judgeId: J2 };
    expect(verifyLog(CONTEST, legacy)).toMatchObject({ ok: false, chain: CONTEST_CHAIN, index: 1, reason: "hash_mismatch" });
  });

  it("finds an entry in another judge's or contest's chain, though the chain itself is intact", () => {
    const moved = contestLog();
    // The whole chain of J1 relabelled as a third judge's: each link still holds.
    moved.set(503, moved.get(J1)!);
    moved.delete(J1);
    expect(verifyLog(CONTEST, moved)).toMatchObject({
      ok: false,
      chain: 503,
      index: 0,
      reason: "chain_mismatch",
      message: "第 1 条记录属于其他赛事或其他评委的评分链（记录被移动）",
    });
    expect(verifyLog(8, contestLog())).toMatchObject({ ok: false, chain: CONTEST_CHAIN, index: 0, reason: "chain_mismatch" });
  });

  it("finds a cut tail, a removed or rewritten chain against a publication's anchored heads", () => {
    const chains = contestLog();
    const a = anchor(chains);
    const cut = contestLog();
    cut.get(J2)!.pop();
    expect(verifyLog(CONTEST, cut).ok).toBe(true);
    expect(verifyLog(CONTEST, cut, [a])).toMatchObject({ ok: false, chain: J2, index: 3, reason: "head_mismatch" });
    const gone = contestLog();
    gone.delete(J1);
    expect(verifyLog(CONTEST, gone, [a])).toMatchObject({ ok: false, chain: J1, index: 0, reason: "head_mismatch" });
    // J1's chain rewritten from its second entry on, every hash recomputed: consistent in itself.
    const rewritten = contestLog();
    const j1 = rewritten.get(J1)!.slice(0, 1);
    grow(j1, J1, 4, 0);
    rewritten.set(J1, j1);
    expect(verifyLog(CONTEST, rewritten).ok).toBe(true);
    expect(verifyLog(CONTEST, rewritten, [a])).toMatchObject({
      ok: false,
      chain: J1,
      index: 4,
      reason: "head_mismatch",
      message: "第 5 条记录的哈希与发布结果时存档的链头不符（整链被改写）",
    });
    // Stored heads that do not give the stored digest or count.
    const forged = { ...a, heads: a.heads!.map((h) => (h.chain === J1 ? { ...h, seq: 4, hash: chains.get(J1)![3].hash } : h)) };
    expect(verifyLog(CONTEST, chains, [forged])).toMatchObject({ ok: false, chain: null, reason: "head_mismatch" });
    expect(verifyLog(CONTEST, chains, [{ ...a, seq: a.seq + 1 }])).toMatchObject({ ok: false, chain: null });
  });

  it("checks a publication from before 0038 against chain 0 alone", () => {
    const chains = contestLog();
    const legacy = chains.get(CONTEST_CHAIN)!;
    const old: LogAnchor = { head: legacy[2].hash, seq: 3, heads: null };
    expect(verifyLog(CONTEST, chains, [old, anchor(chains)]).ok).toBe(true);
    legacy.splice(2);
    expect(verifyLog(CONTEST, chains, [old])).toMatchObject({
      ok: false,
      chain: CONTEST_CHAIN,
      index: 2,
      reason: "head_mismatch",
    });
  });

  it("stores the heads as canonical JSON in chain order and reads them back", () => {
    const heads = headsOf(contestLog()).reverse();
    const text = encodeHeads(heads);
    expect(text).toBe(canonicalJson([...heads].sort((a, b) => a.chain - b.chain).map((h) => [h.chain, h.seq, h.hash])));
    expect(decodeHeads(text)).toEqual([...heads].sort((a, b) => a.chain - b.chain));
    expect(headsRoot(heads)).toBe(headsRoot([...heads].reverse()));
    for (const bad of ["", "{}", "[[1,2]]", '[[1,0,"h"]]', '[["1",2,"h"]]', "[[1,2,3]]"]) expect(decodeHeads(bad)).toBeNull();
  });
});
