import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  appendEntry,
  canonicalJson,
  entryHash,
  GENESIS_HASH,
  verifyChain,
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
