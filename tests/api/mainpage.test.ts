/**
 * The public main page (issue 14): public lists paginated on the server, only published
 * facts, ETag/Last-Modified revalidation, and /admin/BestWork for root only.
 */
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { multipart } from "../helpers/multipart";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { seedBestWorksDemo } from "../../src/server/seed/mainpage-demo";

const PUB = "/Backend/Public/mainpage";
const ADM = "/Backend/Admin/best-work";

/** The first bytes of a PNG (signature and IHDR with the size): what the magic-byte check reads. */
const png = (w: number, h: number) => {
  const b = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write("IHDR", 12, "latin1");
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  return b;
};

describe.each(DIALECTS)("public main page and best works on %s", (dialect) => {
  let t: TestApp;
  let root: Client, cadmin: Client, anon: Client;
  beforeAll(async () => {
    t = await makeApp(dialect);
    // The Zhejiang results published (as in the served demo), then the demo's best works.
    expect(await seedResultsDemo(t.db)).toBe(true);
    expect(await seedComplaintsDemo(t.db)).toBe(true);
    expect(await seedBestWorksDemo(t.db)).toBe(true);
    root = new Client(t);
    cadmin = new Client(t);
    anon = new Client(t);
    await root.login("root", "admin");
    await cadmin.login("contest_admin", "admin");
  });
  afterAll(async () => t?.close());

  it("lists published news page by page, newest first; drafts and scheduled items never show", async () => {
    const p1 = await anon.get(`${PUB}/news?pageSize=2`);
    expect(p1.status).toBe(200);
    const total = p1.body.data.total;
    expect(total).toBeGreaterThanOrEqual(4);
    expect(p1.body.data.list).toHaveLength(2);
    const p2 = await anon.get(`${PUB}/news?pageSize=2&current=2`);
    expect(p2.body.data.list).toHaveLength(2);
    expect(p2.body.data.list[0].id).not.toBe(p1.body.data.list[0].id);
    const times = [...p1.body.data.list, ...p2.body.data.list].map((n: { publishAt: string }) => n.publishAt);
    expect([...times].sort().reverse()).toEqual(times);
    const titles = (await anon.get(`${PUB}/news?pageSize=50`)).body.data.list.map((n: { title: string }) => n.title);
    expect(titles.some((x: string) => x.includes("草稿"))).toBe(false);

    const future = await root.post("/Backend/Admin/news", {
      title: "明天才发布的新闻",
      body: "<p>稍后</p>",
      status: "published",
      publishAt: new Date(Date.now() + 86400000).toISOString(),
    });
    expect(future.status).toBe(201);
    const draft = await t.db.selectFrom("news").select("id").where("status", "=", "draft").executeTakeFirstOrThrow();
    expect((await anon.get(`${PUB}/news/${draft.id}`)).status).toBe(404);
    expect((await anon.get(`${PUB}/news/${future.body.data.id}`)).status).toBe(404);
    const one = await anon.get(`${PUB}/news/${p1.body.data.list[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body.data.body).toContain("<p>");
    expect((await anon.get(`${PUB}/news?pageSize=51`)).status).toBe(422);
  });

  it("filters notices by contest level and province", async () => {
    const all = (await anon.get(`${PUB}/notices?pageSize=50`)).body.data;
    expect(all.total).toBeGreaterThan(0);
    const zj = (await anon.get(`${PUB}/notices?pageSize=50&level=provincial&province=${encodeURIComponent("浙江省")}`)).body.data;
    expect(zj.total).toBeGreaterThan(0);
    expect(
      zj.list.every(
        (n: { province: string; contestLevel: string }) => n.province === "浙江省" && n.contestLevel === "provincial",
      ),
    ).toBe(true);
    expect(zj.total).toBeLessThan(all.total);
    expect((await anon.get(`${PUB}/notices?pageSize=50&level=national`)).body.data.total).toBe(0);
    // A notice is not a news article and the other way round.
    expect((await anon.get(`${PUB}/news/${zj.list[0].id}`)).status).toBe(404);
  });

  it("answers 304 to a matching If-None-Match or a fresh If-Modified-Since, and a new ETag after a change", async () => {
    const first = await anon.get(`${PUB}/home`);
    expect(first.status).toBe(200);
    const etag = first.res.headers.etag as string;
    const lm = first.res.headers["last-modified"] as string;
    expect(etag).toMatch(/^".+"$/);
    expect(lm).toBeTruthy();
    expect(first.res.headers["cache-control"]).toContain("no-cache");
    const again = await anon.req("GET", `${PUB}/home`, undefined, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.res.body).toBe("");
    expect((await anon.req("GET", `${PUB}/home`, undefined, { "if-modified-since": lm })).status).toBe(304);
    expect((await anon.req("GET", `${PUB}/home`, undefined, { "if-none-match": '"other"' })).status).toBe(200);
    expect(
      (await anon.req("GET", `${PUB}/home`, undefined, { "if-modified-since": new Date(Date.parse(lm) - 60000).toUTCString() }))
        .status,
    ).toBe(200);

    const n = await root.post("/Backend/Admin/news", { title: "刚刚发布的新闻", body: "<p>新内容</p>", status: "published" });
    expect(n.status).toBe(201);
    const after = await anon.req("GET", `${PUB}/home`, undefined, { "if-none-match": etag });
    expect(after.status).toBe(200);
    expect(after.res.headers.etag).not.toBe(etag);
    expect(after.body.data.news[0].title).toBe("刚刚发布的新闻");
  });

  it("sends the same reply gzipped to a client that accepts gzip, with its own ETag, and the security headers", async () => {
    const plain = await anon.get(`${PUB}/home`);
    expect(plain.res.headers["content-encoding"]).toBeUndefined();
    expect(plain.res.headers.vary).toContain("accept-encoding");
    const gz = await anon.req("GET", `${PUB}/home`, undefined, { "accept-encoding": "gzip, deflate, br" });
    expect(gz.status).toBe(200);
    expect(gz.res.headers["content-encoding"]).toBe("gzip");
    expect(gz.res.headers["content-type"]).toContain("application/json");
    expect(gz.res.rawPayload.length).toBeLessThan(plain.res.rawPayload.length);
    expect(JSON.parse(gunzipSync(gz.res.rawPayload).toString("utf8"))).toEqual(plain.body);
    const gzTag = gz.res.headers.etag as string;
    expect(gzTag).not.toBe(plain.res.headers.etag);
    expect((await anon.req("GET", `${PUB}/home`, undefined, { "accept-encoding": "gzip", "if-none-match": gzTag })).status).toBe(
      304,
    );
    // X-Envelope: off still gets the bare data from a gzipped cached reply.
    const bare = await anon.req("GET", `${PUB}/news`, undefined, { "accept-encoding": "gzip", "x-envelope": "off" });
    expect(Array.isArray(bare.body)).toBe(true);
    expect(Number(bare.res.headers["x-total-count"])).toBeGreaterThan(0);
    // Security headers (computed once at start from @fastify/helmet's options) on every reply.
    for (const r of [plain, gz]) {
      expect(r.res.headers["content-security-policy"]).toContain("default-src 'self'");
      expect(r.res.headers["content-security-policy"]).toContain("img-src 'self' data: blob: https:");
      expect(r.res.headers["x-content-type-options"]).toBe("nosniff");
      expect(r.res.headers["x-frame-options"]).toBe("SAMEORIGIN");
    }
    expect((await anon.get("/Backend/nothing-here")).res.headers["content-security-policy"]).toContain("default-src 'self'");
  });

  it("shows the current edition's timeline, categories with rubrics, and earlier editions", async () => {
    const home = (await anon.get(`${PUB}/home`)).body.data;
    expect(home.edition.level).toBe("national");
    expect(home.edition.stages.length).toBeGreaterThan(0);
    const intro = (await anon.get(`${PUB}/intro`)).body.data;
    expect(intro.categories.length).toBeGreaterThan(0);
    expect(intro.categories.some((c: { rubric: unknown[] }) => c.rubric.length > 0)).toBe(true);
    const eds = (await anon.get(`${PUB}/editions?pageSize=50`)).body.data;
    expect(eds.list.every((e: { year: number }) => e.year < home.edition.year)).toBe(true);
  });

  it("lists published results only, searchable, with the work's public page and no scores or contact data", async () => {
    const r = (await anon.get(`${PUB}/results?pageSize=5`)).body.data;
    expect(r.total).toBeGreaterThan(5);
    expect(r.list).toHaveLength(5);
    const text = JSON.stringify(r);
    for (const secret of ["normalised", "raw_mean", "email", "phone", "judge"]) expect(text).not.toContain(secret);
    const w = r.list[0];
    const byName = (await anon.get(`${PUB}/results?keyword=${encodeURIComponent(w.workName)}`)).body.data;
    expect(byName.list.map((x: { workId: number }) => x.workId)).toContain(w.workId);
    const bySchool = (await anon.get(`${PUB}/results?pageSize=50&keyword=${encodeURIComponent(w.schoolName)}`)).body.data;
    expect(
      bySchool.list.every((x: { schoolName: string; workName: string; authorNames: string }) =>
        [x.schoolName, x.workName, x.authorNames].some((s) => s.includes(w.schoolName)),
      ),
    ).toBe(true);
    const page = await anon.get(`${PUB}/works/${w.workId}`);
    expect(page.status).toBe(200);
    expect(page.body.data.awards.length).toBeGreaterThan(0);

    // Withdrawing a publication hides its awards at once.
    const pub = await t.db
      .selectFrom("result_publication")
      .select(["id", "contest_id"])
      .where("withdrawn_at", "is", null)
      .where("contest_id", "=", w.contestId)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable("result_publication")
      .set({ withdrawn_at: new Date().toISOString(), withdrawn_by: 1, withdraw_reason: "测试" })
      .where("id", "=", pub.id)
      .execute();
    const hidden = (await anon.get(`${PUB}/results?pageSize=50&contestId=${w.contestId}`)).body.data;
    expect(hidden.total).toBe(0);
    await t.db
      .updateTable("result_publication")
      .set({ withdrawn_at: null, withdrawn_by: null, withdraw_reason: null })
      .where("id", "=", pub.id)
      .execute();
    // A work with no published award has no public page.
    const plain = await t.db
      .selectFrom("work")
      .select("id")
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("contest_result")
              .select("contest_result.id")
              .whereRef("contest_result.work_id", "=", "work.id")
              .where("contest_result.award_level_id", "is not", null),
          ),
        ),
      )
      .executeTakeFirstOrThrow();
    expect((await anon.get(`${PUB}/works/${plain.id}`)).status).toBe(404);
  });

  it("refuses the best-work admin to anyone but root", async () => {
    expect((await anon.get(ADM)).status).toBe(401);
    expect((await cadmin.get(ADM)).status).toBe(403);
    expect((await cadmin.post(ADM, { workId: 1 })).status).toBe(403);
    expect((await root.get(ADM)).status).toBe(200);
  });

  it("root chooses, covers, orders and publishes best works; unpublished ones never show", async () => {
    const shown = async () =>
      (await anon.get(`${PUB}/best-works?pageSize=50`)).body.data.list.map((b: { workId: number }) => b.workId);
    const before = await shown();
    const all = (await root.get(ADM)).body.data as { id: number; workId: number; published: boolean }[];
    const unpublished = all.filter((b) => !b.published);
    expect(unpublished.length).toBeGreaterThan(0);
    for (const b of unpublished) expect(before).not.toContain(b.workId);

    const cands = (await root.get(`${ADM}/candidates?pageSize=50`)).body.data.list as { workId: number; chosen: boolean }[];
    const pick = cands.find((c) => !c.chosen)!;
    expect(pick).toBeTruthy();
    const made = await root.post(ADM, { workId: pick.workId });
    expect(made.status).toBe(200);
    expect(made.body.data.published).toBe(false);
    expect((await root.post(ADM, { workId: pick.workId })).status).toBe(409);
    const none = await t.db
      .selectFrom("work")
      .select("id")
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("contest_result")
              .select("contest_result.id")
              .whereRef("contest_result.work_id", "=", "work.id")
              .where("contest_result.award_level_id", "is not", null),
          ),
        ),
      )
      .executeTakeFirstOrThrow();
    expect((await root.post(ADM, { workId: none.id })).status).toBe(422);
    const id = made.body.data.id;
    expect(await shown()).not.toContain(pick.workId);

    const bad = multipart([
      { name: "file", filename: "封面.png", content: Buffer.from("%PDF-1.7 not an image"), type: "image/png" },
    ]);
    const refused = await root.req("POST", `${ADM}/${id}/cover`, bad.body, bad.headers);
    expect(refused.status).toBe(422);
    expect(refused.body.info).toContain("不是 PNG 或 JPEG");
    const good = multipart([{ name: "file", filename: "cover.png", content: png(1280, 720), type: "image/png" }]);
    const covered = await root.req("POST", `${ADM}/${id}/cover`, good.body, good.headers);
    expect(covered.status).toBe(200);
    const sha = covered.body.data.coverSha256;
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    // Not published: the public cover is 404.
    expect((await anon.get(`${PUB}/best-work/${id}/cover`)).status).toBe(404);

    expect((await root.req("PUT", `${ADM}/${id}`, { videoUrl: "javascript:alert(1)" })).status).toBe(422);
    const pub = await root.req("PUT", `${ADM}/${id}`, {
      text: "评委一致推荐",
      videoUrl: "https://video.example.cn/a.mp4",
      published: true,
    });
    expect(pub.status).toBe(200);
    expect(await shown()).toContain(pick.workId);
    const cover = await anon.get(`${PUB}/best-work/${id}/cover`);
    expect(cover.status).toBe(200);
    expect(cover.res.headers["content-type"]).toBe("image/png");

    // Order: the new one first.
    const ids = ((await root.get(ADM)).body.data as { id: number }[]).map((b) => b.id);
    const ordered = await root.req("PUT", `${ADM}/order`, { ids: [id, ...ids.filter((x) => x !== id)] });
    expect(ordered.status).toBe(200);
    expect((await shown())[0]).toBe(pick.workId);
    const work = (await anon.get(`${PUB}/works/${pick.workId}`)).body.data;
    expect(work.bestWork.text).toBe("评委一致推荐");

    const off = await root.req("PUT", `${ADM}/${id}`, { published: false });
    expect(off.status).toBe(200);
    expect(await shown()).not.toContain(pick.workId);
    const log = await t.db
      .selectFrom("audit_log")
      .select("action")
      .where("entity", "=", "best_work")
      .where("entity_id", "=", String(id))
      .execute();
    expect(log.length).toBeGreaterThanOrEqual(4);
    expect((await root.del(`${ADM}/${id}`)).status).toBe(200);
    expect(((await root.get(ADM)).body.data as { id: number }[]).some((b) => b.id === id)).toBe(false);
  });

  it("answers 404 for unknown ids and 422 for bad ones", async () => {
    expect((await anon.get(`${PUB}/news/999999`)).status).toBe(404);
    expect((await anon.get(`${PUB}/notices/999999`)).status).toBe(404);
    expect((await anon.get(`${PUB}/works/0`)).status).toBe(422);
    expect((await anon.get(`${PUB}/results?keyword=${"长".repeat(51)}`)).status).toBe(422);
  });
});
