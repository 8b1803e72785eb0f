/**
 * Issue 16: refine's stock `@refinedev/simple-rest` provider — unmodified, over its own
 * axios instance carrying only a bearer token and `X-Envelope: off` — against a real server
 * (buildApp listening on a port), on both dialects: list (paging, sorting, filters) / one /
 * create / update / delete of the master data and the works list, checked against the
 * project's own API; the conventions' bad input; the default envelope untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AddressInfo } from "node:net";
import type { BaseRecord, HttpError } from "@refinedev/core";
import dataProvider, { axiosInstance } from "@refinedev/simple-rest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { STATUS_TEXT } from "../../src/shared/errors";

const T = "/Backend/Common/account/api-tokens";
const inDays = (d: number) => new Date(Date.now() + d * 86400_000).toISOString();
const MASTER = [
  "api.schools",
  "api.majors",
  "api.awards",
  "api.workTypes",
  "api.contests",
  "api.notices",
  "api.news",
  "api.users",
  "api.schoolWorks",
  "api.contestWorks",
];
/** refine resource name → the project's list path under /Backend/Admin */
const RESOURCES = ["school", "major", "award", "work-type", "contest", "notice", "news", "user"] as const;

describe.each(DIALECTS)("the stock simple-rest provider on %s", (dialect) => {
  let t: TestApp;
  let base: string;
  let root: Client, sadmin: Client;
  let rootSecret: string, schoolSecret: string;
  let outsider: number;

  /** The provider as any refine app would build it; only the HTTP client's default headers differ. */
  const use = (secret: string, apiPath = "/Backend/Admin") => {
    // simple-rest's own axios instance (with its own HttpError interceptor); only its default headers are set.
    axiosInstance.defaults.headers.common.Authorization = `Bearer ${secret}`;
    axiosInstance.defaults.headers.common["X-Envelope"] = "off";
    return dataProvider(`${base}${apiPath}`, axiosInstance);
  };
  const refused = async (p: Promise<unknown>): Promise<HttpError> => {
    try {
      await p;
    } catch (e) {
      return e as HttpError;
    }
    throw new Error("expected a refusal");
  };
  /** The project's own list, in the envelope, for comparison. */
  const own = async (c: Client, url: string) => {
    const r = await c.get(url);
    expect(r.status, r.body.info).toBe(200);
    return r.body.data as { list: BaseRecord[]; total: number };
  };

  beforeAll(async () => {
    t = await makeApp(dialect);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    root = new Client(t);
    sadmin = new Client(t);
    await root.login("root", "admin");
    await sadmin.login("school_admin", "admin");
    const mk = async (c: Client, name: string, resources: string[]) => {
      const r = await c.post(T, { name, readOnly: false, resources, expiresAt: inDays(30) });
      expect(r.status, r.body.info).toBe(201);
      return r.body.data.secret as string;
    };
    rootSecret = await mk(root, "省级看板", MASTER);
    schoolSecret = await mk(sadmin, "教务同步", ["api.users", "api.schoolWorks", "api.schools"]);
    const zju = (await t.db.selectFrom("school").select("id").where("name", "=", "浙江大学").executeTakeFirstOrThrow()).id;
    const a = await root.post("/Backend/Admin/user", {
      username: "sr_outsider",
      name: "外校学生",
      role: 100,
      schoolId: zju,
      email: "sr.outsider@example.com",
      memberNo: "3190100002",
    });
    expect(a.status, a.body.info).toBe(201);
    outsider = a.body.data.id;
  });
  afterAll(async () => {
    delete axiosInstance.defaults.headers.common.Authorization;
    delete axiosInstance.defaults.headers.common["X-Envelope"];
    await t?.close();
  });

  it("lists every master-data resource page by page with the project's totals and rows", async () => {
    const p = use(rootSecret);
    for (const resource of RESOURCES) {
      const all = await own(root, `/Backend/Admin/${resource}?pageSize=500&sort=id`);
      expect(all.total, resource).toBeGreaterThan(0);
      const page1 = await p.getList({
        resource,
        pagination: { currentPage: 1, pageSize: 2 },
        sorters: [{ field: "id", order: "asc" }],
      });
      expect(page1.total, resource).toBe(all.total);
      expect(
        page1.data.map((r) => r.id),
        resource,
      ).toEqual(all.list.slice(0, 2).map((r) => r.id));
      // The rows are the project's rows, field for field.
      expect(page1.data[0], resource).toEqual(all.list[0]);
      const page2 = await p.getList({
        resource,
        pagination: { currentPage: 2, pageSize: 2 },
        sorters: [{ field: "id", order: "asc" }],
      });
      expect(
        page2.data.map((r) => r.id),
        resource,
      ).toEqual(all.list.slice(2, 4).map((r) => r.id));
      const desc = await p.getList({
        resource,
        pagination: { currentPage: 1, pageSize: 3 },
        sorters: [{ field: "id", order: "desc" }],
      });
      expect(
        desc.data.map((r) => r.id),
        resource,
      ).toEqual(
        all.list
          .slice(-3)
          .reverse()
          .map((r) => r.id),
      );
      const one = await p.getOne({ resource, id: all.list[0].id! });
      expect(one.data, resource).toEqual((await root.get(`/Backend/Admin/${resource}/${all.list[0].id}`)).body.data);
      const many = await p.getMany!({ resource, ids: all.list.slice(0, 2).map((r) => r.id!) });
      expect(many.data.map((r) => r.id).sort(), resource).toEqual(
        all.list
          .slice(0, 2)
          .map((r) => r.id)
          .sort(),
      );
    }
  });

  it("filters with _like / _gte / _lte / _ne and eq on whitelisted fields; totals follow the filter", async () => {
    const p = use(rootSecret);
    const all = (await own(root, "/Backend/Admin/school?pageSize=500&sort=id")).list as {
      id: number;
      name: string;
      province: string;
    }[];
    const like = await p.getList({
      resource: "school",
      pagination: { currentPage: 1, pageSize: 500 },
      filters: [{ field: "name", operator: "contains", value: "大学" }],
    });
    const want = all.filter((s) => s.name.includes("大学"));
    expect(want.length).toBeGreaterThan(0);
    expect(like.total).toBe(want.length);
    expect(like.data.map((s) => s.id).sort((a, b) => Number(a) - Number(b))).toEqual(want.map((s) => s.id));
    const mid = all[Math.floor(all.length / 2)].id;
    const range = await p.getList({
      resource: "school",
      pagination: { currentPage: 1, pageSize: 2 },
      sorters: [{ field: "id", order: "asc" }],
      filters: [
        { field: "id", operator: "gte", value: mid },
        { field: "id", operator: "lte", value: all[all.length - 1].id },
      ],
    });
    expect(range.total).toBe(all.filter((s) => s.id >= mid).length);
    expect(range.data[0].id).toBe(mid);
    const province = all[0].province;
    const ne = await p.getList({
      resource: "school",
      pagination: { currentPage: 1, pageSize: 500 },
      filters: [{ field: "province", operator: "ne", value: province }],
    });
    expect(ne.total).toBe(all.filter((s) => s.province !== province).length);
    // The project's own filter and a simple-rest one together.
    const both = await p.getList({
      resource: "school",
      pagination: { currentPage: 1, pageSize: 500 },
      filters: [
        { field: "province", operator: "eq", value: province },
        { field: "name", operator: "contains", value: "大学" },
      ],
    });
    expect(both.total).toBe(all.filter((s) => s.province === province && s.name.includes("大学")).length);
    // Users: a boolean-free integer range and text like on the same list.
    const users = (await own(root, "/Backend/Admin/user?pageSize=500")).list as { id: number; username: string }[];
    const stu = await p.getList({
      resource: "user",
      pagination: { currentPage: 1, pageSize: 500 },
      filters: [{ field: "username", operator: "contains", value: "STU" }],
    });
    expect(stu.total).toBe(users.filter((u) => u.username.toLowerCase().includes("stu")).length);
  });

  it("creates, updates and deletes through the stock provider; the project's API sees the same rows", async () => {
    const p = use(rootSecret);
    const created = await p.create({ resource: "major", variables: { code: "089999", name: "接口测试专业" } });
    expect(created.data).toMatchObject({ code: "089999", name: "接口测试专业" });
    const id = created.data.id!;
    expect((await root.get(`/Backend/Admin/major/${id}`)).body.data).toEqual(created.data);
    const updated = await p.update({ resource: "major", id, variables: { name: "接口测试专业二" } });
    expect(updated.data).toMatchObject({ id, name: "接口测试专业二" });
    expect((await root.get(`/Backend/Admin/major/${id}`)).body.data.name).toBe("接口测试专业二");
    const removed = await p.deleteOne({ resource: "major", id });
    expect(removed.data).toEqual({ result: "deleted" });
    const gone = await refused(p.getOne({ resource: "major", id }));
    expect(gone).toMatchObject({ statusCode: 404, message: "专业不存在或不在您的管理范围内" });
    // Each write is in the audit log with the token's name.
    const audit = await t.db
      .selectFrom("audit_log")
      .select(["action"])
      .where("entity", "=", "major")
      .where("entity_id", "=", String(id))
      .where("token_name", "=", "省级看板")
      .orderBy("id")
      .execute();
    expect(audit.map((a) => a.action)).toEqual(["create", "update", "delete"]);
  });

  it("hands refine an HttpError with the catalogue's text and the status; nothing changes", async () => {
    const p = use(rootSecret);
    const before = (await own(root, "/Backend/Admin/major?pageSize=1")).total;
    const bad = await refused(p.create({ resource: "major", variables: { code: "089998", name: "x" } }));
    expect(bad.statusCode).toBe(422);
    expect(bad.message).toMatch(/专业名称.*不能少于 2 个字符/);
    expect((await own(root, "/Backend/Admin/major?pageSize=1")).total).toBe(before);
    const wrongSort = await refused(p.getList({ resource: "major", sorters: [{ field: "secret", order: "asc" }] }));
    expect(wrongSort).toMatchObject({ statusCode: 422, message: "不能按 secret 排序" });
    const badFilter = await refused(
      p.getList({ resource: "major", filters: [{ field: "password_hash", operator: "contains", value: "a" }] }),
    );
    expect(badFilter).toMatchObject({ statusCode: 422, message: "不能按 password_hash 筛选（like）" });
    const revoked = dataProvider(`${base}/Backend/Admin`, axiosInstance);
    axiosInstance.defaults.headers.common.Authorization = "Bearer swp_000000000000_" + "A".repeat(43);
    expect(await refused(revoked.getList({ resource: "major" }))).toMatchObject({ statusCode: 401, message: STATUS_TEXT[401] });
  });

  it("keeps a school admin's token in the school: the list is the school's, another school's user is 404", async () => {
    const p = use(schoolSecret);
    const mine = await own(sadmin, "/Backend/Admin/user?pageSize=500");
    const list = await p.getList({ resource: "user", pagination: { currentPage: 1, pageSize: 500 } });
    expect(list.total).toBe(mine.total);
    expect(list.data.map((u) => u.id)).not.toContain(outsider);
    const missing = await refused(p.getOne({ resource: "user", id: 99999999 }));
    const foreign = await refused(p.getOne({ resource: "user", id: outsider }));
    expect(foreign).toMatchObject({ statusCode: 404, message: missing.message });
    const edit = await refused(p.update({ resource: "user", id: outsider, variables: { name: "被改名" } }));
    expect(edit.statusCode).toBe(404);
    expect((await t.db.selectFrom("app_user").select("name").where("id", "=", outsider).executeTakeFirstOrThrow()).name).toBe(
      "外校学生",
    );
    // A resource outside the token's grant: 403 with the catalogue's text.
    expect(await refused(p.getList({ resource: "major" }))).toMatchObject({
      statusCode: 403,
      message: "该 API 令牌无权访问此资源",
    });
    // The school's program creates and updates a student: the same rules and texts as the Excel import.
    const made = await p.create({
      resource: "user",
      variables: { username: "sr_new_student", name: "新同学", role: 100, memberNo: "2026000001", email: "sr.new@example.com" },
    });
    expect(made.data).toMatchObject({ username: "sr_new_student", school: { name: expect.any(String) } });
    const dupMail = await refused(
      p.create({
        resource: "user",
        variables: { username: "sr_new_student2", name: "新同学二", role: 100, email: "sr.new@example.com" },
      }),
    );
    expect(dupMail).toMatchObject({ statusCode: 422, message: "该邮箱已被其他账号使用" });
    const other = await refused(
      p.create({ resource: "user", variables: { username: "sr_new_student3", name: "新同学三", role: 100, schoolId: 99999 } }),
    );
    expect(other).toMatchObject({ statusCode: 403, message: "学校管理员只能管理本校的用户" });
    const renamed = await p.update({ resource: "user", id: made.data.id!, variables: { name: "新同学改" } });
    expect(renamed.data.name).toBe("新同学改");
  });

  it("lists the works with simple-rest paging and the project's totals", async () => {
    const p = use(schoolSecret, "/Backend/School");
    const all = await own(sadmin, "/Backend/School/work?pageSize=500&sort=id");
    const page = await p.getList({
      resource: "work",
      pagination: { currentPage: 1, pageSize: 2 },
      sorters: [{ field: "id", order: "asc" }],
    });
    expect(page.total).toBe(all.total);
    expect(page.data.map((w) => w.id)).toEqual(all.list.slice(0, 2).map((w) => w.id));
    if (all.list.length) {
      const name = String(all.list[0].name).slice(0, 2);
      const like = await p.getList({
        resource: "work",
        pagination: { currentPage: 1, pageSize: 500 },
        filters: [{ field: "name", operator: "contains", value: name }],
      });
      expect(like.total).toBe((await own(sadmin, `/Backend/School/work?pageSize=500&name=${encodeURIComponent(name)}`)).total);
    }
    const contest = use(rootSecret, "/Backend/Admin");
    const allAdmin = await own(root, "/Backend/Admin/work?pageSize=500");
    expect((await contest.getList({ resource: "work", pagination: { currentPage: 1, pageSize: 5 } })).total).toBe(allAdmin.total);
  });
});

