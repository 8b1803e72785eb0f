/**
 * Teacher and school honours (优秀指导教师, 优秀组织奖) through the API, on the Jiangsu result of
 * the complaints fixture (w[0] 一等奖 南京理工大学, w[1] 二等奖 江南大学, w[2], w[3] without an
 * award; one teacher each, and w[1]'s teacher also advises w[0]): the rule and the cap of a
 * proposal, rows set by hand kept, refused additions changing nothing, scope; after
 * publication every change is a result version and issues, reissues or revokes the teacher
 * and school certificates (checked through the public verification), a teacher's or school's
 * rename reissues, a withdrawn result revokes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { insertUser } from "./judging-fixtures";
import { login } from "./works-fixtures";
import { A, publishedContest, type Fixture } from "./complaints-fixtures";

const V = "/Backend/Certificate/verify";

describe.each(DIALECTS)("honours on %s", (dialect) => {
  let t: TestApp;
  let f: Fixture;
  let H: string;
  let teacherLevel: number;
  let schoolLevel: number;
  /** the first teacher of each work */
  const T: { id: number; name: string }[] = [];
  const titles: string[] = [];

  const verify = (number: string, name: string) => new Client(t).get(`${V}?${new URLSearchParams({ number, name })}`);
  const setLevel = (id: number, ratio: number | null, max: number | null) =>
    t.db.updateTable("award_level").set({ ratio, max_count: max }).where("id", "=", id).execute();
  const view = async () => {
    const r = await f.cadmin.get(H);
    expect(r.body.error, r.body.info).toBe(0);
    return r.body.data as {
      levels: { id: number; cap: number | null; rule: string }[];
      rows: {
        id: number;
        awardLevelId: number;
        holderName: string;
        teacherUserId: number | null;
        schoolId: number;
        workId: number | null;
        manual: boolean;
      }[];
      published: boolean;
      teachers: { userId: number }[];
      schools: { schoolId: number }[];
    };
  };
  const rowsOf = async (level: number) => (await view()).rows.filter((r) => r.awardLevelId === level);
  const honourCount = async () => (await t.db.selectFrom("contest_honour").select("id").execute()).length;
  const certsOf = (kind: "teacher" | "school", holder: number) =>
    t.db
      .selectFrom("certificate")
      .selectAll()
      .where("contest_id", "=", f.js)
      .where("holder_kind", "=", kind)
      .where(kind === "teacher" ? "holder_user_id" : "holder_school_id", "=", holder)
      .orderBy("version")
      .execute();
  const schoolIdOf = async (name: string) =>
    (await t.db.selectFrom("school").select("id").where("name", "=", name).executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    t = await makeApp(dialect);
    f = await publishedContest(t);
    H = `${A}/${f.js}/honours`;
    for (const w of f.w) {
      const r = await t.db
        .selectFrom("work_teacher")
        .innerJoin("app_user", "app_user.id", "work_teacher.user_id")
        .innerJoin("work", "work.id", "work_teacher.work_id")
        .select(["app_user.id", "app_user.name", "work.name as title"])
        .where("work_teacher.work_id", "=", w)
        .where("work_teacher.rank", "=", 1)
        .executeTakeFirstOrThrow();
      T.push({ id: r.id, name: r.name });
      titles.push(r.title);
    }
    await t.db
      .insertInto("work_teacher")
      .values({ work_id: f.w[0], user_id: T[1].id, rank: 2, created_at: new Date().toISOString() })
      .execute();
    const levels = await t.db
      .selectFrom("award_level")
      .select(["id", "kind"])
      .where("contest_level", "=", "provincial")
      .where("kind", "in", ["teacher", "organisation"])
      .execute();
    teacherLevel = levels.find((l) => l.kind === "teacher")!.id;
    schoolLevel = levels.find((l) => l.kind === "organisation")!.id;
    // Start unpublished: changes then make no result versions.
    const r = await f.cadmin.post(`${A}/${f.js}/results/unpublish`, { reason: "先确定优秀指导教师和优秀组织奖" });
    expect(r.body.error, r.body.info).toBe(0);
  });
  afterAll(async () => t?.close());

  it("the view lists both levels with their rule, no rows, and the pickers", async () => {
    const v = await view();
    expect(v.published).toBe(false);
    expect(v.levels.map((l) => l.id).sort()).toEqual([teacherLevel, schoolLevel].sort());
    expect(v.levels.every((l) => l.cap === null && /不限/.test(l.rule))).toBe(true);
    expect(v.rows).toEqual([]);
    expect(v.teachers.map((x) => x.userId)).toEqual(expect.arrayContaining(T.map((x) => x.id)));
    expect(v.schools).toHaveLength(4);
  });

  it("propose respects the cap (max count, ratio × awarded works) and the rule: best award first, one row per teacher", async () => {
    await setLevel(teacherLevel, null, 1);
    let r = await f.cadmin.post(`${H}/propose`, { awardLevelId: teacherLevel });
    expect(r.body.error, r.body.info).toBe(0);
    expect(r.body.info).toContain("新增 1 项");
    expect((await rowsOf(teacherLevel)).map((x) => [x.teacherUserId, x.workId, x.manual])).toEqual([[T[0].id, f.w[0], false]]);
    expect(r.body.data.levels.find((l: { id: number }) => l.id === teacherLevel)).toMatchObject({
      cap: 1,
      rule: expect.stringContaining("名额 1 人"),
    });
    // ratio 100% of 2 awarded works: 2; w[1]'s teacher is counted with w[0] (the better work), once.
    await setLevel(teacherLevel, 1, null);
    r = await f.cadmin.post(`${H}/propose`, { awardLevelId: teacherLevel });
    expect(r.body.error, r.body.info).toBe(0);
    expect((await rowsOf(teacherLevel)).map((x) => [x.teacherUserId, x.workId])).toEqual([
      [T[0].id, f.w[0]],
      [T[1].id, f.w[0]],
    ]);
    expect(r.body.data.levels.find((l: { id: number }) => l.id === teacherLevel)).toMatchObject({
      cap: 2,
      rule: expect.stringContaining("获奖作品 2 件 × 100%"),
    });
    // Schools by points: 南京理工大学 (一等奖) before 江南大学 (二等奖); schools without awards never.
    await setLevel(schoolLevel, null, 1);
    r = await f.cadmin.post(`${H}/propose`, { awardLevelId: schoolLevel });
    expect(r.body.error, r.body.info).toBe(0);
    expect((await rowsOf(schoolLevel)).map((x) => x.holderName)).toEqual(["南京理工大学"]);
    await setLevel(schoolLevel, null, null);
    r = await f.cadmin.post(`${H}/propose`, { awardLevelId: schoolLevel });
    expect((await rowsOf(schoolLevel)).map((x) => x.holderName)).toEqual(["南京理工大学", "江南大学"]);
    expect(r.body.data.levels.find((l: { id: number }) => l.id === schoolLevel).rule).toContain("一等奖 4 分");
    // Unpublished: no result versions.
    expect(await t.db.selectFrom("result_version").select("id").where("contest_id", "=", f.js).execute()).toHaveLength(0);
  });

  it("rows set by hand are kept by the rule and count towards the cap; additions beyond the cap are refused", async () => {
    const full = await f.cadmin.post(H, { awardLevelId: teacherLevel, teacherUserId: T[3].id });
    expect(full.body).toMatchObject({ error: 400, info: "「优秀指导教师」已达名额 2，请先移除一项再添加" });
    await setLevel(teacherLevel, null, 3);
    const added = await f.cadmin.post(H, { awardLevelId: teacherLevel, teacherUserId: T[3].id });
    expect(added.body.error, added.body.info).toBe(0);
    expect((await rowsOf(teacherLevel)).find((x) => x.teacherUserId === T[3].id)).toMatchObject({ manual: true, workId: f.w[3] });
    await setLevel(teacherLevel, null, 2);
    const again = await f.cadmin.post(`${H}/propose`, { awardLevelId: teacherLevel });
    expect(again.body.error, again.body.info).toBe(0);
    expect(again.body.info).toContain("保留手动添加的 1 项");
    expect((await rowsOf(teacherLevel)).map((x) => [x.teacherUserId, x.manual])).toEqual([
      [T[0].id, false],
      [T[3].id, true],
    ]);
  });

  it("add refuses a teacher who advises no work of the contest, a school without works, and duplicates — nothing changed", async () => {
    await setLevel(teacherLevel, null, 5);
    const outsider = await insertUser(t, { username: "hn_outsider", name: "局外教师", role: 99, school: "南京大学" });
    const before = await honourCount();
    const r = await f.cadmin.post(H, { awardLevelId: teacherLevel, teacherUserId: outsider });
    expect(r.body).toMatchObject({ error: 400, info: "「局外教师」没有指导本赛事的作品，不能获得「优秀指导教师」" });
    const s = await f.cadmin.post(H, { awardLevelId: schoolLevel, schoolId: await schoolIdOf("苏州大学") });
    expect(s.body).toMatchObject({ error: 400, info: "「苏州大学」在本赛事没有参评作品，不能获得「优秀组织奖」" });
    const dup = await f.cadmin.post(H, { awardLevelId: teacherLevel, teacherUserId: T[0].id });
    expect(dup.body).toMatchObject({ error: 400, info: `「${T[0].name}」已获得本赛事的「优秀指导教师」` });
    const wrongWork = await f.cadmin.post(H, { awardLevelId: teacherLevel, teacherUserId: T[2].id, workId: f.w[0] });
    expect(wrongWork.body.error).toBe(400);
    const workLevel = f.award.get("一等奖")!;
    expect((await f.cadmin.post(`${H}/propose`, { awardLevelId: workLevel })).body).toMatchObject({
      error: 400,
      info: expect.stringContaining("不是省赛的优秀指导教师或优秀组织奖类奖项"),
    });
    expect(await honourCount()).toBe(before);
  });

  it("scope: another contest's admin gets 404 for every route, a teacher 403", async () => {
    const other = await login(t, "contest_admin");
    const id = (await rowsOf(teacherLevel))[0].id;
    const before = await honourCount();
    for (const r of [
      await other.get(H),
      await other.post(`${H}/propose`, { awardLevelId: teacherLevel }),
      await other.post(H, { awardLevelId: teacherLevel, teacherUserId: T[2].id }),
      await other.del(`${H}/${id}`),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.info).toBe("赛事不存在或不在您的管理范围内");
    }
    expect((await (await login(t, "teacher")).get(H)).status).toBe(403);
    expect((await f.cadmin.del(`${A}/${f.js}/honours/999999`)).status).toBe(404);
    expect(await honourCount()).toBe(before);
  });

  let teacherCert: { number: string; name: string };

  it("publication issues teacher and school certificates (level sort as the rank digit), verifiable by number and name", async () => {
    expect((await f.cadmin.post(`${A}/${f.js}/results/compute`, {})).body.error).toBe(0);
    const p = await f.cadmin.post(`${A}/${f.js}/results/publish`, { confirmIncomplete: true });
    expect(p.body.error, p.body.info).toBe(0);
    const [c0] = await certsOf("teacher", T[0].id);
    expect(c0).toMatchObject({
      number: expect.stringMatching(/^2026-JS-5-\d{6}$/),
      version: 1,
      status: "valid",
      award_name: "优秀指导教师",
      holder_name: T[0].name,
      work_title: titles[0],
    });
    teacherCert = { number: c0.number, name: T[0].name };
    const v = await verify(c0.number, T[0].name);
    expect(v.body.data).toMatchObject({
      status: "valid",
      certificate: { awardName: "优秀指导教师", workId: f.w[0], workTitle: titles[0] },
    });
    const njust = await schoolIdOf("南京理工大学");
    const [s0] = await certsOf("school", njust);
    expect(s0).toMatchObject({
      number: expect.stringMatching(/^2026-JS-6-\d{6}$/),
      holder_name: "南京理工大学",
      school_name: "南京理工大学",
      work_id: null,
      work_title: null,
      award_name: "优秀组织奖",
      status: "valid",
    });
    expect((await verify(s0.number, "南京理工大学")).body.data).toMatchObject({
      status: "valid",
      certificate: { holderName: "南京理工大学", workId: null },
    });
    expect(await certsOf("teacher", T[3].id)).toHaveLength(1);
    expect(await certsOf("teacher", T[1].id)).toHaveLength(0);
  });

  it("after publication a removal is a result version and revokes the certificate; adding back reissues under the same number", async () => {
    const row = (await rowsOf(teacherLevel)).find((x) => x.teacherUserId === T[3].id)!;
    const [cert] = await certsOf("teacher", T[3].id);
    const r = await f.cadmin.del(`${H}/${row.id}?reason=${encodeURIComponent("指导作品未获奖")}`);
    expect(r.body.error, r.body.info).toBe(0);
    expect(r.body.info).toContain("已生成「优秀指导教师」结果第 2 版");
    const versions = await f.cadmin.get(`${A}/${f.js}/results/versions?group=h${teacherLevel}`);
    expect(versions.body.data.map((v: { version: number; reason: string }) => [v.version, v.reason])).toEqual([
      [2, expect.stringContaining("移除「")],
      [1, "发布的结果"],
    ]);
    expect(versions.body.data[0].reason).toContain("指导作品未获奖");
    const detail = await f.cadmin.get(`${A}/${f.js}/results/versions/${versions.body.data[1].id}`);
    expect(detail.body.error, detail.body.info).toBe(0);
    expect(detail.body.data.rows.map((x: { holderName: string }) => x.holderName)).toContain(T[3].name);
    expect((await verify(cert.number, T[3].name)).body.data).toMatchObject({
      status: "revoked",
      reason: "award_withdrawn",
      reasonText: "奖项被撤销",
    });

    const back = await f.cadmin.post(H, { awardLevelId: teacherLevel, teacherUserId: T[3].id, reason: "复核后恢复" });
    expect(back.body.error, back.body.info).toBe(0);
    expect(back.body.info).toContain("第 3 版");
    expect((await certsOf("teacher", T[3].id)).map((c) => [c.number, c.version, c.status])).toEqual([
      [cert.number, 1, "revoked"],
      [cert.number, 2, "valid"],
    ]);

    // The rule after publication: a version too, and a certificate for the newly proposed teacher.
    const p = await f.cadmin.post(`${H}/propose`, { awardLevelId: teacherLevel });
    expect(p.body.error, p.body.info).toBe(0);
    expect(p.body.info).toContain("第 4 版");
    expect((await certsOf("teacher", T[1].id)).map((c) => c.status)).toEqual(["valid"]);
  });

  it("a teacher's rename reissues their certificate (version 2; the old one verifies as replaced)", async () => {
    const fixed = await f.root.req("PATCH", `/Backend/Admin/user/${T[0].id}`, { name: "更名教师" });
    expect(fixed.body.error, fixed.body.info).toBe(0);
    expect((await certsOf("teacher", T[0].id)).map((c) => [c.number, c.version, c.status, c.holder_name])).toEqual([
      [teacherCert.number, 1, "replaced", T[0].name],
      [teacherCert.number, 2, "valid", "更名教师"],
    ]);
    expect((await verify(teacherCert.number, T[0].name)).body.data).toMatchObject({ status: "replaced", latestVersion: 2 });
    expect((await verify(teacherCert.number, "更名教师")).body.data).toMatchObject({
      status: "valid",
      certificate: { version: 2 },
    });
  });

  it("a school's rename reissues the school's certificate with the new name", async () => {
    const id = await schoolIdOf("江南大学");
    const [before] = await certsOf("school", id);
    const r = await f.root.req("PATCH", `/Backend/Admin/school/${id}`, { name: "江南大学（新校名）" });
    expect(r.body.error, r.body.info).toBe(0);
    expect((await certsOf("school", id)).map((c) => [c.number, c.version, c.status, c.holder_name])).toEqual([
      [before.number, 1, "replaced", "江南大学"],
      [before.number, 2, "valid", "江南大学（新校名）"],
    ]);
    expect((await verify(before.number, "江南大学（新校名）")).body.data.status).toBe("valid");
  });

  it("withdrawing the result revokes every teacher and school certificate (result_withdrawn)", async () => {
    const r = await f.cadmin.post(`${A}/${f.js}/results/unpublish`, { reason: "发布有误，撤回" });
    expect(r.body.error, r.body.info).toBe(0);
    const rows = await t.db
      .selectFrom("certificate")
      .select(["status", "status_reason", "holder_kind"])
      .where("contest_id", "=", f.js)
      .where("holder_kind", "in", ["teacher", "school"])
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((x) => x.status === "valid")).toHaveLength(0);
    expect((await verify(teacherCert.number, "更名教师")).body.data).toMatchObject({
      status: "revoked",
      reason: "result_withdrawn",
    });
    // Unpublished again: changes make no versions.
    const n = (await t.db.selectFrom("result_version").select("id").where("contest_id", "=", f.js).execute()).length;
    const row = (await rowsOf(teacherLevel)).find((x) => x.teacherUserId === T[1].id)!;
    expect((await f.cadmin.del(`${H}/${row.id}`)).body.error).toBe(0);
    expect((await t.db.selectFrom("result_version").select("id").where("contest_id", "=", f.js).execute()).length).toBe(n);
  });
});
