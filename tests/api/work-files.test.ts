/**
 * Attachments of a work: the category's requirements, streamed uploads checked by type,
 * signature and size, one current file per kind (a replacement keeps the earlier row and
 * its bytes), downloads only for those who may see the work, locks and states, the work
 * log, the submit check, and content addressing (the same bytes are stored once).
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { multipart } from "../helpers/multipart";
import { account, catId, contestId, filled, idOf, login, makeWork, SAMPLE, upload, W } from "./works-fixtures";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const pdf = (text: string) => Buffer.concat([SAMPLE.pdf, Buffer.from(`% ${text}\n`)]);

/** Every file under a directory, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe.each(DIALECTS)("work attachments on %s", (dialect) => {
  let t: TestApp;
  let zjut: number, soft: number;
  let a: Client, b: Client;
  let blobs: string;
  const rows = (id: number) => t.db.selectFrom("work_file").selectAll().where("work_id", "=", id).orderBy("id").execute();
  const fileLog = async (id: number) =>
    (
      await t.db.selectFrom("work_log").select(["action", "changes", "user_id"]).where("work_id", "=", id).orderBy("id").execute()
    ).filter((l) => l.action.endsWith("_file"));

  beforeAll(async () => {
    t = await makeApp(dialect);
    zjut = await contestId(t, "2026-ZJ-10337");
    soft = await catId(t, "软件应用与开发");
    blobs = t.config.storage.blobDir;
    a = await account(t, "file_a", "附件甲");
    b = await account(t, "file_b", "附件乙");
  });
  afterAll(async () => t?.close());

  it("lists the 大类's requirements, takes an upload from an author and lets those who see the work download it", async () => {
    const id = await makeWork(t, a, { contest: zjut, category: soft, coAuthors: [b], teachers: ["teacher"], files: false });
    const list = await a.get(`${W}/${id}/files`);
    expect(list.body.data).toEqual({
      files: [],
      onBehalf: false,
      requirements: [
        { key: "defense", name: "作品与答辩材料", required: true, maxSizeMB: 200, types: ["pdf", "ppt", "pptx", "zip"] },
        { key: "source", name: "素材与源码", required: true, maxSizeMB: 500, types: ["zip", "rar", "7z"] },
        { key: "docs", name: "设计与开发文档", required: true, maxSizeMB: 50, types: ["pdf", "doc", "docx"] },
        { key: "video", name: "作品演示视频", required: true, maxSizeMB: 500, types: ["mp4"] },
      ],
    });

    const content = pdf("设计文档第一版");
    const up = await upload(a, id, "docs", "设计与开发文档（第一版）.pdf", content);
    expect(up.status).toBe(201);
    expect(up.body.info).toBe(`已上传「设计与开发文档」：设计与开发文档（第一版）.pdf（${content.length} B）`);
    expect(up.body.data).toMatchObject({
      kind: "docs",
      kindName: "设计与开发文档",
      filename: "设计与开发文档（第一版）.pdf",
      size: content.length,
      mime: "application/pdf",
      sha256: sha(content),
      uploadedBy: { id: await idOf(t, "file_a"), name: "附件甲" },
    });
    // A confirmed co-author uploads too (a docx is a zip archive).
    const byB = await upload(b, id, "defense", "答辩.pptx", SAMPLE.zip);
    expect(byB.status).toBe(201);
    expect(byB.body.data.mime).toBe("application/vnd.openxmlformats-officedocument.presentationml.presentation");

    const names = (await a.get(`${W}/${id}/files`)).body.data.files.map((f: { kind: string; filename: string }) => [
      f.kind,
      f.filename,
    ]);
    expect(names).toEqual([
      ["docs", "设计与开发文档（第一版）.pdf"],
      ["defense", "答辩.pptx"],
    ]);
    for (const who of [
      a,
      b,
      await login(t, "teacher"),
      await login(t, "school_admin"),
      await login(t, "contest_admin"),
      await login(t, "root"),
    ]) {
      const d = await who.get(`${W}/${id}/files/${up.body.data.id}/download`);
      expect(d.status).toBe(200);
      expect(d.res.rawPayload.equals(content)).toBe(true);
      expect(d.res.headers["content-type"]).toBe("application/pdf");
      expect(d.res.headers["content-disposition"]).toBe(
        `attachment; filename="____________.pdf"; filename*=UTF-8''${encodeURIComponent("设计与开发文档（第一版）.pdf")}`,
      );
    }
    expect((await fileLog(id)).map((l) => [l.action, l.user_id])).toEqual([
      ["upload_file", await idOf(t, "file_a")],
      ["upload_file", await idOf(t, "file_b")],
    ]);
  });

  it("keeps the earlier file when a new one replaces it: its row, its bytes and the log", async () => {
    const id = await makeWork(t, a, { contest: zjut, category: await catId(t, "大数据应用"), coAuthors: [b], files: false });
    const first = pdf("第一版");
    const second = pdf("第二版，补充了测试报告");
    const one = (await upload(a, id, "docs", "文档.pdf", first)).body.data;
    const two = await upload(a, id, "docs", "文档-修订.pdf", second);
    expect(two.status).toBe(201);
    expect(two.body.info).toBe(`已替换「设计与开发文档」：文档-修订.pdf（${second.length} B）`);

    const listed = (await a.get(`${W}/${id}/files`)).body.data.files;
    expect(listed.map((f: { id: number; filename: string }) => [f.id, f.filename])).toEqual([
      [two.body.data.id, "文档-修订.pdf"],
    ]);
    const stored = await rows(id);
    expect(stored.map((r) => [r.id, r.filename, r.sha256, r.replaced_at !== null, r.deleted_at])).toEqual([
      [one.id, "文档.pdf", sha(first), true, null],
      [two.body.data.id, "文档-修订.pdf", sha(second), false, null],
    ]);
    // The earlier version can still be downloaded, byte for byte.
    const old = await a.get(`${W}/${id}/files/${one.id}/download`);
    expect(old.res.rawPayload.equals(first)).toBe(true);

    const log = await fileLog(id);
    expect(log.map((l) => l.action)).toEqual(["upload_file", "replace_file"]);
    const describe = (f: { id: number; filename: string }, bytes: Buffer) => ({
      fileId: f.id,
      kind: "docs",
      kindName: "设计与开发文档",
      filename: f.filename,
      size: bytes.length,
      sha256: sha(bytes),
    });
    expect(JSON.parse(log[1].changes)).toEqual({ attachments: [describe(one, first), describe(two.body.data, second)] });
    const shown = (await a.get(`${W}/${id}/log`)).body.data.at(-1);
    expect(shown).toMatchObject({
      action: "replace_file",
      actionName: "替换附件",
      changes: [{ field: "attachments", fieldName: "附件" }],
    });

    // Deleting marks the row; nothing is removed.
    const del = await a.del(`${W}/${id}/files/${two.body.data.id}`);
    expect(del.body).toMatchObject({ error: 0, info: "已删除「设计与开发文档」：文档-修订.pdf" });
    expect((await a.get(`${W}/${id}/files`)).body.data.files).toEqual([]);
    expect((await rows(id)).map((r) => [r.deleted_at !== null, r.deleted_by])).toEqual([
      [false, null],
      [true, await idOf(t, "file_a")],
    ]);
    expect((await a.del(`${W}/${id}/files/${two.body.data.id}`)).body).toEqual({ error: 404, info: "附件不存在" });
    expect((await fileLog(id)).map((l) => l.action)).toEqual(["upload_file", "replace_file", "delete_file"]);

    // Two uploads of one kind at once: in the end one current file; the other is history or refused.
    const both = await Promise.all([
      upload(a, id, "video", "甲.mp4", SAMPLE.mp4),
      upload(b, id, "video", "乙.mp4", Buffer.concat([SAMPLE.mp4, Buffer.from("乙")])),
    ]);
    for (const r of both) expect([201, 409]).toContain(r.status);
    expect(both.some((r) => r.status === 201)).toBe(true);
    const videos = (await rows(id)).filter((r) => r.kind === "video");
    expect(videos.filter((r) => r.replaced_at === null && r.deleted_at === null)).toHaveLength(1);
    expect(videos).toHaveLength(both.filter((r) => r.status === 201).length);
  });

  it("refuses a wrong type, a renamed file, an empty file, an unknown kind and a file over the limit, storing nothing", async () => {
    const id = await makeWork(t, a, { contest: zjut, category: await catId(t, "人工智能应用"), coAuthors: [b], files: false });
    const before = filesUnder(blobs).length;
    const cases: [Promise<{ status: number; body: { error: number; info: string; data?: unknown } }>, number, string][] = [
      [upload(a, id, "video", "演示.avi", SAMPLE.mp4), 422, "「作品演示视频」只接受 mp4 格式的文件，「演示.avi」不符合"],
      [upload(a, id, "docs", "文档", SAMPLE.pdf), 422, "「设计与开发文档」只接受 pdf、doc、docx 格式的文件，「文档」不符合"],
      [
        upload(a, id, "docs", "改了扩展名.pdf", Buffer.from("这其实是一个文本文件，不是 PDF。")),
        422,
        "文件「改了扩展名.pdf」的内容不是 pdf 格式，请上传真实的 pdf 文件（不能只修改扩展名）",
      ],
      [
        upload(a, id, "video", "演示.mp4", SAMPLE.pdf),
        422,
        "文件「演示.mp4」的内容不是 mp4 格式，请上传真实的 mp4 文件（不能只修改扩展名）",
      ],
      [upload(a, id, "docs", "空.pdf", Buffer.alloc(0)), 422, "文件「空.pdf」是空文件，请重新选择"],
      [
        upload(a, id, "poster", "海报.pdf", SAMPLE.pdf),
        422,
        "「人工智能应用」没有「poster」这类附件，可上传：作品与答辩材料（defense）、素材与源码（source）、设计与开发文档（docs）、作品演示视频（video）",
      ],
    ];
    for (const [res, status, info] of cases) expect(await res).toMatchObject({ status, body: { error: status, info } });
    // The file sent before its kind: the kind is not known while the file streams.
    const late = multipart([
      { name: "file", filename: "文档.pdf", content: SAMPLE.pdf },
      { name: "kind", value: "docs" },
    ]);
    const r = await a.req("POST", `${W}/${id}/files`, late.body, late.headers);
    expect(r.body).toMatchObject({
      error: 422,
      info: "请先选择附件类型（表单字段 kind 须在文件之前发送），可选：作品与答辩材料（defense）、素材与源码（source）、设计与开发文档（docs）、作品演示视频（video）",
      data: { field: "kind" },
    });
    expect((await a.post(`${W}/${id}/files`, { kind: "docs" })).body).toEqual({
      error: 400,
      info: "请以 multipart/form-data 方式上传：先发送附件类型 kind，再发送文件 file",
    });

    // Over the 大类's limit: stopped at the limit, the partial file removed.
    const cat = await catId(t, "人工智能应用");
    const reqs = JSON.parse(
      (await t.db.selectFrom("work_category").select("required_attachments").where("id", "=", cat).executeTakeFirstOrThrow())
        .required_attachments,
    );
    await t.db
      .updateTable("work_category")
      .set({
        required_attachments: JSON.stringify(reqs.map((x: { key: string }) => (x.key === "docs" ? { ...x, maxSizeMB: 1 } : x))),
      })
      .where("id", "=", cat)
      .execute();
    const big = Buffer.concat([SAMPLE.pdf, Buffer.alloc(1024 * 1024 - SAMPLE.pdf.length + 1, 0x20)]);
    const tooBig = await upload(a, id, "docs", "超大的文档.pdf", big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({
      error: 413,
      info: "「设计与开发文档」的文件不能超过 1 MB，「超大的文档.pdf」超过了这一限制，已停止上传",
    });
    // Exactly at the limit is fine.
    expect((await upload(a, id, "docs", "刚好1MB.pdf", big.subarray(0, 1024 * 1024))).status).toBe(201);
    await t.db
      .updateTable("work_category")
      .set({ required_attachments: JSON.stringify(reqs) })
      .where("id", "=", cat)
      .execute();

    expect((await rows(id)).map((r) => r.filename)).toEqual(["刚好1MB.pdf"]);
    expect(filesUnder(blobs).length).toBe(before + 1);
    expect(filesUnder(join(blobs, "tmp"))).toEqual([]);
    expect((await fileLog(id)).map((l) => l.action)).toEqual(["upload_file"]);
  });

  it("lets only the work's confirmed authors change files, while the work is editable and 「附件」 is not locked", async () => {
    const c = await account(t, "file_c", "附件丙");
    const id = await makeWork(t, a, {
      contest: zjut,
      category: await catId(t, "物联网应用"),
      coAuthors: [b, c],
      teachers: ["teacher"],
      confirm: false,
      files: false,
    });
    await b.post(`${W}/${id}/confirm`, {});
    const seen = (await upload(a, id, "docs", "文档.pdf", SAMPLE.pdf)).body.data;

    expect((await upload(c, id, "docs", "文档.pdf", SAMPLE.pdf)).body).toEqual({
      error: 403,
      info: "请先确认参加该作品，再上传或删除附件",
    });
    for (const who of ["teacher", "school_admin", "contest_admin", "root"]) {
      const res = await upload(await login(t, who), id, "docs", "文档.pdf", SAMPLE.pdf);
      expect([who, res.status]).toEqual([who, 403]);
      expect((await (await login(t, who)).del(`${W}/${id}/files/${seen.id}`)).status).toBe(403);
    }
    // Outsiders: another student and another school's admin are told the work does not exist.
    const other = await login(t, "student4");
    const zjuAdmin = await account(t, "file_zju_admin", "浙大校管", { role: 2, school: "浙江大学" });
    const jsStudent = await account(t, "file_js", "南大学生", { school: "南京大学" });
    for (const who of [other, zjuAdmin, jsStudent]) {
      for (const res of [await who.get(`${W}/${id}/files`), await who.get(`${W}/${id}/files/${seen.id}/download`)]) {
        expect(res.body).toEqual({ error: 404, info: "作品不存在或您无权查看" });
      }
    }
    for (const who of [other, jsStudent]) {
      expect((await upload(who, id, "docs", "冒充.pdf", SAMPLE.pdf)).body).toEqual({
        error: 404,
        info: "作品不存在或您无权查看",
      });
      expect((await who.del(`${W}/${id}/files/${seen.id}`)).body).toEqual({ error: 404, info: "作品不存在或您无权查看" });
    }
    // A file id of another work is not found through this work.
    const otherWork = await makeWork(t, c, { contest: zjut, category: soft, coAuthors: [], files: false });
    const foreign = (await upload(c, otherWork, "docs", "丙的文档.pdf", pdf("丙"))).body.data;
    expect((await a.get(`${W}/${id}/files/${foreign.id}/download`)).body).toEqual({ error: 404, info: "附件不存在" });

    // Locked from registration on: refused with the lock's message.
    await t.db
      .insertInto("entry_lock")
      .values({ contest_id: zjut, field: "attachments", from_stage: "registration", created_at: new Date().toISOString() })
      .execute();
    expect((await upload(a, id, "video", "演示.mp4", SAMPLE.mp4)).body).toEqual({
      error: 403,
      info: "「附件」已于报名阶段锁定，不能修改",
    });
    expect((await a.del(`${W}/${id}/files/${seen.id}`)).body).toEqual({ error: 403, info: "「附件」已于报名阶段锁定，不能修改" });
    await t.db.deleteFrom("entry_lock").where("field", "=", "attachments").execute();

    // Submitted: no longer editable.
    await t.db.updateTable("work").set({ status: "submitted" }).where("id", "=", id).execute();
    expect((await upload(a, id, "video", "演示.mp4", SAMPLE.mp4)).body).toEqual({
      error: 400,
      info: "作品当前状态为「已提交」，不能修改；只有草稿和已退回修改的作品可以修改",
    });
    expect((await rows(id)).map((r) => [r.filename, r.deleted_at])).toEqual([["文档.pdf", null]]);
  });

  it("refuses submit until every required attachment is there, naming the missing ones", async () => {
    const id = await makeWork(t, a, {
      contest: zjut,
      category: await catId(t, "(AI+)数媒静态设计"),
      coAuthors: [b],
      files: false,
    });
    const { requirements } = (await a.get(`${W}/${id}/files`)).body.data;
    expect(requirements.find((r: { key: string }) => r.key === "video").required).toBe(false);
    expect((await a.post(`${W}/${id}/submit`, {})).body).toEqual({
      error: 400,
      info: "请上传「作品与答辩材料」、「素材与源码」、「设计与开发文档」后再提交",
    });
    await upload(a, id, "defense", "答辩.pdf", SAMPLE.pdf);
    const docs = (await upload(a, id, "docs", "文档.pdf", pdf("文档"))).body.data;
    expect((await a.post(`${W}/${id}/submit`, {})).body.info).toBe("请上传「素材与源码」后再提交");
    await upload(a, id, "source", "源码.zip", SAMPLE.zip);
    await a.del(`${W}/${id}/files/${docs.id}`);
    expect((await a.post(`${W}/${id}/submit`, {})).body.info).toBe("请上传「设计与开发文档」后再提交");
    expect((await t.db.selectFrom("work").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status).toBe("draft");
    await upload(a, id, "docs", "文档.docx", SAMPLE.zip);
    // The optional video is not needed.
    expect((await a.post(`${W}/${id}/submit`, {})).body).toMatchObject({ error: 0, data: { status: "submitted" } });
  });

  it("stores the same content once on disk, however often and by whomever it is uploaded", async () => {
    const c = await account(t, "file_d", "附件丁");
    const d = await account(t, "file_e", "附件戊");
    const w1 = await makeWork(t, c, { contest: zjut, category: await catId(t, "大数据应用"), coAuthors: [d], files: false });
    const w2 = await makeWork(t, d, { contest: zjut, category: await catId(t, "人工智能应用"), coAuthors: [c], files: false });
    const bytes = pdf(`同一份文件 ${dialect}`);
    const before = filesUnder(blobs).length;
    const r1 = await upload(c, w1, "docs", "一.pdf", bytes);
    const r2 = await upload(d, w2, "docs", "二.pdf", bytes);
    const r3 = await upload(c, w1, "defense", "三.pdf", bytes);
    expect([r1.status, r2.status, r3.status]).toEqual([201, 201, 201]);
    const hash = sha(bytes);
    expect([r1.body.data.sha256, r2.body.data.sha256, r3.body.data.sha256]).toEqual([hash, hash, hash]);
    const onDisk = filesUnder(blobs).filter((f) => f.endsWith(hash));
    expect(onDisk).toEqual([join(blobs, hash.slice(0, 2), hash.slice(2, 4), hash)]);
    expect(filesUnder(blobs).length).toBe(before + 1);
    const stored = await t.db
      .selectFrom("work_file")
      .select(["work_id", "filename"])
      .where("sha256", "=", hash)
      .orderBy("id")
      .execute();
    expect(stored.map((r) => [Number(r.work_id), r.filename])).toEqual([
      [w1, "一.pdf"],
      [w2, "二.pdf"],
      [w1, "三.pdf"],
    ]);
    expect((await d.get(`${W}/${w2}/files/${r2.body.data.id}/download`)).res.rawPayload.equals(bytes)).toBe(true);
  });
  it("lets the contest's admins upload the files of a work they entered on a school's behalf, and only those", async () => {
    const cadmin = new Client(t);
    await cadmin.login("contest_admin", "admin");
    const zj = await contestId(t, "2026-ZJ");
    const x = await account(t, "file_x", "代录附件甲");
    const y = await account(t, "file_y", "代录附件乙");
    const created = await cadmin.post("/Backend/Admin/work", {
      contestId: zj,
      categoryId: soft,
      name: "代录入作品的附件",
      authors: ["file_x", "file_y"],
      teachers: [],
      ...(await filled(t, soft)),
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    const A = `/Backend/Admin/work/${id}/files`;
    const send = (c: Client, url: string, filename: string, content: Buffer) => {
      const m = multipart([
        { name: "kind", value: "docs" },
        { name: "file", filename, content },
      ]);
      return c.req("POST", url, m.body, m.headers);
    };

    // The admin may, and the list says so; the authors may not (the work is no longer theirs to edit).
    expect((await cadmin.get(`${W}/${id}/files`)).body.data.onBehalf).toBe(true);
    expect((await x.get(`${W}/${id}/files`)).body.data.onBehalf).toBe(false);
    const up = await send(cadmin, A, "学校提交的文档.pdf", pdf("on behalf"));
    expect(up.status).toBe(201);
    expect(up.body.data).toMatchObject({ kind: "docs", filename: "学校提交的文档.pdf", uploadedBy: { name: "赵赛务" } });
    const byAuthor = await send(x, `${W}/${id}/files`, "作者.pdf", pdf("author"));
    expect(byAuthor.status).toBe(400);
    expect(byAuthor.body.info).toBe("作品当前状态为「省赛已接收」，不能修改；只有草稿和已退回修改的作品可以修改");
    expect((await x.get(`${W}/${id}/files`)).body.data.files.map((f: { filename: string }) => f.filename)).toEqual([
      "学校提交的文档.pdf",
    ]);
    expect((await fileLog(id)).map((l) => l.action)).toEqual(["upload_file"]);

    // Replace, then delete, on the admins' route.
    const again = await send(cadmin, A, "学校提交的文档（第二版）.pdf", pdf("v2"));
    expect(again.body.info).toContain("已替换");
    const del = await cadmin.req("DELETE", `${A}/${again.body.data.id}`);
    expect(del.body).toMatchObject({ error: 0 });
    expect((await fileLog(id)).map((l) => l.action)).toEqual(["upload_file", "replace_file", "delete_file"]);

    // A work the students submitted themselves: its files stay the authors' own.
    const c1 = await account(t, "file_c1", "自交甲");
    const c2 = await account(t, "file_c2", "自交乙");
    const own = await makeWork(t, c1, {
      contest: zjut,
      category: soft,
      name: "学生自己提交的作品",
      coAuthors: [c2],
      files: false,
    });
    const refused = await send(cadmin, `/Backend/Admin/work/${own}/files`, "管理员.pdf", pdf("no"));
    expect([403, 404]).toContain(refused.status);
    // Students and school admins cannot use the admins' route at all.
    expect((await send(x, A, "作者.pdf", pdf("author"))).status).toBe(403);
    void y;
  });
});