describe.each(DIALECTS)("simple-rest conventions in both dialects of the reply on %s", (dialect) => {
  let t: TestApp;
  let root: Client;
  beforeAll(async () => {
    t = await makeApp(dialect);
    root = new Client(t);
    await root.login("root", "admin");
  });
  afterAll(async () => t?.close());

  it("answers _start/_end in the envelope too, with x-total-count exposed; without X-Envelope the envelope stays", async () => {
    const env = await root.get("/Backend/Admin/school?_start=2&_end=4&_sort=id&_order=asc");
    expect(env.status).toBe(200);
    const all = await root.get("/Backend/Admin/school?pageSize=500&sort=id");
    expect(env.body).toMatchObject({ error: 0, data: { total: all.body.data.total } });
    expect(env.body.data.list.map((s: { id: number }) => s.id)).toEqual(
      all.body.data.list.slice(2, 4).map((s: { id: number }) => s.id),
    );
    expect(env.res.headers["x-total-count"]).toBe(String(all.body.data.total));
    expect(env.res.headers["access-control-expose-headers"]).toContain("x-total-count");
    const bare = await root.req("GET", "/Backend/Admin/school?_start=0&_end=2", undefined, { "x-envelope": "off" });
    expect(Array.isArray(bare.body)).toBe(true);
    expect(bare.res.headers["x-total-count"]).toBe(String(all.body.data.total));
    // An error without the envelope: status kept, { message } for refine.
    const miss = await root.req("GET", "/Backend/Admin/school/99999999", undefined, { "x-envelope": "off" });
    expect(miss.status).toBe(404);
    expect(miss.body).toEqual({ message: "学校不存在或不在您的管理范围内", statusCode: 404 });
    const inEnvelope = await root.get("/Backend/Admin/school/99999999");
    expect(inEnvelope.body).toEqual({ error: 404, info: "学校不存在或不在您的管理范围内" });
  });

  it("refuses unbounded or malformed simple-rest parameters with a clear text", async () => {
    const cases: [string, string][] = [
      ["_start=0&_end=1000", "每页条数（_end − _start）不能超过 500"],
      ["_start=3&_end=5", "_start 必须是每页条数（_end − _start）的整数倍"],
      ["_start=5&_end=5", "_end 必须大于 _start"],
      ["_start=-1&_end=5", "_start 必须是不大于 2147483647 的非负整数"],
      ["_start=0", "使用 _start 分页时须同时给出 _end"],
      ["_sort=id&_order=up", "_order 只能是 asc 或 desc，逗号分隔"],
      ["_order=asc", "使用 _order 时须同时给出 _sort"],
      ["_sort=a,b,c,d", "_sort 最多 3 个字段，逗号分隔"],
      ["secret_gte=1", "不能按 secret 筛选（gte）"],
    ];
    for (const [q, text] of cases) {
      const r = await root.get(`/Backend/Admin/school?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.info, q).toBe(text);
    }
    const tooLong = await root.get(`/Backend/Admin/school?name_like=${"x".repeat(101)}`);
    expect(tooLong.status).toBe(422);
    const notNumber = await root.get("/Backend/Admin/school?id_gte=abc");
    expect(notNumber.status).toBe(422);
  });
});

describe.each(DIALECTS)("the 对接指南's calls on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp(dialect);
  });
  afterAll(async () => t?.close());
  const bearer = async (secret: string, method: "GET" | "POST" | "PATCH", url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, payload, headers: { authorization: `Bearer ${secret}` } });
    return { status: res.statusCode, body: res.json() };
  };

  it("a school syncs its students: list, create (own school by default, the import's texts), update — in the envelope", async () => {
    const sadmin = new Client(t);
    await sadmin.login("school_admin", "admin");
    const secret = (await sadmin.post(T, { name: "教务系统", readOnly: false, resources: ["api.users"], expiresAt: inDays(365) }))
      .body.data.secret as string;
    const U = "/Backend/Admin/user";
    const made = await bearer(secret, "POST", U, {
      username: "s2026000001",
      name: "张三",
      role: 100,
      memberNo: "2026000001",
      email: "zhangsan@example.edu.cn",
    });
    expect(made.status, made.body.info).toBe(201);
    const me = await t.db
      .selectFrom("app_user")
      .select("school_id")
      .where("username", "=", "school_admin")
      .executeTakeFirstOrThrow();
    expect(made.body.data.school.id).toBe(me.school_id);
    const found = await bearer(secret, "GET", `${U}?userType=100&keyword=2026000001&pageSize=100`);
    expect(found.body.data.list.map((u: { id: number }) => u.id)).toEqual([made.body.data.id]);
    const upd = await bearer(secret, "PATCH", `${U}/${made.body.data.id}`, { name: "张三丰", phone: "13800000000" });
    expect(upd.status, upd.body.info).toBe(200);
    // Saved in full, shown masked (issue 28: the admin reveals it through /phone).
    expect(upd.body.data).toMatchObject({ name: "张三丰", phone: "138****0000" });
    const dup = await bearer(secret, "POST", U, {
      username: "s2026000002",
      name: "李四",
      role: 100,
      email: "zhangsan@example.edu.cn",
    });
    expect(dup).toEqual({ status: 422, body: { error: 422, info: "该邮箱已被其他账号使用", data: { field: "email" } } });
    const badMajor = await bearer(secret, "POST", U, { username: "s2026000003", name: "王五", role: 100, majorCode: "999999" });
    expect(badMajor.status).toBe(422);
    expect(badMajor.body.info).toBe("专业代码 999999 不存在");
    expect(
      await t.db.selectFrom("app_user").select("id").where("username", "in", ["s2026000002", "s2026000003"]).execute(),
    ).toEqual([]);
  });

  it("a province pulls its results with a read-only token and cannot change them", async () => {
    const cadmin = new Client(t);
    await cadmin.login("contest_admin", "admin");
    const secret = (await cadmin.post(T, { name: "省级看板", readOnly: true, resources: ["api.results"], expiresAt: inDays(90) }))
      .body.data.secret as string;
    const A = "/Backend/ContestAdmin/judging";
    const contests = await bearer(secret, "GET", `${A}/result-contests`);
    expect(contests.status).toBe(200);
    expect(contests.body.data).toEqual((await cadmin.get(`${A}/result-contests`)).body.data);
    const c = contests.body.data[0] as { id: number };
    const overview = await bearer(secret, "GET", `${A}/${c.id}/results`);
    expect(overview.status).toBe(200);
    expect((await bearer(secret, "GET", `${A}/${c.id}/results/versions`)).status).toBe(200);
    const w = await bearer(secret, "POST", `${A}/${c.id}/results/publish`, { confirmIncomplete: true });
    expect(w).toEqual({ status: 403, body: { error: 403, info: "该 API 令牌为只读令牌，不能修改数据" } });
  });

  it("puts the guide on the API docs page and marks the routes that accept tokens", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/Backend/openapi.json" })).json();
    expect(doc.info.description).toContain("对接指南");
    expect(doc.info.description).toContain('curl -s -X POST -H "Authorization: Bearer $TOKEN"');
    for (const p of [
      "/Backend/Admin/school",
      "/Backend/Admin/major",
      "/Backend/Admin/award",
      "/Backend/Admin/work-type",
      "/Backend/Admin/contest",
      "/Backend/Admin/notice",
      "/Backend/Admin/news",
      "/Backend/Admin/user",
      "/Backend/School/work",
      "/Backend/Admin/work",
      "/Backend/ContestAdmin/judging/result-contests",
    ]) {
      expect(doc.paths[p].get.security, p).toEqual([{ apiToken: [] }]);
    }
    expect(doc.paths["/Backend/Admin/school"].get.parameters.map((x: { name: string }) => x.name)).toEqual(
      expect.arrayContaining(["_start", "_end", "_sort", "_order", "name_like", "id_gte"]),
    );
    expect(doc.paths["/Backend/Common/account/security/password"].post.security).toBeUndefined();
    expect((await t.app.inject({ method: "GET", url: "/Backend/docs/" })).statusCode).toBe(200);
  });
});

describe.each(DIALECTS)("a refine app on another origin on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp(dialect);
  });
  afterAll(async () => t?.close());

  it("answers the preflight, lets bearer replies (errors too) be read cross-origin, and never cookie replies", async () => {
    const pre = await t.app.inject({
      method: "OPTIONS",
      url: "/Backend/Admin/school",
      headers: {
        origin: "https://dashboard.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization,x-envelope",
      },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers["access-control-allow-origin"]).toBe("*");
    expect(String(pre.headers["access-control-allow-headers"])).toContain("x-envelope");
    expect(pre.headers["access-control-allow-credentials"]).toBeUndefined();
    const root = new Client(t);
    await root.login("root", "admin");
    const secret = (await root.post(T, { name: "看板", readOnly: true, resources: ["api.schools"], expiresAt: inDays(5) })).body
      .data.secret as string;
    const ok = await t.app.inject({
      method: "GET",
      url: "/Backend/Admin/school?_start=0&_end=5",
      headers: { origin: "https://dashboard.example", authorization: `Bearer ${secret}`, "x-envelope": "off" },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers["access-control-allow-origin"]).toBe("*");
    expect(ok.headers["access-control-expose-headers"]).toContain("x-total-count");
    const bad = await t.app.inject({
      method: "GET",
      url: "/Backend/Admin/school",
      headers: { origin: "https://dashboard.example", authorization: "Bearer swp_nope", "x-envelope": "off" },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers["access-control-allow-origin"]).toBe("*");
    expect(bad.json()).toEqual({ message: STATUS_TEXT[401], statusCode: 401 });
    const cookie = await root.req("GET", "/Backend/Admin/school", undefined, { origin: "https://dashboard.example" });
    expect(cookie.status).toBe(200);
    expect(cookie.res.headers["access-control-allow-origin"]).toBeUndefined();
  });
});
