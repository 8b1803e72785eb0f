/** The own profile of students and teachers (/author/info, /teacher/info). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { idOf, login } from "./works-fixtures";

const P = "/Backend/Common/profile";

describe.each(DIALECTS)("profile on %s", (dialect) => {
  let t: TestApp;
  let student: Client;
  beforeAll(async () => {
    t = await makeApp(dialect);
    student = await login(t, "student");
  });
  afterAll(async () => t?.close());

  it("shows the own name, number, school, major, phone and email", async () => {
    const r = await student.get(P);
    expect(r.body.data).toEqual({
      id: await idOf(t, "student"),
      username: "student",
      name: "冯同学",
      userType: 100,
      roleName: "作者（学生）",
      memberNo: "202305010101",
      majorCode: "080901",
      majorName: "计算机科学与技术",
      phone: null,
      email: "student@demo.saiwu.local",
      emailVerified: true,
      school: { id: expect.any(Number), name: "浙江工业大学", province: "浙江省" },
    });
    expect((await (await login(t, "teacher")).get(P)).body.data).toMatchObject({ name: "王老师", roleName: "教师" });
    expect((await (await login(t, "school_admin")).get(P)).status).toBe(403);
    expect((await new Client(t).get(P)).status).toBe(401);
  });

  it("saves name, number, major and phone, logs the change and renames the user in works lists", async () => {
    const r = await student.req("PATCH", P, {
      name: "冯晓同",
      memberNo: "202305019999",
      majorCode: "080910T",
      phone: "13912345678",
    });
    expect(r.body).toMatchObject({
      error: 0,
      info: "个人信息已保存",
      data: {
        name: "冯晓同",
        memberNo: "202305019999",
        majorCode: "080910T",
        majorName: "数据科学与大数据技术",
        phone: "13912345678",
      },
    });
    const log = await t.db
      .selectFrom("audit_log")
      .select("changes")
      .where("entity", "=", "user")
      .where("entity_id", "=", String(await idOf(t, "student")))
      .execute();
    expect(JSON.parse(log[0].changes)).toEqual({
      name: ["冯同学", "冯晓同"],
      member_no: ["202305010101", "202305019999"],
      major_code: ["080901", "080910T"],
      phone: [null, "13912345678"],
    });
    const mine = await student.get("/Backend/Work/work/mine");
    expect(mine.body.data.list.every((w: { authorNames: string }) => w.authorNames.startsWith("冯晓同"))).toBe(true);
  });

  it("refuses the school, the email, an unknown major and a bad phone, changing nothing", async () => {
    const before = await student.get(P);
    expect((await student.req("PATCH", P, { email: "new@example.com" })).body).toEqual({
      error: 400,
      info: "邮箱请在「账号安全」中修改，修改后需重新验证",
    });
    expect((await student.req("PATCH", P, { schoolId: 1, name: "改学校" })).body).toEqual({
      error: 400,
      info: "所属学校不能自行修改，请联系学校管理员",
    });
    expect((await student.req("PATCH", P, { majorCode: "999999" })).body).toMatchObject({
      error: 422,
      info: "专业代码 999999 不存在",
      data: { field: "majorCode" },
    });
    expect((await student.req("PATCH", P, { phone: "12345" })).body).toMatchObject({ error: 422, data: { field: "phone" } });
    expect((await student.get(P)).body).toEqual(before.body);
  });
});
