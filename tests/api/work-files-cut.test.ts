/**
 * An attachment upload cut off half-way (the student's connection drops, the tab is closed):
 * over a real socket, half of a multipart body is sent, then the connection is destroyed.
 * Nothing of it may stay: no attachment row, no stored blob, no unfinished file in the blob
 * store's tmp directory, the work and its log unchanged; the next upload of the same kind is
 * accepted as usual.
 */
import { existsSync, readdirSync } from "node:fs";
import { connect, type AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, makeApp, ORIGIN, type Client, type TestApp } from "../helpers/app";
import { multipart } from "../helpers/multipart";
import { account, catId, contestId, logOf, makeWork, SAMPLE, statusOf, upload, W } from "./works-fixtures";

/** Every file under a directory, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(DIALECTS)("an upload cut off half-way on %s", (dialect) => {
  let t: TestApp;
  let port: number;
  let student: Client;
  let blobs: string;

  beforeAll(async () => {
    t = await makeApp(dialect);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    port = (t.app.server.address() as AddressInfo).port;
    blobs = t.config.storage.blobDir;
    student = await account(t, "cut_a", "断线甲");
  });
  afterAll(async () => t?.close());

  it("leaves no file, no attachment record and the work unchanged; the next upload is stored", async () => {
    const id = await makeWork(t, student, {
      contest: await contestId(t, "2026-ZJ-10337"),
      category: await catId(t, "软件应用与开发"),
      files: false,
    });
    const work = await statusOf(t, id);
    const log = await logOf(t, id);
    const stored = filesUnder(blobs).filter((f) => !f.startsWith(join(blobs, "tmp")));

    // 8 MB of 素材与源码, of which only the first half ever arrives.
    const content = Buffer.concat([SAMPLE.zip, Buffer.alloc(8 * 1024 * 1024, 0x5a)]);
    const m = multipart([
      { name: "kind", value: "source" },
      { name: "file", filename: "源码.zip", content, type: "application/zip" },
    ]);
    const socket = connect(port, "127.0.0.1");
    const answer: Buffer[] = [];
    socket.on("data", (c: Buffer) => answer.push(c));
    socket.on("error", () => {});
    socket.write(
      `POST ${W}/${id}/files HTTP/1.1\r\nHost: localhost:80\r\nOrigin: ${ORIGIN}\r\nCookie: ${student.cookie}\r\n` +
        `Content-Type: ${m.headers["content-type"]}\r\nContent-Length: ${m.body.length}\r\n\r\n`,
    );
    socket.write(m.body.subarray(0, m.body.length / 2));
    // The server has begun to store it (an unfinished file in tmp), then the connection drops.
    await until("upload under way", () => filesUnder(join(blobs, "tmp")).length > 0);
    socket.destroy();

    await until("unfinished file removed", () => filesUnder(join(blobs, "tmp")).length === 0);
    expect(Buffer.concat(answer).toString()).toBe("");
    expect(filesUnder(blobs).filter((f) => !f.startsWith(join(blobs, "tmp")))).toEqual(stored);
    expect(await t.db.selectFrom("work_file").select("id").where("work_id", "=", id).execute()).toEqual([]);
    expect(await statusOf(t, id)).toEqual(work);
    expect(await logOf(t, id)).toEqual(log);
    expect((await student.get(`${W}/${id}/files`)).body.data.files).toEqual([]);

    // The same upload sent whole afterwards is taken as usual.
    const whole = await upload(student, id, "source", "源码.zip", content);
    expect(whole.status, whole.body.info).toBe(201);
    expect(whole.body.data).toMatchObject({ kind: "source", filename: "源码.zip", size: content.length });
    expect(filesUnder(join(blobs, "tmp"))).toEqual([]);
  });
});
