/**
 * bench:deadline's pure parts: the percentile and the choice of the step that held, the
 * generated attachments (signature, size, the checksum the bench records), and the integrity
 * check finding a planted lost save, a missing or corrupted blob, a double submit and an
 * impossible state change.
 */
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { attachmentSize, generatedFile } from "../../bench/deadline/bytes";
import { findViolations, type Snapshot } from "../../bench/deadline/integrity";
import { Ledger } from "../../bench/deadline/ledger";
import { heldStep, percentile, shortfalls, summarise, type Sample } from "../../bench/deadline/stats";

describe("percentile and step selection", () => {
  test("nearest-rank percentiles", () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 99)).toBe(0);
  });

  const flow = (step: number, saveMs: number, extra: Partial<Sample> = {}): Sample[] =>
    (["login", "save", "upload", "submit", "list"] as const).map((kind) => ({
      kind,
      step,
      at: 0,
      ms: kind === "save" ? saveMs : 50,
      outcome: "ok",
      ...(kind === "upload" ? { bytes: 5 * 1048576 } : {}),
      ...extra,
    }));

  test("the highest step with every p99 under its aim and no error is the one reported", () => {
    const samples = [...flow(0, 100), ...flow(1, 150), ...flow(2, 250)];
    const steps = [120, 240, 300].map((rate, i) => summarise(i, rate, 60, 1, samples, [3, 5]));
    expect(steps[1]).toMatchObject({ submits: 1, submitsPerMin: 1, users: 4, errors: 0 });
    expect(shortfalls(steps[2])).toEqual(["save p99 250 ms ≥ 200 ms"]);
    expect(heldStep(steps)?.rate).toBe(240);
  });

  test("a step with an error, or a flow that did not submit, did not hold", () => {
    const erred = summarise(0, 120, 60, 1, [...flow(0, 100), { kind: "read", step: 0, at: 0, ms: 5, outcome: "error" }], []);
    const short = summarise(0, 120, 60, 2, flow(0, 100), []);
    expect(shortfalls(erred)).toEqual(["1 个错误"]);
    expect(shortfalls(short)).toEqual(["只有 1/2 个流程提交成功"]);
    expect(heldStep([erred, short])).toBeNull();
  });
});

describe("generated attachments", () => {
  test("a file starts with its type's signature and the recorded sha256 is that of its bytes", async () => {
    const file = generatedFile("w1-video", "mp4", 700_000);
    const hash = createHash("sha256");
    let first: Buffer | undefined;
    let size = 0;
    for await (const chunk of file.chunks()) {
      first ??= chunk;
      hash.update(chunk);
      size += chunk.length;
    }
    expect(size).toBe(700_000);
    expect(first!.subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect(file.sha256()).toBe(hash.digest("hex"));
  });

  test("sizes stay within 1–20 MB with the median near 5 MB", () => {
    const sizes = Array.from({ length: 999 }, (_, i) => attachmentSize((i + 0.5) / 999, ((i * 37) % 999) / 999 + 0.0005));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(1048576);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(20 * 1048576);
    expect(percentile(sizes, 50) / 1048576).toBeGreaterThan(4);
    expect(percentile(sizes, 50) / 1048576).toBeLessThan(6);
  });
});

describe("the integrity check", () => {
  const sha = "a".repeat(64);
  /** One work saved, uploaded and submitted, stored exactly as acknowledged. */
  const setup = () => {
    const ledger = new Ledger();
    ledger.field(7, "summary", "第一次", true);
    ledger.field(7, "summary", "第二次", true);
    ledger.files.push({ workId: 7, fileId: 70, kind: "docs", size: 10, sha256: sha });
    ledger.submits.add(7);
    ledger.state(7, "submitted", true);
    const snap: Snapshot = {
      works: new Map([[7, { status: "submitted", columns: { summary: "第二次" } }]]),
      files: new Map([[70, { workId: 7, kind: "docs", size: 10, sha256: sha, current: true }]]),
      current: new Map([["7:docs", 1]]),
      blobs: new Map([[sha, sha]]),
      logs: new Map([
        [
          7,
          [
            { action: "create", from: null, to: "draft" },
            { action: "submit", from: "draft", to: "submitted" },
          ],
        ],
      ]),
    };
    return { ledger, snap };
  };

  test("what was acknowledged and stored passes", () => {
    const { ledger, snap } = setup();
    expect(findViolations(ledger, snap)).toEqual([]);
  });

  test("an earlier value where the last acknowledged save should be is a lost write", () => {
    const { ledger, snap } = setup();
    snap.works.get(7)!.columns.summary = "第一次";
    expect(findViolations(ledger, snap)).toEqual(["作品 7 的 summary 是「第一次」，不是最后确认保存的值"]);
  });

  test("a later save that got no answer may or may not be stored", () => {
    const { ledger, snap } = setup();
    ledger.field(7, "summary", "第三次", false);
    expect(findViolations(ledger, snap)).toEqual([]);
    snap.works.get(7)!.columns.summary = "第三次";
    expect(findViolations(ledger, snap)).toEqual([]);
  });

  test("a missing or corrupted blob, a missing row and a second current file are found", () => {
    const { ledger, snap } = setup();
    snap.blobs.set(sha, null);
    expect(findViolations(ledger, snap)).toEqual(["附件 70 的文件内容不在存储中"]);
    snap.blobs.set(sha, "b".repeat(64));
    expect(findViolations(ledger, snap)).toEqual(["附件 70 的文件内容校验和不符"]);
    snap.blobs.set(sha, sha);
    snap.current.set("7:docs", 2);
    expect(findViolations(ledger, snap)).toEqual(["作品 7 的 docs 有 2 个当前文件"]);
    snap.files.delete(70);
    snap.current.set("7:docs", 0);
    expect(findViolations(ledger, snap)).toEqual(["附件 70（作品 7 docs）没有记录", "作品 7 的 docs 有 0 个当前文件"]);
  });

  test("a double submit and an impossible state change are found", () => {
    const { ledger, snap } = setup();
    snap.logs.get(7)!.push({ action: "submit", from: "submitted", to: "submitted" });
    expect(findViolations(ledger, snap)).toEqual([
      "作品 7 提交了 2 次",
      "作品 7 的日志中有不可能的状态变化 submitted → submitted（submit）",
    ]);
  });

  test("a state the log does not lead to is found", () => {
    const { ledger, snap } = setup();
    snap.logs.get(7)!.pop();
    snap.logs.get(7)!.push({ action: "approve", from: "draft", to: "school_approved" });
    expect(findViolations(ledger, snap)).toEqual([
      "作品 7 提交了 0 次",
      "作品 7 的日志中有不可能的状态变化 draft → school_approved（approve）",
      "作品 7 的状态 submitted 与日志的最后状态 draft 不符",
    ]);
  });

  test("a work whose stored state is not the last acknowledged one is found", () => {
    const { ledger, snap } = setup();
    ledger.state(7, "school_approved", true);
    expect(findViolations(ledger, snap)).toEqual(["作品 7 的状态是 submitted，最后确认的操作应为 school_approved"]);
  });
});
