/**
 * API tokens (issue 16) on both dialects: lifecycle, expiry, malformed secrets, read-only
 * and resource grants, row scope, cookies and Origin on bearer calls, no token management
 * or password change with a token, a locked creator, the audit row, the OpenAPI marks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InjectOptions } from "fastify";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { importXlsx, sheetFile } from "../helpers/xlsx";
import { waitJob } from "../helpers/jobs";
import { STATUS_TEXT } from "../../src/shared/errors";

const T = "/Backend/Common/account/api-tokens";
const U = "/Backend/Admin/user";
const REFUSED = { error: 401, info: STATUS_TEXT[401] };
const inDays = (d: number) => new Date(Date.now() + d * 86400_000).toISOString();

describe.each(DIALECTS)("API tokens on %s", (dialect) => {
  let t: TestApp;
  let root: Client, sadmin: Client, student: Client;
  let outsider: number, ownStudent: number;

  /** A bearer call, without cookies unless given. */
  const bearer = async (
    secret: string,
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) => {
    const res = await t.app.inject({
      method,
      url,
      payload,
      headers: { authorization: `Bearer ${secret}`, host: "localhost:80", ...headers },
    });
    return { status: res.statusCode, body: res.json() };
  };
  const create = async (c: Client, body: object) => {
    const r = await c.post(T, { name: "教务同步", readOnly: false, resources: ["api.users"], expiresAt: inDays(30), ...body });
    expect(r.status, r.body.info).toBe(201);
    return r.body.data as { token: { id: number; name: string }; secret: string };
  };
  const nameOf = async (id: number) =>
    (await t.db.selectFrom("app_user").select("name").where("id", "=", id).executeTakeFirstOrThrow()).name;

  beforeAll(async () => {
    t = await makeApp(dialect);
    root = new Client(t);
    sadmin = new Client(t);
    student = new Client(t);
    await root.login("root", "admin");
    await sadmin.login("school_admin", "admin");
    await student.login("student", "student");
    const zju = (await t.db.selectFrom("school").select("id").where("name", "=", "浙江大学").executeTakeFirstOrThrow()).id;
    const a = await root.post(U, {
      username: "zju_stu",
      name: "外校学生",
      role: 100,
      schoolId: zju,
      email: "zju.stu@example.com",
      memberNo: "3190100001",
    });
    expect(a.status).toBe(201);
    outsider = a.body.data.id;
    ownStudent = (await t.db.selectFrom("app_user").select("id").where("username", "=", "student").executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => t?.close());

  it("creates (secret shown once, stored hashed), uses, lists and revokes a token; a revoked token gets 401", async () => {
    const { token, secret } = await create(sadmin, { name: "生命周期" });
    expect(secret).toMatch(/^swp_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    const row = await t.db.selectFrom("api_token").selectAll().where("id", "=", token.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret.slice(17));
    const list = await bearer(secret, "GET", `${U}?pageSize=100`);
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((u: { username: string }) => u.username)).toContain("student");
    const mine = await sadmin.get(T);
    const item = mine.body.data.items.find((x: { id: number }) => x.id === token.id);
    expect(item).toMatchObject({ name: "生命周期", status: "active", readOnly: false, resources: ["api.users"] });
    expect(item.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(mine.body)).not.toContain(secret);
    expect(mine.body.data.resources).toContain("api.users");
    expect(mine.body.data.resources).not.toContain("api.apiTokens");
    expect((await sadmin.del(`${T}/${token.id}`)).status).toBe(200);
    expect(await bearer(secret, "GET", `${U}?pageSize=100`)).toEqual({ status: 401, body: REFUSED });
    expect((await sadmin.get(T)).body.data.items.find((x: { id: number }) => x.id === token.id).status).toBe("revoked");
  });

  it("refuses an expired token and malformed ones with 401 and the catalogue's text", async () => {
    const { token, secret } = await create(sadmin, { name: "将过期" });
    await t.db
      .updateTable("api_token")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", token.id)
      .execute();
    expect(await bearer(secret, "GET", U)).toEqual({ status: 401, body: REFUSED });
    for (const bad of [
      "",
      "abc",
      "swp_000000000000_" + "A".repeat(43),
      secret.slice(0, -1) + (secret.endsWith("A") ? "B" : "A"),
      "x".repeat(300),
    ]) {
      expect(await bearer(bad, "GET", U)).toEqual({ status: 401, body: REFUSED });
    }
  });

  it("refuses an expiry beyond a year and resources the creator cannot use", async () => {
    const far = await sadmin.post(T, { name: "太久", readOnly: true, resources: ["api.users"], expiresAt: inDays(400) });
    expect(far.status).toBe(422);
    expect(far.body.info).toBe("令牌有效期不能超过一年");
    const foreign = await sadmin.post(T, { name: "越权", readOnly: true, resources: ["api.audit"], expiresAt: inDays(10) });
    expect(foreign.status).toBe(422);
    expect(foreign.body.info).toContain("api.audit");
    // A person's own acts (a student's, a filer's, a holder's) are not offered and not granted (issue 29).
    expect((await sadmin.get(T)).body.data.resources).not.toContain("api.complaintFiling");
    for (const own of ["api.complaintFiling", "api.defenceReply", "api.myCertificates"]) {
      const r = await sadmin.post(T, { name: "本人事项", readOnly: true, resources: [own], expiresAt: inDays(10) });
      expect(r.status).toBe(422);
      expect(r.body.info).toContain("是本人办理的事项，不能授予令牌");
    }
    expect(
      (await student.post(T, { name: "学生", readOnly: true, resources: ["api.works"], expiresAt: inDays(10) })).status,
    ).toBe(403);
  });

  it("refuses a write with a read-only token (403, nothing changed) and a resource not in the token's list", async () => {
    const before = await nameOf(ownStudent);
    const ro = await create(sadmin, { name: "只读", readOnly: true });
    const w = await bearer(ro.secret, "PATCH", `${U}/${ownStudent}`, { name: "被改名" });
    expect(w).toEqual({ status: 403, body: { error: 403, info: "该 API 令牌为只读令牌，不能修改数据" } });
    expect(await nameOf(ownStudent)).toBe(before);
    const other = await create(sadmin, { name: "只有作品", resources: ["api.schoolWorks"] });
    const r = await bearer(other.secret, "GET", U);
    expect(r).toEqual({ status: 403, body: { error: 403, info: "该 API 令牌无权访问此资源" } });
  });

  it("keeps a school admin's token within the school: another school's row is 404 with the text of a missing one", async () => {
    const { secret } = await create(sadmin, { name: "范围" });
    const missing = await bearer(secret, "GET", `${U}/99999999`);
    const foreign = await bearer(secret, "GET", `${U}/${outsider}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.info).toBe(missing.body.info);
    const patch = await bearer(secret, "PATCH", `${U}/${outsider}`, { name: "被改名" });
    expect(patch.status).toBe(404);
    expect(await nameOf(outsider)).toBe("外校学生");
  });

  it("ignores cookies on bearer calls, skips the Origin check for them, and audits writes with the token's name", async () => {
    const { secret } = await create(sadmin, { name: "同步程序" });
    // root's cookie does not widen a school admin's token.
    const withCookie = await bearer(secret, "GET", `${U}/${outsider}`, undefined, { cookie: root.cookie });
    expect(withCookie.status).toBe(404);
    // A bad token with a good cookie is still refused.
    expect((await bearer("swp_bad", "GET", U, undefined, { cookie: root.cookie })).status).toBe(401);
    // A foreign Origin on a cookie call is refused; on a bearer call it does not matter.
    expect((await sadmin.req("PATCH", `${U}/${ownStudent}`, { name: "林同学" }, { origin: "https://evil.example" })).status).toBe(
      403,
    );
    const w = await bearer(secret, "PATCH", `${U}/${ownStudent}`, { name: "令牌改名" }, { origin: "https://evil.example" });
    expect(w.status, w.body.info).toBe(200);
    expect(await nameOf(ownStudent)).toBe("令牌改名");
    // The master-data audit row itself names the token (no second, generic row).
    const audit = await t.db.selectFrom("audit_log").selectAll().where("token_name", "=", "同步程序").execute();
    expect(audit.length).toBe(1);
    expect(audit[0]).toMatchObject({
      entity: "user",
      entity_id: String(ownStudent),
      action: "update",
      user_id: (await t.db.selectFrom("app_user").select("id").where("username", "=", "school_admin").executeTakeFirstOrThrow())
        .id,
    });
    expect(JSON.parse(audit[0].changes).name[1]).toBe("令牌改名");
    const shown = await root.get(`/Backend/Admin/audit?entity=user&entityId=${ownStudent}`);
    expect(shown.body.data.list[0]).toMatchObject({ action: "update", tokenName: "同步程序" });
    // A browser write of the same kind carries no token name.
    expect((await sadmin.req("PATCH", `${U}/${ownStudent}`, { name: "林同学" })).status).toBe(200);
    const browser = await root.get(`/Backend/Admin/audit?entity=user&entityId=${ownStudent}`);
    expect(browser.body.data.list[0]).toMatchObject({ action: "update", tokenName: null });
    // A token write whose use case records nothing of its own still leaves a row naming the route.
    const lock = await create(sadmin, { name: "锁定程序" });
    expect((await bearer(lock.secret, "POST", `${U}/${ownStudent}/lock`)).status).toBe(200);
    expect((await bearer(lock.secret, "POST", `${U}/${ownStudent}/unlock`)).status).toBe(200);
    const locks = await t.db
      .selectFrom("audit_log")
      .select(["action", "entity"])
      .where("token_name", "=", "锁定程序")
      .orderBy("id")
      .execute();
    expect(locks).toEqual([
      { action: "lock", entity: "user" },
      { action: "unlock", entity: "user" },
    ]);
  });

  it("names the token in the audit rows of an Excel import it uploaded and confirmed", async () => {
    const { secret } = await create(sadmin, { name: "导入程序", resources: ["api.users", "api.job"] });
    class Bearer extends Client {
      req(method: InjectOptions["method"], url: string, payload?: unknown, headers: Record<string, string> = {}) {
        return super.req(method, url, payload, { ...headers, authorization: `Bearer ${secret}` });
      }
    }
    const tc = new Bearer(t);
    const buf = await sheetFile("用户", [
      ["用户名", "姓名", "身份", "学校代码", "学号/工号", "专业代码", "邮箱", "手机号", "校赛评委"],
      ["tok_imp1", "令牌导入", "作者（学生）", "", "2026990001", "", "", "", ""],
    ]);
    const { jobId, dry } = await importXlsx(tc, U, buf, "users.xlsx");
    expect(dry.status, JSON.stringify(dry)).toBe("ready");
    expect((await tc.post(`${U}/import/${jobId}/confirm`)).status).toBe(202);
    expect((await waitJob(tc, jobId)).status).toBe("done");
    const id = (await t.db.selectFrom("app_user").select("id").where("username", "=", "tok_imp1").executeTakeFirstOrThrow()).id;
    const rows = await t.db
      .selectFrom("audit_log")
      .select(["action", "token_name"])
      .where("entity", "=", "user")
      .where("entity_id", "=", String(id))
      .execute();
    expect(rows).toEqual([{ action: "import", token_name: "导入程序" }]);
  });

  it("cannot create tokens, list them or change the password with a token", async () => {
    const { secret } = await create(root, { name: "根令牌", resources: ["api.users", "api.schools"] });
    const c = await bearer(secret, "POST", T, { name: "套娃", readOnly: true, resources: ["api.users"], expiresAt: inDays(10) });
    expect(c.status).toBe(403);
    expect(c.body.info).toMatch(/API 令牌不能/);
    expect((await bearer(secret, "GET", T)).status).toBe(403);
    const p = await bearer(secret, "POST", "/Backend/Common/account/security/password", {
      oldPassword: "Demo@2026",
      newPassword: "Other@2027x",
    });
    expect(p.status).toBe(403);
    expect((await t.db.selectFrom("api_token").select("id").where("name", "=", "套娃").execute()).length).toBe(0);
  });

  it("stops a locked creator's tokens at once", async () => {
    const { secret } = await create(sadmin, { name: "锁定前" });
    expect((await bearer(secret, "GET", U)).status).toBe(200);
    const adminId = (
      await t.db.selectFrom("app_user").select("id").where("username", "=", "school_admin").executeTakeFirstOrThrow()
    ).id;
    expect((await root.post(`${U}/${adminId}/lock`)).status).toBe(200);
    expect(await bearer(secret, "GET", U)).toEqual({ status: 401, body: REFUSED });
    expect((await root.post(`${U}/${adminId}/unlock`)).status).toBe(200);
    expect((await bearer(secret, "GET", U)).status).toBe(200);
    // Demoted to a role that may not hold tokens: refused at once too.
    await t.db.updateTable("app_user").set({ user_type: 99 }).where("id", "=", adminId).execute();
    expect(await bearer(secret, "GET", U)).toEqual({ status: 401, body: REFUSED });
    await t.db.updateTable("app_user").set({ user_type: 2 }).where("id", "=", adminId).execute();
    expect((await bearer(secret, "GET", U)).status).toBe(200);
  });

  it("marks the routes that accept tokens in the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/Backend/openapi.json" })).json();
    expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.paths["/Backend/Admin/user"].get.security).toEqual([{ apiToken: [] }]);
    expect(doc.paths["/Backend/Common/account/api-tokens"].post.security).toBeUndefined();
  });
});

describe.each(DIALECTS)("API token rate limit on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp(dialect, { env: { API_TOKEN_RATE_MAX: "3" } });
  });
  afterAll(async () => t?.close());

  it("counts each token in its own bucket, apart from the creator's browser session", async () => {
    const sadmin = new Client(t);
    await sadmin.login("school_admin", "admin");
    const make = async (name: string) =>
      (await sadmin.post(T, { name, readOnly: true, resources: ["api.users"], expiresAt: inDays(5) })).body.data.secret as string;
    const a = await make("甲");
    const b = await make("乙");
    const call = async (s: string) =>
      (await t.app.inject({ method: "GET", url: U, headers: { authorization: `Bearer ${s}` } })).statusCode;
    for (let i = 0; i < 3; i++) expect(await call(a)).toBe(200);
    const refused = await t.app.inject({ method: "GET", url: U, headers: { authorization: `Bearer ${a}` } });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 429, info: "操作过于频繁，请稍后再试" });
    expect(await call(b)).toBe(200);
    expect((await sadmin.get(U)).status).toBe(200);
  });
});
