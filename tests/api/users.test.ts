import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { waitJob } from "../helpers/jobs";
import { exportXlsx, importXlsx, sheetFile, xlsxBuffer } from "../helpers/xlsx";
import { personName, rng } from "../../src/server/seed/generate";

const P = "/Backend/Admin/user";
const HEADERS = ["用户名", "姓名", "身份", "学校代码", "学号/工号", "专业代码", "邮箱", "手机号", "校赛评委"];

/** Imports `buf` as users.xlsx and waits for the dry run. */
const upload = (c: Client, buf: Buffer) => importXlsx(c, P, buf, "users.xlsx");
/** The users sheet with its headers and these rows. */
const sheet = (rows: (string | number)[][]) => sheetFile("用户", [HEADERS, ...rows]);

describe.each(DIALECTS)("users on %s", (dialect) => {
  let t: TestApp;
  let root: Client, cadmin: Client, sadmin: Client;
  let zjut: number, zju: number, zjContest: number, jsContest: number;
  let outsider: number, foreignJudge: number;

  const userRow = (username: string) =>
    t.db.selectFrom("app_user").selectAll().where("username", "=", username).executeTakeFirst();
  const idOf = async (username: string) => (await userRow(username))!.id;

  beforeAll(async () => {
    t = await makeApp(dialect);
    root = new Client(t);
    cadmin = new Client(t);
    sadmin = new Client(t);
    await root.login("root", "admin");
    await cadmin.login("contest_admin", "admin");
    await sadmin.login("school_admin", "admin");
    const school = async (name: string) =>
      (await t.db.selectFrom("school").select("id").where("name", "=", name).executeTakeFirstOrThrow()).id;
    zjut = await school("浙江工业大学");
    zju = await school("浙江大学");
    const contest = async (province: string) =>
      (
        await t.db
          .selectFrom("contest")
          .select("id")
          .where("level", "=", "provincial")
          .where("province", "=", province)
          .executeTakeFirstOrThrow()
      ).id;
    zjContest = await contest("浙江省");
    jsContest = await contest("江苏省");
    // Data that could leak: a student of another school, a judge of another province's contest.
    const a = await root.post(P, {
      username: "zju_stu",
      name: "外校学生",
      role: 100,
      schoolId: zju,
      email: "zju.stu@example.com",
      memberNo: "3190100001",
    });
    expect(a.status).toBe(201);
    outsider = a.body.data.id;
    const j = await root.post(P, { username: "js_judge", name: "苏评委", role: 4, contestId: jsContest });
    expect(j.status).toBe(201);
    foreignJudge = j.body.data.id;
  });
  afterAll(async () => t?.close());

  it("lists users within each role's scope, filtered and sorted, never with a password hash", async () => {
    const all = await root.get(`${P}?pageSize=100&sort=username`);
    const names = all.body.data.list.map((u: { username: string }) => u.username);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(["root", "zju_stu", "js_judge", "student", "teacher"]));
    expect(JSON.stringify(all.body)).not.toMatch(/password|\$argon2/);
    const stu = all.body.data.list.find((u: { username: string }) => u.username === "zju_stu");
    expect(stu).toMatchObject({
      userType: 100,
      roleName: "作者（学生）",
      school: { id: zju, name: "浙江大学" },
      memberNo: "3190100001",
      needsClaim: true,
      emailVerified: false,
      locked: false,
    });

    const own = await sadmin.get(`${P}?pageSize=100`);
    expect(own.body.data.list.map((u: { username: string }) => u.username).sort()).toEqual([
      "student",
      "student2",
      "student3",
      "student4",
      "student5",
      "teacher",
    ]);
    const judges = await cadmin.get(`${P}?pageSize=100`);
    const cnames = judges.body.data.list.map((u: { username: string }) => u.username);
    expect(cnames).toEqual(expect.arrayContaining(["judge", "reviewer"]));
    expect(cnames).not.toContain("js_judge");
    expect(cnames.every((n: string) => !["student", "teacher", "root", "zju_stu"].includes(n))).toBe(true);
    const judge = judges.body.data.list.find((u: { username: string }) => u.username === "judge");
    expect(judge.contests).toEqual([expect.objectContaining({ id: zjContest, role: "judge" })]);

    const typed = await root.get(`${P}?userType=3&userType=4&pageSize=100`);
    expect(new Set(typed.body.data.list.map((u: { userType: number }) => u.userType))).toEqual(new Set([3, 4]));
    const kw = await root.get(`${P}?keyword=${encodeURIComponent("外校")}`);
    expect(kw.body.data.list.map((u: { username: string }) => u.username)).toEqual(["zju_stu"]);
    const byNo = await root.get(`${P}?keyword=3190100001`);
    expect(byNo.body.data.total).toBe(1);
    const inJs = await root.get(`${P}?contestId=${jsContest}`);
    expect(inJs.body.data.list.map((u: { username: string }) => u.username)).toContain("js_judge");
    expect((await cadmin.get(`${P}?contestId=${jsContest}`)).body.data.total).toBe(0);
    const flagged = await root.get(`${P}?isSchoolContestJudge=true`);
    expect(flagged.body.data.list.map((u: { username: string }) => u.username)).toEqual(["teacher"]);
  });

  it("shows a renamed author's new name on the author's works", async () => {
    const id = await idOf("student3");
    const works = await t.db.selectFrom("work_author").select("work_id").where("user_id", "=", id).execute();
    expect(works.length).toBeGreaterThan(0);
    const patch = await root.req("PATCH", `${P}/${id}`, { name: "林雨桐改" });
    expect(patch.body.error).toBe(0);
    const names = await t.db
      .selectFrom("work")
      .select("author_names")
      .where(
        "id",
        "in",
        works.map((w) => w.work_id),
      )
      .execute();
    for (const n of names) expect(n.author_names.split("、")).toContain("林雨桐改");
    const listed = (await root.get(`/Backend/Admin/work?authorName=${encodeURIComponent("林雨桐改")}`)).body.data;
    expect(listed.total).toBe(works.length);
    await root.req("PATCH", `${P}/${id}`, { name: "林雨桐" });
  });

  it("does not let a school admin read, change, delete, lock or reset another school's student by id", async () => {
    expect((await sadmin.get(`${P}/${outsider}`)).status).toBe(404);
    const patch = await sadmin.req("PATCH", `${P}/${outsider}`, { name: "被改名" });
    expect(patch.status).toBe(404);
    expect(patch.body.info).toContain("不在您的管理范围内");
    expect((await sadmin.del(`${P}/${outsider}`)).status).toBe(404);
    expect((await sadmin.post(`${P}/${outsider}/lock`)).status).toBe(404);
    expect((await sadmin.post(`${P}/${outsider}/reset-password`)).status).toBe(404);
    const row = await userRow("zju_stu");
    expect(row).toMatchObject({ name: "外校学生", locked: 0, archived: 0 });
    expect(t.mails().filter((m) => m.to.includes("zju.stu@example.com"))).toHaveLength(0);
    // Nor the contest admin a judge of another province, nor a school admin the judges.
    expect((await cadmin.get(`${P}/${foreignJudge}`)).status).toBe(404);
    expect((await cadmin.post(`${P}/${foreignJudge}/lock`)).status).toBe(404);
    expect((await sadmin.get(`${P}/${await idOf("judge")}`)).status).toBe(404);
    expect((await cadmin.get(`${P}/${await idOf("student")}`)).status).toBe(404);
  });

  it("lets a school admin create only own students and teachers, with the own school forced", async () => {
    const c = await sadmin.post(P, {
      username: "zjut_new",
      name: "陈新生",
      role: 100,
      memberNo: "202305010101",
      majorCode: "080902",
      email: "Chen.XS@Example.com",
    });
    expect(c.status).toBe(201);
    expect(c.body.data).toMatchObject({
      school: { id: zjut, name: "浙江工业大学" },
      majorName: "软件工程",
      email: "chen.xs@example.com",
      needsClaim: true,
    });
    expect((await userRow("zjut_new"))!.password_hash).toBe("!");
    const elsewhere = await sadmin.post(P, { username: "zjut_x", name: "他校生", role: 100, schoolId: zju });
    expect(elsewhere.status).toBe(403);
    const admin = await sadmin.post(P, { username: "zjut_adm", name: "新管理员", role: 2 });
    expect(admin.status).toBe(403);
    expect(admin.body.info).toContain("学校管理员只能管理本校的学生和教师");
    const promote = await sadmin.req("PATCH", `${P}/${c.body.data.id}`, { role: 0 });
    expect(promote.status).toBe(403);
    const right = await sadmin.req("PATCH", `${P}/${c.body.data.id}`, { hasComplaintRight: true });
    expect(right.status).toBe(403);
    const judgeFlag = await sadmin.req("PATCH", `${P}/${c.body.data.id}`, { isSchoolContestJudge: true });
    expect(judgeFlag.status).toBe(422);
    expect(judgeFlag.body.info).toBe("只有教师可以设为校赛评委");
    const teacher = await sadmin.req("PATCH", `${P}/${c.body.data.id}`, { role: 99, isSchoolContestJudge: true });
    expect(teacher.body.data).toMatchObject({ userType: 99, roleName: "教师", isSchoolContestJudge: true });
    expect(await userRow("zjut_x")).toBeUndefined();
    expect((await userRow("zjut_new"))!.user_type).toBe(99);
    const dupName = await sadmin.post(P, { username: "zjut_new", name: "重名", role: 100 });
    expect(dupName.status).toBe(422);
    const dupMail = await sadmin.post(P, { username: "zjut_mail", name: "重邮", role: 100, email: "zju.stu@example.com" });
    expect(dupMail.status).toBe(422);
    expect(dupMail.body.info).toContain("已被其他账号使用");
    const badMajor = await sadmin.post(P, { username: "zjut_mj", name: "错专业", role: 100, majorCode: "999999" });
    expect(badMajor.status).toBe(422);
  });

  it("lets a contest admin create judges and reviewers only, as members of an own contest", async () => {
    const none = await cadmin.post(P, { username: "zj_j1", name: "浙评委", role: 4 });
    expect(none.status).toBe(422);
    const foreign = await cadmin.post(P, { username: "zj_j1", name: "浙评委", role: 4, contestId: jsContest });
    expect(foreign.status).toBe(403);
    for (const role of [0, 1, 2, 5, 6, 7, 99, 100]) {
      const r = await cadmin.post(P, { username: `zj_r${role}`, name: "越权者", role, contestId: zjContest });
      expect(r.status).toBe(403);
      expect(r.body.info).toContain("赛事管理员只能管理评委和赛事审核员");
    }
    const ok = await cadmin.post(P, { username: "zj_j1", name: "浙评委", role: 4, contestId: zjContest, schoolId: zju });
    expect(ok.status).toBe(201);
    expect(ok.body.data.contests).toEqual([expect.objectContaining({ id: zjContest, role: "judge" })]);
    const id = ok.body.data.id;
    expect((await cadmin.req("PATCH", `${P}/${id}`, { role: 1 })).status).toBe(403);
    expect((await cadmin.req("PATCH", `${P}/${id}`, { hasComplaintRight: true })).status).toBe(403);
    const rev = await cadmin.req("PATCH", `${P}/${id}`, { role: 3 });
    expect(rev.body.data).toMatchObject({
      userType: 3,
      contests: [expect.objectContaining({ id: zjContest, role: "reviewer" })],
    });
    expect(await t.db.selectFrom("app_user").select("id").where("username", "like", "zj_r%").execute()).toEqual([]);
    // Contest admins delete nobody (policy), and nobody edits their own role or locks themselves.
    expect((await cadmin.del(`${P}/${id}`)).status).toBe(403);
    const me = await idOf("root");
    const self = await root.req("PATCH", `${P}/${me}`, { role: 1 });
    expect(self.status).toBe(400);
    expect(self.body.info).toBe("不能修改自己的身份");
    expect((await root.post(`${P}/${me}/lock`)).status).toBe(400);
    const grant = await root.req("PATCH", `${P}/${id}`, { hasComplaintRight: true });
    expect(grant.body.data.hasComplaintRight).toBe(true);
  });

  it("locking ends the user's sessions and blocks login; unlocking lets them in again", async () => {
    const stu = new Client(t);
    await stu.login("student", "student");
    expect((await stu.get("/Backend/Common/user/get-current")).body.data.needToLogin).toBe(false);
    const id = await idOf("student");
    const lock = await sadmin.post(`${P}/${id}/lock`);
    expect(lock.body).toMatchObject({ error: 0, data: { locked: true } });
    expect(await t.db.selectFrom("user_session").select("id").where("user_id", "=", id).execute()).toEqual([]);
    expect((await stu.get("/Backend/Common/user/get-current")).body.data.needToLogin).toBe(true);
    const again = await new Client(t).post("/Backend/Common/account/login", {
      username: "student",
      password: "Demo@2026",
      page: "student",
    });
    expect(again.status).toBe(403);
    expect(again.body.info).toContain("已被锁定");
    const locked = await sadmin.get(`${P}?locked=true`);
    expect(locked.body.data.list.map((u: { username: string }) => u.username)).toEqual(["student"]);
    const unlock = await sadmin.post(`${P}/${id}/unlock`);
    expect(unlock.body.data.locked).toBe(false);
    await new Client(t).login("student", "student");
    const log = await t.db
      .selectFrom("audit_log")
      .select("action")
      .where("entity", "=", "user")
      .where("entity_id", "=", String(id))
      .orderBy("id")
      .execute();
    expect(log.map((l) => l.action)).toEqual(["lock", "unlock"]);
  });

  it("reset password mails a claim link with which the user sets a password and logs in", async () => {
    const c = await sadmin.post(P, { username: "zjut_claim", name: "林认领", role: 100, email: "claim@example.com" });
    const id = c.body.data.id;
    const before = await new Client(t).post("/Backend/Common/account/login", {
      username: "zjut_claim",
      password: "!",
      page: "student",
    });
    expect(before.status).toBe(401);
    const r = await sadmin.post(`${P}/${id}/reset-password`);
    expect(r.body).toMatchObject({ error: 0, data: { email: "claim@example.com" } });
    const mail = t
      .mails()
      .filter((m) => m.to.includes("claim@example.com"))
      .pop()!;
    expect(mail.text).toContain("zjut_claim");
    const token = mail.text.match(/claim-account\?token=([\w-]+)/)![1];
    const anon = new Client(t);
    const set = await anon.post("/Backend/Common/account/recovery/confirm", { token, newPassword: "Claim2026x" });
    expect(set.body.error).toBe(0);
    await anon.login("zjut_claim", "student", "Claim2026x");
    expect((await sadmin.get(`${P}/${id}`)).body.data).toMatchObject({ needsClaim: false, emailVerified: true });
    const noMail = await sadmin.post(P, { username: "zjut_nomail", name: "无邮箱", role: 100 });
    const refused = await sadmin.post(`${P}/${noMail.body.data.id}/reset-password`);
    expect(refused.status).toBe(400);
    expect(refused.body.info).toContain("没有邮箱");
  });

  it("deletes an unused user, archives (and locks) one with records, and never deletes oneself", async () => {
    const c = await sadmin.post(P, { username: "zjut_tmp", name: "临时生", role: 100 });
    const d = await sadmin.del(`${P}/${c.body.data.id}`);
    expect(d.body.data.result).toBe("deleted");
    expect(await userRow("zjut_tmp")).toBeUndefined();
    // The school admin has made changes (audit log): archived, locked, signed out.
    const adminId = await idOf("school_admin");
    const a = await root.del(`${P}/${adminId}`);
    expect(a.body.data.result).toBe("archived");
    expect(await userRow("school_admin")).toMatchObject({ archived: 1, locked: 1 });
    expect((await sadmin.get(P)).status).toBe(401);
    expect((await root.post(`${P}/${adminId}/unlock`)).status).toBe(400);
    expect((await root.del(`${P}/${await idOf("root")}`)).status).toBe(400);
    // A record of another table that points at the user (as works and scores will) also archives.
    const ref = await root.post(P, { username: "zjut_ref", name: "有作品", role: 100, schoolId: zjut });
    await sql`create table test_work (id integer primary key, author_id integer not null references app_user(id))`.execute(t.db);
    await sql`insert into test_work (id, author_id) values (1, ${ref.body.data.id})`.execute(t.db);
    const refDel = await root.del(`${P}/${ref.body.data.id}`);
    expect(refDel.body).toMatchObject({ error: 0, info: "用户已被引用，已归档", data: { result: "archived" } });
    expect(await userRow("zjut_ref")).toMatchObject({ archived: 1, locked: 1 });
    await sql`drop table test_work`.execute(t.db);
    // Bring the school admin back for the import tests.
    await t.db.updateTable("app_user").set({ archived: 0, locked: 0 }).where("id", "=", adminId).execute();
    await sadmin.login("school_admin", "admin");
  });

  it("imports students with a dry run and a diff, confirms all at once, and exports them back", async () => {
    const buf = await sheet([
      ["zjut2301", "欧阳晨曦", "作者（学生）", "", "202301010101", "080901", "oyang@example.com", "13800000001", "否"],
      ["zjut2302", "司马嘉怡", "学生", "10337", "202301010102", "80906", "", "", ""],
      ["zjut2303", "诸葛若曦", "作者（学生）", "10337", "202301010103", "", "zhuge@example.com", "", ""],
      ["zjut_t01", "上官老师", "教师", "", "T0001", "", "", "", "是"],
      ["student", "冯同学（改）", "作者（学生）", "10337", "", "", "", "", ""],
    ]);
    const { jobId, dry } = await upload(sadmin, buf);
    expect(dry.status).toBe("ready");
    expect(dry.result).toMatchObject({ total: 5, created: 4, changed: 1, unchanged: 0, errors: [] });
    expect(dry.result.changedRows[0]).toMatchObject({ key: "student", changes: { 姓名: ["冯同学", "冯同学（改）"] } });
    expect(await userRow("zjut2301")).toBeUndefined();
    expect((await sadmin.post(`${P}/import/${jobId}/confirm`)).status).toBe(202);
    const done = await waitJob(sadmin, jobId);
    expect(done.status).toBe("done");
    const rows = await t.db
      .selectFrom("app_user")
      .selectAll()
      .where("username", "in", ["zjut2301", "zjut2302", "zjut2303", "zjut_t01"])
      .orderBy("username")
      .execute();
    expect(rows.map((r) => [r.name, r.school_id, r.user_type, r.password_hash])).toEqual([
      ["欧阳晨曦", zjut, 100, "!"],
      ["司马嘉怡", zjut, 100, "!"],
      ["诸葛若曦", zjut, 100, "!"],
      ["上官老师", zjut, 99, "!"],
    ]);
    expect(rows[1].major_code).toBe("080906");
    expect(rows[3].is_school_contest_judge).toBe(1);
    expect((await userRow("student"))!.name).toBe("冯同学（改）");
    const log = await t.db
      .selectFrom("audit_log")
      .select(["entity_id", "changes"])
      .where("entity", "=", "user")
      .where("action", "=", "import")
      .execute();
    expect(log).toHaveLength(5);
    expect(JSON.parse(log.find((l) => l.entity_id === String(rows[0].id))!.changes).name).toEqual([null, "欧阳晨曦"]);

    const { wb } = await exportXlsx(sadmin, P, { userType: [100] });
    const ws = wb.worksheets[0];
    expect((ws.getRow(1).values as string[]).slice(1, 10)).toEqual(HEADERS);
    const exported: string[] = [];
    ws.eachRow((row, n) => n > 1 && exported.push(String(row.getCell(2).value)));
    const ownStudents = await t.db
      .selectFrom("app_user")
      .select("name")
      .where("school_id", "=", zjut)
      .where("user_type", "=", 100)
      .execute();
    expect(exported.sort()).toEqual(ownStudents.map((s) => s.name).sort());
    expect(exported).toEqual(expect.arrayContaining(["冯同学（改）", "司马嘉怡", "欧阳晨曦", "诸葛若曦"]));
    expect(exported).not.toContain("外校学生");
    // The exported file imports back unchanged.
    const back = await upload(sadmin, await xlsxBuffer(wb));
    expect(back.dry.result).toMatchObject({
      total: exported.length,
      created: 0,
      changed: 0,
      unchanged: exported.length,
      errors: [],
    });
  });

  it("reports every bad row and imports nothing when a file has errors", async () => {
    const buf = await sheet([
      ["zjut_ok", "王合格", "作者（学生）", "", "", "", "ok@example.com", "", ""],
      ["zju_stu", "外校学生", "作者（学生）", "", "", "", "", "", ""],
      ["zjut_e1", "错学校", "作者（学生）", "10335", "", "", "", "", ""],
      ["zjut_e2", "错身份", "超级管理员", "", "", "", "", "", ""],
      ["zjut_e3", "错专业", "作者（学生）", "", "", "123456", "", "", ""],
      ["zjut_e4", "重邮箱", "作者（学生）", "", "", "", "ok@example.com", "", ""],
      ["zjut_e5", "占邮箱", "作者（学生）", "", "", "", "zju.stu@example.com", "", ""],
      ["zjut_e6", "错标记", "教师", "", "", "", "", "", "也许"],
      ["zjut_e7", "错手机", "作者（学生）", "", "", "", "", "12345", ""],
      ["zjut_e8", "", "作者（学生）", "", "", "", "", "", ""],
    ]);
    const { jobId, dry } = await upload(sadmin, buf);
    expect(dry.status).toBe("ready");
    expect(dry.result.errors).toEqual([
      { row: 3, column: "用户名", reason: "该记录已存在，但不在您的管理范围内" },
      { row: 4, column: "学校代码", reason: "只能导入本校的用户，本校学校代码为 10337" },
      { row: 5, column: "身份", reason: expect.stringContaining("学校管理员只能管理本校的学生和教师") },
      { row: 6, column: "专业代码", reason: "专业代码 123456 不存在" },
      { row: 7, column: "邮箱", reason: "与文件中其他行的邮箱重复" },
      { row: 8, column: "邮箱", reason: "该邮箱已被其他账号使用" },
      { row: 9, column: "校赛评委", reason: "请填写“是”或“否”" },
      { row: 10, column: "手机号", reason: expect.stringContaining("手机号") },
      { row: 11, column: "姓名", reason: expect.stringContaining("必填") },
    ]);
    expect(dry.message).toContain("本次不会导入任何数据");
    const confirm = await sadmin.post(`${P}/import/${jobId}/confirm`);
    expect(confirm.status).toBe(400);
    expect(await userRow("zjut_ok")).toBeUndefined();
    expect((await userRow("zju_stu"))!.school_id).toBe(zju);
  });

  it("imports thousands of students in one go with every Chinese character intact", async () => {
    const r = rng(7);
    const people = Array.from({ length: 4000 }, (_, i) => [
      `bulk${String(i).padStart(5, "0")}`,
      `${personName(r)}${personName(r)}`,
    ]);
    const { jobId, dry } = await upload(
      root,
      await sheet(people.map(([u, n]) => [u, n, "作者（学生）", "10285", u, "080901", `${u}@stu.example.edu.cn`, "", "否"])),
    );
    expect(dry.result).toMatchObject({ total: 4000, created: 4000, errors: [] });
    await root.post(`${P}/import/${jobId}/confirm`);
    expect((await waitJob(root, jobId)).status).toBe("done");
    const rows = await t.db
      .selectFrom("app_user")
      .select(["username", "name"])
      .where("username", "like", "bulk%")
      .orderBy("username")
      .execute();
    expect(rows.map((u) => [u.username, u.name])).toEqual(people);
    const audit = await t.db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("action", "=", "import")
      .where("entity", "=", "user")
      .executeTakeFirstOrThrow();
    expect(Number(audit.n)).toBeGreaterThanOrEqual(4000);
  });

  it("names a row that breaks a whole-row rule in the dry run, and imports nothing", async () => {
    // Every cell of row 3 is fine on its own; a student without a school is not.
    const { jobId, dry } = await upload(
      root,
      await sheet([
        ["root_i1", "赵一", "作者（学生）", "10335", "", "", "", "", ""],
        ["root_i2", "钱二", "作者（学生）", "", "", "", "", "", ""],
      ]),
    );
    expect(dry.result.errors).toEqual([
      { row: 3, column: "用户名", reason: expect.stringContaining("作者（学生）须选择所属学校") },
    ]);
    const refused = await root.post(`${P}/import/${jobId}/confirm`);
    expect(refused.status).toBe(400);
    expect(await userRow("root_i1")).toBeUndefined();
  });

  it("imports judges for a contest admin into the own contest", async () => {
    const { jobId, dry } = await upload(
      cadmin,
      await sheet([
        ["zj_imp_j", "韩评委", "评委", "10335", "", "", "", "", ""],
        ["zj_imp_r", "曹审核", "赛事审核员", "", "", "", "", "", ""],
        ["js_judge", "苏评委", "评委", "", "", "", "", "", ""],
        ["zj_imp_s", "学生甲", "作者（学生）", "", "", "", "", "", ""],
      ]),
    );
    expect(dry.result.errors).toEqual([
      { row: 4, column: "用户名", reason: "该记录已存在，但不在您的管理范围内" },
      { row: 5, column: "身份", reason: expect.stringContaining("赛事管理员只能管理评委和赛事审核员") },
    ]);
    const ok = await upload(
      cadmin,
      await sheet([
        ["zj_imp_j", "韩评委", "评委", "10335", "", "", "", "", ""],
        ["zj_imp_r", "曹审核", "赛事审核员", "", "", "", "", "", ""],
      ]),
    );
    expect(ok.dry).toMatchObject({ status: "ready", message: "可导入：新增 2，修改 0，不变 0" });
    expect((await cadmin.post(`${P}/import/${ok.jobId}/confirm`)).status).toBe(202);
    expect(await waitJob(cadmin, ok.jobId)).toMatchObject({ status: "done", message: "导入完成：新增 2，修改 0" });
    const mine = await cadmin.get(`${P}?keyword=zj_imp&sort=username`);
    expect(
      mine.body.data.list.map((u: { username: string; contests: { id: number; role: string }[] }) => [
        u.username,
        u.contests.map((c) => [c.id, c.role]),
      ]),
    ).toEqual([
      ["zj_imp_j", [[zjContest, "judge"]]],
      ["zj_imp_r", [[zjContest, "reviewer"]]],
    ]);
    void jobId;
  });
});
