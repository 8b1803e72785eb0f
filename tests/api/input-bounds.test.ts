/**
 * What the fuzz found, pinned down: out-of-range pages and ids, NUL characters (which
 * PostgreSQL cannot store) and broken or over-long paths are refused in the envelope,
 * never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { MAX_ID, MAX_PAGE } from "../../src/shared/bounds";

describe.each(DIALECTS)("bounded input on %s", (dialect) => {
  let t: TestApp;
  let root: Client;
  let anon: Client;
  beforeAll(async () => {
    t = await makeApp(dialect);
    root = new Client(t);
    await root.login("root", "admin");
    anon = new Client(t);
  });
  afterAll(async () => t?.close());

  it("answers a page past the end with an empty page and a page past the limit with 422", async () => {
    const last = await root.get(`/Backend/Admin/award?current=${MAX_PAGE}&pageSize=500`);
    expect(last.status).toBe(200);
    expect(last.body.data.list).toEqual([]);
    for (const current of [MAX_PAGE + 1, "1e300", "99999999999999999999"]) {
      const r = await root.get(`/Backend/Admin/award?current=${current}`);
      expect(r.status).toBe(422);
      expect(r.body).toMatchObject({ error: 422, data: { field: "current" } });
    }
    expect((await anon.get(`/Backend/Public/news?current=${MAX_PAGE + 1}`)).body).toMatchObject({
      error: 422,
      data: { field: "current" },
    });
  });

  it("refuses an id beyond a 4-byte integer column with 422 and answers the largest with 404", async () => {
    expect((await root.get(`/Backend/Admin/school/${MAX_ID}`)).status).toBe(404);
    const r = await root.get(`/Backend/Admin/school/${MAX_ID + 1}`);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ error: 422, data: { field: "id" } });
  });

  it("refuses a NUL character in a query, a path or a JSON body, changing nothing", async () => {
    const q = await anon.get("/Backend/Common/school/options?keyword=%E6%B5%99%00");
    expect(q.status).toBe(422);
    expect(q.body).toMatchObject({ error: 422, data: { field: "keyword" } });
    const b = await anon.post("/Backend/Public/query-work", { workId: 2026000001, authorName: "冯\u0000" });
    expect(b.body).toMatchObject({ error: 422, data: { field: "authorName" } });
    const before = await t.db.selectFrom("school").select("name").orderBy("id").execute();
    const w = await root.req("POST", "/Backend/Admin/school", { name: "新学校\u0000", code: "ZZ9999", province: "浙江" });
    expect(w.body).toMatchObject({ error: 422, data: { field: "name" } });
    expect(await t.db.selectFrom("school").select("name").orderBy("id").execute()).toEqual(before);
  });

  it("answers a badly encoded or over-long path in the envelope", async () => {
    const bad = await anon.get("/Backend/Public/news/%E0%A4%A");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 400, info: "请求地址无效" });
    const long = await anon.get(`/Backend/Public/news/${"9".repeat(200)}`);
    expect(long.status).toBe(414);
    expect(long.body).toEqual({ error: 414, info: "请求地址过长" });
  });
});
