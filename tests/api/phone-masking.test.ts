/**
 * Phones masked (issue 28, 个人信息保护法), on SQLite and PostgreSQL: every reply that carried a
 * phone shows it as 138****5678 to anyone but the person; the roles that must call someone
 * reveal one number through an explicit route (users an admin manages, a pool judge's
 * contact, a complaint's filer), in scope only (404 like an unknown id), audited, limited per
 * caller; the team's registration form stays full for the team and its school (audited); the
 * Excel exports are masked; and a form that posts back the masked number keeps the real one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { exportXlsx, rowsOf } from "../helpers/xlsx";
import { waitJob } from "../helpers/jobs";
import { readXlsx } from "../../src/server/crud/excel";
import { insertUser, insertWork } from "./judging-fixtures";
import { contestId, idOf, login } from "./works-fixtures";
import { F, M, publishedContest, TEXT } from "./complaints-fixtures";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const U = "/Backend/Admin/user";
const W = "/Backend/Work/work";
const P = "/Backend/JudgePool";

describe.each(DIALECTS)("phone masking on %s", (dialect) => {
  let t: TestApp;
  let root: Client;
  let schoolAdmin: Client;
  let cadmin: Client;
  let student: Client;
  let studentId: number;
  let otherId: number;

  const setPhone = (id: number, phone: string | null) =>
    t.db.updateTable("app_user").set({ phone }).where("id", "=", id).execute();
  const phoneOf = async (id: number) =>
    (await t.db.selectFrom("app_user").select("phone").where("id", "=", id).executeTakeFirstOrThrow()).phone;
  const audits = (entity: string, entityId: number, by?: number) => {
    let q = t.db
      .selectFrom("audit_log")
      .select(["user_id", "action"])
      .where("entity", "=", entity)
      .where("entity_id", "=", String(entityId))
      .where("action", "=", "view_phone");
    if (by !== undefined) q = q.where("user_id", "=", by);
    return q.execute();
  };

  beforeAll(async () => {
    t = await makeApp(dialect);
    [root, schoolAdmin, cadmin, student] = await Promise.all(
      ["root", "school_admin", "contest_admin", "student"].map((u) => login(t, u)),
    );
    studentId = await idOf(t, "student");
    await setPhone(studentId, "13812345678");
    otherId = await insertUser(t, { username: "pm_other", name: "外校生", role: 100, school: "浙江大学" });
    await setPhone(otherId, "13600001111");
  });
  afterAll(async () => t?.close());

  it("users: lists and records show others' phones masked, the person's own in full", async () => {
    const list = await schoolAdmin.get(`${U}?keyword=student&pageSize=100`);
    expect(list.body.error, list.body.info).toBe(0);
    const row = (list.body.data.list as { id: number; phone: string | null }[]).find((u) => u.id === studentId);
    expect(row?.phone).toBe("138****5678");
    expect((await schoolAdmin.get(`${U}/${studentId}`)).body.data.phone).toBe("138****5678");
    expect((await root.get(`${U}/${studentId}`)).body.data.phone).toBe("138****5678");
    // Own profile: in full.
    expect((await student.get("/Backend/Common/profile")).body.data.phone).toBe("13812345678");
    // The user export reads the same views: masked.
    const { wb } = await exportXlsx(schoolAdmin, U, {});
    const ws = wb.worksheets[0];
    const header = (ws.getRow(1).values as unknown[]).slice(1).map(String);
    const sheetRow = rowsOf(ws).find((r) => r[header.indexOf("用户名")] === "student")!;
    expect(sheetRow[header.indexOf("手机号")]).toBe("138****5678");
    expect(rowsOf(ws).flat().join(" ")).not.toContain("13812345678");
  });

  it("users: an admin reveals a phone of a user they manage, audited; out of scope answers 404 and nothing is recorded", async () => {
    const sa = await idOf(t, "school_admin");
    const r = await schoolAdmin.get(`${U}/${studentId}/phone`);
    expect(r.body).toMatchObject({ error: 0, data: { id: studentId, phone: "13812345678" } });
    expect(await audits("user", studentId, sa)).toEqual([{ user_id: sa, action: "view_phone" }]);
    // Root manages everyone.
    expect((await root.get(`${U}/${otherId}/phone`)).body.data.phone).toBe("13600001111");
    // Another school's student, root, an unknown id: 404 with one text, no audit row.
    const outside = await schoolAdmin.get(`${U}/${otherId}/phone`);
    const unknown = await schoolAdmin.get(`${U}/99999999/phone`);
    expect(outside.body).toMatchObject({ error: 404 });
    expect(outside.body.info).toBe(unknown.body.info);
    expect((await schoolAdmin.get(`${U}/${await idOf(t, "root")}/phone`)).body.error).toBe(404);
    expect(await audits("user", otherId, sa)).toEqual([]);
    // A contest admin manages judges and reviewers only.
    expect((await cadmin.get(`${U}/${studentId}/phone`)).body.error).toBe(404);
    // Roles without the policy line: 403.
    expect((await student.get(`${U}/${studentId}/phone`)).status).toBe(403);
    expect((await (await login(t, "judge")).get(`${U}/${studentId}/phone`)).status).toBe(403);
  });

  it("users: saving a form that posted the masked phone keeps the real phone; other masked text is refused", async () => {
    const kept = await schoolAdmin.req("PATCH", `${U}/${studentId}`, { name: "冯同学", phone: "138****5678", memberNo: "M0001" });
    expect(kept.body.error, kept.body.info).toBe(0);
    expect(kept.body.data.phone).toBe("138****5678");
    expect(await phoneOf(studentId)).toBe("13812345678");
    const wrong = await schoolAdmin.req("PATCH", `${U}/${studentId}`, { phone: "138****0000" });
    expect(wrong.body).toMatchObject({ error: 422, data: { field: "phone" } });
    expect(await phoneOf(studentId)).toBe("13812345678");
    // A real new number is saved.
    expect((await schoolAdmin.req("PATCH", `${U}/${studentId}`, { phone: "13900001234" })).body.error).toBe(0);
    expect(await phoneOf(studentId)).toBe("13900001234");
    await setPhone(studentId, "13812345678");
  });

  it("works: the view masks the team's phones except the viewer's own; the registration form is full for the team, audited; the export is masked", async () => {
    const zj = await contestId(t, "2026-ZJ");
    const w = await insertWork(t, { contest: zj, school: "浙江工业大学", category: "软件应用与开发", status: "submitted" });
    const team = await t.db
      .selectFrom("work_author")
      .select(["user_id", "rank"])
      .where("work_id", "=", w)
      .orderBy("rank")
      .execute();
    const [a1, a2] = team.map((m) => m.user_id);
    const teacher = (await t.db.selectFrom("work_teacher").select("user_id").where("work_id", "=", w).executeTakeFirstOrThrow())
      .user_id;
    await setPhone(a1, "13911112222");
    await setPhone(a2, "13933334444");
    await setPhone(teacher, "13755556666");
    const author = await login(
      t,
      (await t.db.selectFrom("app_user").select("username").where("id", "=", a1).executeTakeFirstOrThrow()).username,
    );
    const own = (await author.get(`${W}/${w}`)).body.data;
    expect(own.authors.map((a: { phone: string }) => a.phone)).toEqual(["13911112222", "139****4444"]);
    expect(own.teachers[0].phone).toBe("137****6666");
    const admin = (await cadmin.get(`${W}/${w}`)).body.data;
    expect(admin.authors.map((a: { phone: string }) => a.phone)).toEqual(["139****2222", "139****4444"]);
    expect(admin.teachers[0].phone).toBe("137****6666");

    // The team's 报名表: in full, and the print is in the audit log.
    const form = (await author.post(`${W}/registration`, { work: w })).body.data;
    expect(form.authors.map((a: { phone: string }) => a.phone)).toEqual(["13911112222", "13933334444"]);
    expect(form.teachers[0].phone).toBe("13755556666");
    expect(await audits("work", w, a1)).toHaveLength(1);
    // The contest admin's print: masked, nothing recorded.
    const adminForm = (await cadmin.post(`${W}/registration`, { work: w })).body.data;
    expect(adminForm.authors.map((a: { phone: string }) => a.phone)).toEqual(["139****2222", "139****4444"]);
    expect(await audits("work", w, await idOf(t, "contest_admin"))).toEqual([]);

    // The works export: masked.
    const start = await root.post("/Backend/Admin/work/export", { contestId: zj });
    expect(start.status).toBe(202);
    const job = await waitJob(root, start.body.data.jobId as string);
    const file = await root.get(job.downloadUrl);
    const dir = mkdtempSync(join(tmpdir(), "saiwu-pm-"));
    try {
      writeFileSync(join(dir, "x.xlsx"), file.res.rawPayload);
      const rows: Record<string, string>[] = [];
      for await (const r of readXlsx(join(dir, "x.xlsx"))) if (!("headers" in r)) rows.push(r.cells);
      const mine = rows.find((r) => r["作品编号"] === String(w))!;
      expect(mine).toMatchObject({ 作者1手机: "139****2222", 作者2手机: "139****4444", 指导教师1手机: "137****6666" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("judge pool: lists mask the phones an admin may see; the contact route shows them in full, audited; a masked value saved back changes nothing", async () => {
    const made = await cadmin.post(`${P}/persons`, { name: "脱敏专家", email: "pm@pool.test", phone: "13900000000" });
    expect(made.body.error, made.body.info).toBe(0);
    const id = made.body.data.id as number;
    expect(made.body.data.phone).toBe("139****0000");
    const listed = (await cadmin.get(`${P}/persons?keyword=${encodeURIComponent("脱敏专家")}`)).body.data.list;
    expect(listed[0]).toMatchObject({ id, contactVisible: true, phone: "139****0000" });
    const contact = await cadmin.get(`${P}/persons/${id}/contact`);
    expect(contact.body).toMatchObject({ error: 0, data: { phone: "13900000000", email: "pm@pool.test" } });
    const ca = await idOf(t, "contest_admin");
    expect(await audits("judge_person", id, ca)).toHaveLength(1);
    // Another contest admin (not entered nor invited by them): 404, nothing recorded.
    const national = await login(t, "national_admin");
    expect((await national.get(`${P}/persons/${id}/contact`)).body.error).toBe(404);
    expect(await audits("judge_person", id, await idOf(t, "national_admin"))).toEqual([]);
    // The edit form posts back what it was shown.
    const saved = await cadmin.req("PATCH", `${P}/persons/${id}`, { phone: "139****0000", title: "教授" });
    expect(saved.body.error, saved.body.info).toBe(0);
    const stored = () =>
      t.db.selectFrom("judge_person").select(["phone", "title"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(await stored()).toEqual({ phone: "13900000000", title: "教授" });
    expect((await cadmin.req("PATCH", `${P}/persons/${id}`, { phone: "139****9999" })).body).toMatchObject({
      error: 422,
      data: { field: "phone" },
    });
    expect((await stored()).phone).toBe("13900000000");
  });

  it("the judge's own profile shows the own phone in full", async () => {
    const judgeId = await idOf(t, "judge");
    await setPhone(judgeId, "13577778888");
    expect((await (await login(t, "judge")).get("/Backend/Judge/profile")).body.data.phone).toBe("13577778888");
  });

  it("complaints: the handler sees the filer's phone masked and reveals it to call back, audited; other handlers 404, arbitrators 403", async () => {
    const f = await publishedContest(t);
    const filerId = await insertUser(t, { username: "pm_filer", name: "申诉人", role: 100, school: "苏州大学" });
    await setPhone(filerId, "13788889999");
    const filer = await login(t, "pm_filer");
    const filed = await filer.post(`${F}/mine`, { type: "complaint", workId: f.w[2], category: "plagiarism", text: TEXT });
    expect(filed.body.error, filed.body.info).toBe(0);
    const id = filed.body.data.id as number;
    const view = await f.admin.get(`${M}/complaints/${id}`);
    expect(view.body.data.filer).toMatchObject({ userId: filerId, phone: "137****9999" });
    const reveal = await f.admin.get(`${M}/complaints/${id}/filer-phone`);
    expect(reveal.body).toMatchObject({ error: 0, data: { id, phone: "13788889999" } });
    expect(await audits("complaint", id, await idOf(t, "complaint_admin"))).toHaveLength(1);
    // A handler of other contests: 404 like an unknown complaint.
    const otherHandler = await insertUser(t, { username: "pm_handler", name: "他赛处理人", role: 6 });
    await t.db.updateTable("app_user").set({ has_complaint_right: 1 }).where("id", "=", otherHandler).execute();
    const h = await login(t, "pm_handler");
    const out = await h.get(`${M}/complaints/${id}/filer-phone`);
    expect(out.body.error).toBe(404);
    expect(out.body.info).toBe((await h.get(`${M}/complaints/99999999/filer-phone`)).body.info);
    // The arbitrator reads the case but does not call filers.
    expect((await f.arbitrator.get(`${M}/complaints/${id}/filer-phone`)).status).toBe(403);
    // The filer's own view carries no phone of anyone.
    expect(JSON.stringify((await filer.get(`${F}/mine/${id}`)).body)).not.toContain("1378888");
  });

  it("reveals are limited per caller", async () => {
    const limited = await login(t, "school_admin");
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await limited.get(`${U}/${studentId}/phone`)).status;
    expect(last).toBe(429);
  });
});
