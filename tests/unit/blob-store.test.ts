/** The local content-addressed blob store: one file per content, durable rename, nothing left behind on failure. */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline, Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { LocalBlobStore } from "../../src/server/storage/local";
import { uploadGuard } from "../../src/server/work/files/check";

const dirs: string[] = [];
const store = () => {
  const dir = mkdtempSync(join(tmpdir(), "blobs-"));
  dirs.push(dir);
  return new LocalBlobStore(dir);
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const chunks = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)));
const read = async (r: Readable) => Buffer.concat(await r.toArray()).toString();

describe("LocalBlobStore", () => {
  it("names a blob by the sha256 of its bytes under ab/cd/, and stores the same bytes once", async () => {
    const s = store();
    const a = await s.put(chunks("作品", "说明书"));
    const sha = createHash("sha256").update("作品说明书").digest("hex");
    expect(a).toEqual({ sha256: sha, size: Buffer.byteLength("作品说明书") });
    expect(readFileSync(join(s.dir, sha.slice(0, 2), sha.slice(2, 4), sha), "utf8")).toBe("作品说明书");
    expect(await s.put(chunks("作品说明书"))).toEqual(a);
    expect(readdirSync(join(s.dir, sha.slice(0, 2), sha.slice(2, 4)))).toEqual([sha]);
    expect(readdirSync(join(s.dir, "tmp"))).toEqual([]);
    expect(await s.has(sha)).toBe(true);
    expect(await read(await s.get(sha))).toBe("作品说明书");
  });

  it("keeps nothing when the stream fails, and refuses names that are not a sha256", async () => {
    const s = store();
    const failing = new Readable({ read() {} });
    failing.push(Buffer.from("前半部分"));
    setTimeout(() => failing.destroy(new Error("断开")), 5);
    await expect(s.put(failing)).rejects.toThrow("断开");
    // A size guard stops the stream at the first byte over the limit.
    const guarded = pipeline(chunks("%PDF-", "x".repeat(100)), uploadGuard({ name: "文档", ext: "pdf", maxBytes: 50, maxSizeMB: 1, filename: "a.pdf" }), () => {});
    await expect(s.put(guarded)).rejects.toMatchObject({ status: 413 });
    expect(readdirSync(s.dir)).toEqual(["tmp"]);
    expect(readdirSync(join(s.dir, "tmp"))).toEqual([]);
    expect(await s.has("0".repeat(64))).toBe(false);
    await expect(s.get("0".repeat(64))).rejects.toThrow();
    await expect(s.get("../../etc/passwd")).rejects.toThrow("not a sha256");
  });
});
