/**
 * Certificate printing through the API, on the published Jiangsu result of the complaints
 * fixture (w[0] 一等奖, w[1] 二等奖; js_admin manages Jiangsu, the demo contest_admin only
 * Zhejiang): scope, list filters, templates (a field off the page changes nothing), background
 * uploads, the PDF batch job end to end (pdftotext reads the names, the QR code decodes to the
 * verification address, the print log marks the reprint), rare characters in names, a
 * character no font has, browser print, own downloads and the public key list.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { multipart } from "../helpers/multipart";
import { waitJob } from "../helpers/jobs";
import { login } from "./works-fixtures";
import { publishedContest, type Fixture } from "./complaints-fixtures";
import { defaultLayout, verifyUrl } from "../../src/shared/certificate/layout";
import { fontSet, measuredRuns } from "../../src/server/certificate/fonts";

const C = "/Backend/Certificate";
const NOT_MANAGED = "赛事不存在或不在您的管理范围内";
const CERT_NOT_FOUND = "证书不存在或不在您的管理范围内";

const work = tmpdir();
/** The text of a PDF (pdftotext), one string. */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(work, "cert-pdf-"));
  try {
    writeFileSync(join(dir, "a.pdf"), pdf);
    return execFileSync("pdftotext", ["-enc", "UTF-8", join(dir, "a.pdf"), "-"]).toString("utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
/** The page count and the text of page `page` as a picture's QR code (pdftoppm + jsQR). */
function pdfInfo(pdf: Buffer, page = 1): { pages: number; qr: string | null; images: number } {
  const dir = mkdtempSync(join(work, "cert-pdf-"));
  try {
    writeFileSync(join(dir, "a.pdf"), pdf);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [join(dir, "a.pdf")]).toString())![1]);
    execFileSync("pdftoppm", [
      "-r",
      "150",
      "-png",
      "-f",
      String(page),
      "-l",
      String(page),
      "-singlefile",
      join(dir, "a.pdf"),
      join(dir, "p"),
    ]);
    const png = PNG.sync.read(Buffer.from(execFileSync("cat", [join(dir, "p.png")])));
    const qr = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
    const images =
      execFileSync("pdfimages", ["-list", join(dir, "a.pdf")])
        .toString()
        .trim()
        .split("\n").length - 2;
    return { pages, qr: qr?.data ?? null, images };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
/** A small real PNG (pngjs). */
function pngImage(w: number, h: number): Buffer {
  const png = new PNG({ width: w, height: h });
  for (let i = 0; i < w * h; i++) png.data.set([250, 240, 220, 255], i * 4);
  return PNG.sync.write(png);
}

describe.each(DIALECTS)("certificate printing on %s", (dialect) => {
  let t: TestApp;
  let f: Fixture;
  let zjAdmin: Client;
  let student: Client;
  let dist: string;
  const certs = (workId: number) =>
    t.db
      .selectFrom("certificate")
      .selectAll()
      .where("work_id", "=", workId)
      .orderBy("holder_user_id")
      .orderBy("version")
      .execute();
  const valid = async (workId: number) => (await certs(workId)).filter((c) => c.status === "valid");
  const prints = () => t.db.selectFrom("certificate_print").selectAll().orderBy("id").execute();
  const jobs = async () => (await t.db.selectFrom("job").select("id").where("resource", "=", "certificate").execute()).length;
  const list = (c: Client, q: Record<string, string | number | boolean>) =>
    c.get(`${C}/list?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`);
  const raw = (c: Client, url: string) =>
    t.app.inject({ method: "GET", url, headers: { cookie: c.cookie, host: "localhost:80" } });
  const pdfJob = async (c: Client, body: unknown) => {
    const r = await c.post(`${C}/print/pdf`, body);
    expect(r.status, r.body.info).toBe(202);
    const job = await waitJob(c, r.body.data.jobId, 30_000);
    expect(job.status, job.message).toBe("done");
    const file = await raw(c, `/Backend/Common/job/${job.id}/download`);
    return { job, file };
  };

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), "cert-dist-"));
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, "index.html"), "<!doctype html><title>赛务平台</title>");
    t = await makeApp(dialect, { env: { DIST_DIR: dist } });
    f = await publishedContest(t);
    zjAdmin = await login(t, "contest_admin");
    student = await login(t, "student");
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it("scope: the contest's admin and root see its certificates; an admin of another contest and a missing contest get the same 404", async () => {
    const mine = await f.cadmin.get(`${C}/contests`);
    expect(mine.body.data).toEqual([
      expect.objectContaining({
        id: f.js,
        published: true,
        certificates: (await t.db.selectFrom("certificate").select("number").distinct().where("contest_id", "=", f.js).execute())
          .length,
      }),
    ]);
    expect((await f.root.get(`${C}/contests`)).body.data.map((c: { id: number }) => c.id)).toContain(f.js);
    expect((await zjAdmin.get(`${C}/contests`)).body.data.map((c: { id: number }) => c.id)).not.toContain(f.js);

    const ok = await list(f.cadmin, { contestId: f.js });
    expect(ok.body.error, ok.body.info).toBe(0);
    expect(ok.body.data.total).toBeGreaterThan(0);
    const other = await list(zjAdmin, { contestId: f.js });
    const missing = await list(zjAdmin, { contestId: 999999 });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: 404, info: NOT_MANAGED });
    expect(missing.body).toEqual(other.body);

    const [c] = await valid(f.w[0]);
    expect((await zjAdmin.get(`${C}/${c.id}/prints`)).body).toEqual({ error: 404, info: CERT_NOT_FOUND });
    expect((await zjAdmin.get(`${C}/999999/prints`)).body).toEqual({ error: 404, info: CERT_NOT_FOUND });
    expect((await zjAdmin.post(`${C}/print/pdf`, { ids: [c.id] })).body).toEqual({ error: 404, info: CERT_NOT_FOUND });
    expect((await zjAdmin.post(`${C}/print/browser`, { filters: { contestId: f.js } })).body).toEqual({
      error: 404,
      info: NOT_MANAGED,
    });
    expect((await zjAdmin.get(`${C}/templates?contestId=${f.js}`)).body).toEqual({ error: 404, info: NOT_MANAGED });
    // Roles without printing rights are refused by the policy.
    expect((await student.get(`${C}/contests`)).status).toBe(403);
    expect(await prints()).toHaveLength(0);
    expect(await jobs()).toBe(0);
  });

  it("list: newest versions, filtered by award, school, group, holder kind, status, keyword and printed", async () => {
    const all = (await list(f.cadmin, { contestId: f.js, pageSize: 100 })).body.data;
    const w0 = await valid(f.w[0]);
    const w1 = await valid(f.w[1]);
    expect(all.total).toBe(w0.length + w1.length);
    expect(all.list.map((r: { number: string }) => r.number)).toEqual([...w0, ...w1].map((c) => c.number).sort());
    expect(all.list[0]).toMatchObject({
      holderKind: "author",
      status: "valid",
      groupName: "软件组",
      printCount: 0,
      lastPrintedAt: null,
      awardName: "一等奖",
    });

    const first = (await list(f.cadmin, { contestId: f.js, awardLevelId: f.award.get("一等奖")! })).body.data;
    expect(first.list.map((r: { workId: number }) => r.workId)).toEqual(w0.map(() => f.w[0]));
    const school = (await t.db.selectFrom("work").select("school_id").where("id", "=", f.w[1]).executeTakeFirstOrThrow())
      .school_id;
    expect(
      (await list(f.cadmin, { contestId: f.js, schoolId: school })).body.data.list.map((r: { workId: number }) => r.workId),
    ).toEqual(w1.map(() => f.w[1]));
    const group = await t.db
      .selectFrom("judge_group")
      .select("id")
      .where("contest_id", "=", f.js)
      .where("name", "=", "软件组")
      .executeTakeFirstOrThrow();
    expect((await list(f.cadmin, { contestId: f.js, groupId: group.id })).body.data.total).toBe(all.total);
    expect((await list(f.cadmin, { contestId: f.js, groupId: 999999 })).body.data.total).toBe(0);
    expect((await list(f.cadmin, { contestId: f.js, holderKind: "author" })).body.data.total).toBe(all.total);
    expect((await list(f.cadmin, { contestId: f.js, holderKind: "school" })).body.data.total).toBe(0);
    expect((await list(f.cadmin, { contestId: f.js, status: "revoked" })).body.data.total).toBe(0);
    const byName = (await list(f.cadmin, { contestId: f.js, keyword: w0[0].holder_name })).body.data;
    expect(byName.list.map((r: { id: number }) => r.id)).toEqual([w0[0].id]);
    expect(
      (await list(f.cadmin, { contestId: f.js, keyword: w1[0].number })).body.data.list.map((r: { id: number }) => r.id),
    ).toEqual([w1[0].id]);
    expect((await list(f.cadmin, { contestId: f.js, keyword: "100%_" })).body.data.total).toBe(0);
    expect((await list(f.cadmin, { contestId: f.js, unprinted: true })).body.data.total).toBe(all.total);
    expect((await list(f.cadmin, { contestId: f.js, unprinted: false })).body.data.total).toBe(0);
    const page = (await list(f.cadmin, { contestId: f.js, pageSize: 1, current: 2 })).body.data;
    expect(page).toMatchObject({ total: all.total, list: [{ id: all.list[1].id }] });
  });

  it("templates: the default until saved; a field off the page is refused naming the field, nothing saved; a valid one is saved", async () => {
    const before = (await f.cadmin.get(`${C}/templates?contestId=${f.js}`)).body.data;
    expect(before.map((v: { awardKind: string; isDefault: boolean }) => [v.awardKind, v.isDefault])).toEqual([
      ["work", true],
      ["teacher", true],
      ["school", true],
    ]);
    expect(before[0].fields).toEqual(defaultLayout("work").fields);

    const layout = defaultLayout("work");
    const off = layout.fields.map((fl) => (fl.key === "awardName" ? { ...fl, x: 250 } : fl));
    const r = await f.cadmin.req("PUT", `${C}/templates`, {
      contestId: f.js,
      awardKind: "work",
      orientation: "landscape",
      backgroundSha256: null,
      fields: off,
    });
    expect(r.status).toBe(400);
    expect(r.body.info).toContain("「奖项」超出页面");
    expect(r.body.info).toContain("297 × 210 mm");
    // The same fields in portrait: the bottom ones are off a 210 mm wide page.
    const portrait = await f.cadmin.req("PUT", `${C}/templates`, {
      contestId: f.js,
      awardKind: "work",
      orientation: "portrait",
      backgroundSha256: null,
      fields: layout.fields,
    });
    expect(portrait.status).toBe(400);
    expect(portrait.body.info).toMatch(/「.+」超出页面：页面为 210 × 297 mm/);
    const noBg = await f.cadmin.req("PUT", `${C}/templates`, {
      contestId: f.js,
      awardKind: "work",
      orientation: "landscape",
      backgroundSha256: "a".repeat(64),
      fields: layout.fields,
    });
    expect(noBg.body).toEqual({ error: 400, info: "背景图片不存在，请重新上传" });
    expect(await t.db.selectFrom("certificate_template").selectAll().execute()).toHaveLength(0);
    expect(
      (
        await zjAdmin.req("PUT", `${C}/templates`, {
          contestId: f.js,
          awardKind: "work",
          orientation: "landscape",
          backgroundSha256: null,
          fields: layout.fields,
        })
      ).body,
    ).toEqual({ error: 404, info: NOT_MANAGED });

    const moved = layout.fields.map((fl) => (fl.key === "title" ? { ...fl, text: "荣誉证书（江苏）", extra: 1 } : fl));
    const saved = await f.cadmin.req("PUT", `${C}/templates`, {
      contestId: f.js,
      awardKind: "work",
      orientation: "landscape",
      backgroundSha256: null,
      fields: moved,
    });
    expect(saved.body.error, saved.body.info).toBe(0);
    expect(saved.body.data).toMatchObject({
      contestId: f.js,
      awardKind: "work",
      isDefault: false,
      updatedBy: "苏赛务",
      updatedAt: expect.any(String),
    });
    expect(saved.body.data.fields[0]).toEqual({ ...layout.fields[0], text: "荣誉证书（江苏）" });
    const after = (await f.root.get(`${C}/templates?contestId=${f.js}`)).body.data;
    expect(after[0]).toMatchObject({ isDefault: false, fields: saved.body.data.fields });
    expect(after[1].isDefault).toBe(true);
  });

  it("background upload: a non-image (even named .png) is refused and nothing recorded; a PNG is stored with its size and shown in scope only", async () => {
    const bad = multipart([
      { name: "file", filename: "底图.png", content: Buffer.from("%PDF-1.7 this is a pdf"), type: "image/png" },
    ]);
    const r = await f.cadmin.req("POST", `${C}/templates/background`, bad.body, bad.headers);
    expect(r.status).toBe(422);
    expect(r.body.info).toContain("「底图.png」不是 PNG 或 JPEG 图片");
    expect(await t.db.selectFrom("certificate_background").selectAll().execute()).toHaveLength(0);

    const good = multipart([{ name: "file", filename: "scan.png", content: pngImage(297, 210), type: "image/png" }]);
    const up = await f.cadmin.req("POST", `${C}/templates/background`, good.body, good.headers);
    expect(up.status, up.body.info).toBe(201);
    expect(up.body.data).toMatchObject({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/), width: 297, height: 210 });
    const sha = up.body.data.sha256 as string;
    const img = await raw(f.cadmin, `${C}/background/${sha}`);
    expect(img.statusCode).toBe(200);
    expect(img.headers["content-type"]).toBe("image/png");
    expect(img.rawPayload.equals(pngImage(297, 210))).toBe(true);
    // Not yet in a template: only the uploader sees it.
    expect((await zjAdmin.get(`${C}/background/${sha}`)).body).toEqual({
      error: 404,
      info: "背景图片不存在或不在您的管理范围内",
    });
    expect((await f.root.get(`${C}/background/${sha}`)).status).toBe(200);

    const layout = (await f.cadmin.get(`${C}/templates?contestId=${f.js}`)).body.data[0];
    const saved = await f.cadmin.req("PUT", `${C}/templates`, {
      ...layout,
      backgroundSha256: sha,
      isDefault: undefined,
      updatedAt: undefined,
      updatedBy: undefined,
    });
    expect(saved.body.error, saved.body.info).toBe(0);
    expect(saved.body.data.backgroundSha256).toBe(sha);
    expect((await zjAdmin.get(`${C}/background/${sha}`)).status).toBe(404);

    // The preview embeds it and prints the sample's rare characters.
    const preview = await t.app.inject({
      method: "POST",
      url: `${C}/templates/preview`,
      payload: { ...layout, backgroundSha256: sha, isDefault: undefined, updatedAt: undefined, updatedBy: undefined },
      headers: { cookie: f.cadmin.cookie, host: "localhost:80", origin: "http://localhost:80" },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.headers["content-type"]).toBe("application/pdf");
    expect(pdfText(preview.rawPayload)).toContain("欧阳䶮𠮷");
    expect(pdfInfo(preview.rawPayload).images).toBeGreaterThanOrEqual(1);
  });

  it("PDF batch: a job with progress, a .pdf download holding every holder's name and a QR code that verifies; the log marks the second print as a reprint", async () => {
    const w0 = await valid(f.w[0]);
    const w1 = await valid(f.w[1]);
    const { job, file } = await pdfJob(f.cadmin, { filters: { contestId: f.js } });
    const n = w0.length + w1.length;
    expect(job).toMatchObject({
      kind: "export",
      resource: "certificate",
      processed: n,
      total: n,
      downloadUrl: `/Backend/Common/job/${job.id}/download`,
    });
    expect(job.message).toContain(`已生成 ${n} 张证书的 PDF`);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("application/pdf");
    expect(String(file.headers["content-disposition"])).toMatch(/\.pdf$/);
    expect(file.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const text = pdfText(file.rawPayload);
    for (const c of [...w0, ...w1]) {
      expect(text).toContain(c.holder_name);
      expect(text).toContain(c.number);
    }
    // The first page is the first number; its QR code opens /verify-cert with number and code.
    const sorted = [...w0, ...w1].sort((a, b) => (a.number < b.number ? -1 : 1));
    const info = pdfInfo(file.rawPayload);
    expect(info.pages).toBe(n);
    expect(info.qr).toBe(verifyUrl("http://localhost:8080", sorted[0].number, sorted[0].signature));
    const q = new URL(info.qr!).searchParams;
    const check = await new Client(t).get(
      `${C}/verify?${new URLSearchParams({ number: q.get("number")!, code: q.get("code")!, name: sorted[0].holder_name })}`,
    );
    expect(check.body.data).toMatchObject({ status: "valid", signature: "valid" });

    const logged = await prints();
    expect(logged).toHaveLength(n);
    for (const p of logged) expect(p).toMatchObject({ mode: "pdf", reprint: 0, job_id: job.id });

    // Printed again (by ids): reprints.
    const again = await pdfJob(f.cadmin, { ids: [w0[0].id] });
    expect(again.job.message).toContain("其中 1 张为重印");
    const log = await f.cadmin.get(`${C}/${w0[0].id}/prints`);
    expect(
      log.body.data.map((p: { mode: string; reprint: boolean; jobId: string; userName: string }) => [
        p.mode,
        p.reprint,
        p.jobId,
        p.userName,
      ]),
    ).toEqual([
      ["pdf", true, again.job.id, "苏赛务"],
      ["pdf", false, job.id, "苏赛务"],
    ]);
    const row = (await list(f.cadmin, { contestId: f.js, keyword: w0[0].number })).body.data.list[0];
    expect(row).toMatchObject({ printCount: 2, lastPrintedAt: expect.any(String) });
    expect((await list(f.cadmin, { contestId: f.js, unprinted: true })).body.data.total).toBe(0);
    // Another user's job is not theirs to download.
    expect((await zjAdmin.get(`/Backend/Common/job/${job.id}/download`)).status).toBe(404);
  });

  it("rare characters: a holder named 欧阳䶮𠮷 prints both characters with real glyphs", async () => {
    const [c] = await valid(f.w[0]);
    const renamed = await f.root.req("PATCH", `/Backend/Admin/user/${c.holder_user_id}`, { name: "欧阳䶮𠮷" });
    expect(renamed.body.error, renamed.body.info).toBe(0);
    const v2 = (await valid(f.w[0])).find((x) => x.number === c.number)!;
    expect(v2).toMatchObject({ version: 2, holder_name: "欧阳䶮𠮷" });
    // The reissued version is unprinted.
    expect((await list(f.cadmin, { contestId: f.js, unprinted: true })).body.data.list.map((r: { id: number }) => r.id)).toEqual([
      v2.id,
    ]);
    const runs = measuredRuns("欧阳䶮𠮷", fontSet().regular);
    expect(runs.flatMap((r) => r.glyphs).length).toBe(4);
    expect(runs.flatMap((r) => r.glyphs).every((g) => g > 0)).toBe(true);
    const { file } = await pdfJob(f.cadmin, { ids: [v2.id] });
    const text = pdfText(file.rawPayload);
    expect(text).toContain("欧阳䶮𠮷");
    expect(text).toContain("䶮");
    expect(text).toContain("𠮷");
    expect(text).toContain(`（第 2 版）`);
  });

  it("a character no font has: a clear refusal naming certificate, holder and character; no job, no log", async () => {
    const [c] = (await valid(f.w[0])).slice(-1);
    const before = { prints: (await prints()).length, jobs: await jobs() };
    const renamed = await f.root.req("PATCH", `/Backend/Admin/user/${c.holder_user_id}`, { name: "王\u{10FFFD}" });
    expect(renamed.body.error, renamed.body.info).toBe(0);
    const v = (await valid(f.w[0])).find((x) => x.number === c.number)!;
    const r = await f.cadmin.post(`${C}/print/pdf`, { ids: [v.id] });
    expect(r.status).toBe(400);
    expect(r.body.info).toContain(`证书 ${v.number}（王\u{10FFFD}）`);
    expect(r.body.info).toContain("（U+10FFFD）");
    expect(r.body.info).toContain("fonts-noto-cjk");
    expect(r.body.info).toContain("CERT_FONT_FALLBACKS");
    // The whole filtered batch is refused too.
    expect((await f.cadmin.post(`${C}/print/pdf`, { filters: { contestId: f.js } })).status).toBe(400);
    expect({ prints: (await prints()).length, jobs: await jobs() }).toEqual(before);

    // Without fallback fonts, 𠮷 (Extension B) has none either.
    const v2 = (await valid(f.w[0])).find((x) => x.holder_name === "欧阳䶮𠮷")!;
    const saved = process.env.CERT_FONT_FALLBACKS;
    process.env.CERT_FONT_FALLBACKS = "";
    try {
      const rare = await f.cadmin.post(`${C}/print/pdf`, { ids: [v2.id] });
      expect(rare.status).toBe(400);
      expect(rare.body.info).toContain("「𠮷」（U+20BB7）");
    } finally {
      if (saved === undefined) delete process.env.CERT_FONT_FALLBACKS;
      else process.env.CERT_FONT_FALLBACKS = saved;
    }
    expect({ prints: (await prints()).length, jobs: await jobs() }).toEqual(before);
    // Put the name back for the tests below.
    await f.root.req("PATCH", `/Backend/Admin/user/${c.holder_user_id}`, { name: c.holder_name });
  });

  it("browser print: sheets with facts, verification URL and QR path, the templates used; logged once confirmed; revoked ones skipped", async () => {
    const w0 = await valid(f.w[0]);
    const adminPrints = async () => (await prints()).filter((p) => p.mode !== "download");
    const printedBefore = new Set((await adminPrints()).map((p) => p.certificate_id));
    const logBefore = (await adminPrints()).length;
    const r = await f.cadmin.post(`${C}/print/browser`, { ids: w0.map((c) => c.id) });
    expect(r.body.error, r.body.info).toBe(0);
    const { sheets, templates, skipped } = r.body.data;
    expect(skipped).toBe(0);
    expect(sheets).toHaveLength(w0.length);
    const s = sheets.find((x: { certificateId: number }) => x.certificateId === w0[0].id);
    expect(s).toMatchObject({
      contestId: f.js,
      awardKind: "work",
      facts: { number: w0[0].number, holderName: w0[0].holder_name, awardName: "一等奖" },
      verifyUrl: verifyUrl("http://localhost:8080", w0[0].number, w0[0].signature),
    });
    expect(s.qr.size).toBeGreaterThan(20);
    expect(s.qr.path).toMatch(/^M\d+ \d+h\d+v1h-\d+z/);
    expect(templates.map((x: { contestId: number; awardKind: string }) => [x.contestId, x.awardKind])).toEqual([[f.js, "work"]]);
    // Opening the print (the browser's preview) logs nothing: it may be closed unprinted (issue 29).
    expect((await prints()).filter((p) => p.mode === "browser")).toEqual([]);
    const again = await f.cadmin.post(`${C}/print/browser`, { ids: w0.map((c) => c.id) });
    const reprintOf = (list: { certificateId: number; reprint: boolean }[]) => list.map((x) => [x.certificateId, x.reprint]);
    expect(reprintOf(again.body.data.sheets)).toEqual(reprintOf(sheets));
    expect(reprintOf(sheets)).toEqual(
      sheets.map((x: { certificateId: number }) => [x.certificateId, printedBefore.has(x.certificateId)]),
    );
    expect((await adminPrints()).length).toBe(logBefore);
    // The user's 已打印 confirmation logs it (a certificate printed before as a reprint).
    const wasPrinted = w0.filter((c) => printedBefore.has(c.id)).length;
    const confirmed = await f.cadmin.post(`${C}/print/browser/confirm`, { ids: w0.map((c) => c.id) });
    expect(confirmed.body).toEqual({
      error: 0,
      info: `已记录 ${w0.length} 张证书的打印${wasPrinted ? `（其中 ${wasPrinted} 张为补打）` : ""}`,
      data: { count: w0.length, reprints: wasPrinted },
    });
    const logged = (await prints()).filter((p) => p.mode === "browser");
    expect(logged.map((p) => [p.certificate_id, !!p.reprint]).sort()).toEqual(
      w0.map((c) => [c.id, printedBefore.has(c.id)]).sort(),
    );
    // Out of scope: 404 like a missing certificate, nothing logged.
    const outsider = await zjAdmin.post(`${C}/print/browser/confirm`, { ids: [w0[0].id] });
    expect(outsider.body).toEqual({ error: 404, info: CERT_NOT_FOUND });
    expect((await prints()).filter((p) => p.mode === "browser")).toHaveLength(w0.length);

    // After a disqualification, w[1]'s certificates are revoked: skipped, and alone refused.
    const dq = await f.root.post(`/Backend/Admin/work/${f.w[1]}/disqualify`, { reason: "抄袭属实" });
    expect(dq.body.error, dq.body.info).toBe(0);
    const w1 = (await certs(f.w[1])).filter((c) => c.status === "revoked");
    expect(w1.length).toBeGreaterThan(0);
    const mixed = await f.cadmin.post(`${C}/print/browser`, { ids: [w0[0].id, ...w1.map((c) => c.id)] });
    expect(mixed.body.data.sheets.map((x: { certificateId: number }) => x.certificateId)).toEqual([w0[0].id]);
    expect(mixed.body.data.skipped).toBe(w1.length);
    expect(mixed.body.data.sheets[0].reprint).toBe(true);
    // Confirming the mixed batch logs the valid one as a reprint and skips the revoked ones.
    const mixedLogged = await f.cadmin.post(`${C}/print/browser/confirm`, { ids: [w0[0].id, ...w1.map((c) => c.id)] });
    expect(mixedLogged.body.data).toEqual({ count: 1, reprints: 1 });
    const before = (await prints()).length;
    const only = await f.cadmin.post(`${C}/print/pdf`, { ids: w1.map((c) => c.id) });
    expect(only.body).toEqual({ error: 400, info: `所选的 ${w1.length} 张证书都已撤销或已换发新版本，不能打印` });
    expect((await prints()).length).toBe(before);
    expect((await f.cadmin.post(`${C}/print/browser`, {})).body).toEqual({
      error: 400,
      info: "请选择要打印的证书，或给出筛选条件",
    });
  });

  it("own certificates: a holder lists and downloads their own (logged as a download); another's is 404; a revoked one cannot be downloaded", async () => {
    const [c] = await valid(f.w[0]);
    const holder = await t.db
      .selectFrom("app_user")
      .select("username")
      .where("id", "=", c.holder_user_id!)
      .executeTakeFirstOrThrow();
    const me = await login(t, holder.username);
    const mine = await me.get(`${C}/mine`);
    expect(mine.body.data).toEqual([
      expect.objectContaining({
        id: c.id,
        number: c.number,
        status: "valid",
        contestId: f.js,
        pdfUrl: `${C}/mine/${c.id}/pdf`,
        verifyUrl: verifyUrl("http://localhost:8080", c.number, c.signature),
      }),
    ]);
    const before = (await prints()).length;
    const pdf = await raw(me, `${C}/mine/${c.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdfText(pdf.rawPayload)).toContain(c.holder_name);
    const logged = (await prints()).slice(before);
    expect(logged).toEqual([expect.objectContaining({ certificate_id: c.id, mode: "download", reprint: 0 })]);
    // Not theirs: the same 404 as a missing one, nothing logged.
    const other = await valid(f.w[0]);
    const someoneElse = other.find((x) => x.holder_user_id !== c.holder_user_id);
    if (someoneElse) expect((await me.get(`${C}/mine/${someoneElse.id}/pdf`)).body).toEqual({ error: 404, info: "证书不存在" });
    expect((await student.get(`${C}/mine/${c.id}/pdf`)).body).toEqual({ error: 404, info: "证书不存在" });
    expect((await student.get(`${C}/mine/999999/pdf`)).body).toEqual({ error: 404, info: "证书不存在" });

    // w[1] was disqualified: its holder sees the certificate as revoked and cannot download it.
    const [revoked] = (await certs(f.w[1])).filter((x) => x.status === "revoked");
    const loser = await login(
      t,
      (await t.db.selectFrom("app_user").select("username").where("id", "=", revoked.holder_user_id!).executeTakeFirstOrThrow())
        .username,
    );
    const list2 = (await loser.get(`${C}/mine`)).body.data;
    expect(list2).toEqual([
      expect.objectContaining({ id: revoked.id, status: "revoked", statusReason: "disqualified", pdfUrl: null }),
    ]);
    const refused = await loser.get(`${C}/mine/${revoked.id}/pdf`);
    expect(refused.status).toBe(400);
    expect(refused.body.info).toMatch(/^该证书已于 \d{4}-\d{2}-\d{2} 撤销（作品被取消资格），不能下载/);
    // A replaced version: refused, pointing to the newest.
    const replaced = (await certs(f.w[0])).find((x) => x.status === "replaced" && x.holder_user_id === c.holder_user_id);
    if (replaced) expect((await me.get(`${C}/mine/${replaced.id}/pdf`)).body.info).toContain("不能再下载，请下载最新版本");
    expect((await prints()).length).toBe(before + 1);
  });

  it("teacher and school honours print with their own templates (优秀指导教师证书, 优秀组织奖证书)", async () => {
    const level = async (kind: string) =>
      (
        await t.db
          .selectFrom("award_level")
          .select("id")
          .where("contest_level", "=", "provincial")
          .where("kind", "=", kind)
          .executeTakeFirstOrThrow()
      ).id;
    const teacher = await t.db
      .selectFrom("work_teacher")
      .innerJoin("app_user", "app_user.id", "work_teacher.user_id")
      .select(["app_user.id", "app_user.name"])
      .where("work_teacher.work_id", "=", f.w[0])
      .executeTakeFirstOrThrow();
    const school = await t.db
      .selectFrom("work")
      .innerJoin("school", "school.id", "work.school_id")
      .select(["school.id", "school.name"])
      .where("work.id", "=", f.w[0])
      .executeTakeFirstOrThrow();
    const H = `/Backend/ContestAdmin/judging/${f.js}/honours`;
    const t1 = await f.cadmin.post(H, {
      awardLevelId: await level("teacher"),
      teacherUserId: teacher.id,
      workId: f.w[0],
      reason: "指导成绩优异",
    });
    expect(t1.body.error, t1.body.info).toBe(0);
    const s1 = await f.cadmin.post(H, { awardLevelId: await level("organisation"), schoolId: school.id, reason: "组织工作突出" });
    expect(s1.body.error, s1.body.info).toBe(0);
    const rows = (await list(f.cadmin, { contestId: f.js, holderKind: "teacher" })).body.data.list;
    expect(rows).toEqual([expect.objectContaining({ holderKind: "teacher", holderName: teacher.name, workId: f.w[0] })]);
    const schoolRows = (await list(f.cadmin, { contestId: f.js, holderKind: "school", schoolId: school.id })).body.data.list;
    expect(schoolRows).toEqual([expect.objectContaining({ holderKind: "school", holderName: school.name })]);
    const sheets = (await f.cadmin.post(`${C}/print/browser`, { ids: [rows[0].id, schoolRows[0].id] })).body.data;
    expect(sheets.sheets.map((s: { awardKind: string }) => s.awardKind).sort()).toEqual(["school", "teacher"]);
    expect(sheets.templates.map((v: { awardKind: string }) => v.awardKind).sort()).toEqual(["school", "teacher"]);
    const { file } = await pdfJob(f.cadmin, { ids: [rows[0].id, schoolRows[0].id] });
    const text = pdfText(file.rawPayload);
    expect(text).toContain(`${teacher.name} 老师`);
    expect(text).toContain("指导学生成绩优异");
    expect(text).toContain("组织工作成绩突出");
    expect(text).toContain(school.name);
    // The teacher downloads their own.
    const me = await login(
      t,
      (await t.db.selectFrom("app_user").select("username").where("id", "=", teacher.id).executeTakeFirstOrThrow()).username,
    );
    const mine = (await me.get(`${C}/mine`)).body.data;
    expect(mine).toEqual([expect.objectContaining({ id: rows[0].id, holderKind: "teacher", status: "valid" })]);
    expect((await raw(me, mine[0].pdfUrl)).headers["content-type"]).toBe("application/pdf");
  });

  it("the public key list is also at /.well-known/certificate-keys.json (no envelope, not the SPA page)", async () => {
    const keys = (await new Client(t).get(`${C}/keys`)).body.data;
    const res = await t.app.inject({ method: "GET", url: "/.well-known/certificate-keys.json" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.json()).toEqual(keys);
    // The SPA fallback is in place for other paths.
    expect((await t.app.inject({ method: "GET", url: "/verify-cert" })).body).toContain("<title>赛务平台</title>");
  });
});
