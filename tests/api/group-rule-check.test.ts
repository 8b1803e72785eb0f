/**
 * Issue 29, the 专业组 rule before submit: GET /Backend/Work/work/:id/group-check applies the
 * rule submit applies (src/shared/work/group-rule.ts) to the work's team for the 大类 and
 * group the form holds, names the author whose major triggers it and lists the majors that
 * count; the demo seed and the bulk generator choose the group by the same rule, so no seeded
 * draft is refused at submit for it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { account, catId, contestId, makeWork, W } from "./works-fixtures";
import { EDITABLE_STATES } from "../../src/shared/work/states";
import { groupProblem } from "../../src/shared/work/group-rule";
import { generateWorks } from "../../src/server/seed/works";

describe.each(DIALECTS)("the 专业组 check on %s", (dialect) => {
  let t: TestApp;
  let zjut: number, media: number, soft: number;
  beforeAll(async () => {
    t = await makeApp(dialect);
    zjut = await contestId(t, "2026-ZJ-10337");
    media = await catId(t, "(AI+)数媒静态设计");
    soft = await catId(t, "软件应用与开发");
  });
  afterAll(async () => t?.close());

  it("names the author whose major makes the work 专业组, lists the majors, and says what submit would say", async () => {
    const a = await account(t, "gc_a", "王设计", { major: "130508" });
    const b = await account(t, "gc_b", "李计算", { major: "080901" });
    const id = await makeWork(t, a, { contest: zjut, category: media, name: "专业组检查作品", coAuthors: [b] });
    const check = await a.get(`${W}/${id}/group-check?categoryId=${media}&group=normal`);
    expect(check.status).toBe(200);
    const d = check.body.data;
    expect(d.problem).toMatch(/^作者「王设计（.+）」的专业属于本大类的专业组专业，应报专业组$/);
    expect(d.required).toBe("professional");
    expect(d.hasProfessionalGroup).toBe(true);
    expect(d.majors.map((m: { code: string }) => m.code)).toEqual(["080906", "130310", "130502", "130503", "130508"]);
    expect(d.majors.find((m: { code: string }) => m.code === "130508").name).not.toBe("130508");
    expect(d.authors).toEqual([
      { name: "王设计", majorName: expect.any(String), professional: true },
      { name: "李计算", majorName: expect.any(String), professional: false },
    ]);
    // 专业组: fine. Another 大类 (no 专业组): fine, and no majors listed.
    expect((await a.get(`${W}/${id}/group-check?categoryId=${media}&group=professional`)).body.data.problem).toBeNull();
    const other = (await a.get(`${W}/${id}/group-check?categoryId=${soft}`)).body.data;
    expect(other).toMatchObject({ hasProfessionalGroup: false, problem: null, majors: [], required: "normal" });
    // Submit refuses with the same sentence.
    const version = (await a.get(`${W}/${id}`)).body.data.version;
    const submit = await a.post(`${W}/${id}/submit`, { version });
    expect(submit.body.info).toBe(d.problem);
    // Somebody else's work: 404.
    const x = await account(t, "gc_x", "外人");
    expect((await x.get(`${W}/${id}/group-check`)).status).toBe(404);
  });

  it("no seeded draft (demo and bulk generator) is refused at submit for the 专业组 rule", async () => {
    const hash = (
      await t.db.selectFrom("app_user").select("password_hash").where("username", "=", "student").executeTakeFirstOrThrow()
    ).password_hash;
    await generateWorks(t.db, { count: 400, seed: 29, year: 2026, passwordHash: hash });
    const works = await t.db
      .selectFrom("work")
      .innerJoin("work_category as c", "c.id", "work.category_id")
      .select(["work.id", "work.group_type", "c.name", "c.has_professional_group", "c.professional_majors"])
      .where("work.status", "in", [...EDITABLE_STATES])
      .where("work.name", "!=", "专业组检查作品")
      .execute();
    const authors = await t.db
      .selectFrom("work_author")
      .innerJoin("app_user", "app_user.id", "work_author.user_id")
      .select(["work_author.work_id", "app_user.name", "app_user.major_code"])
      .execute();
    const professional = works.filter((w) => w.has_professional_group);
    expect(professional.length).toBeGreaterThan(20);
    const refused = works
      .map((w) => ({
        id: w.id,
        problem: groupProblem(
          {
            name: w.name,
            hasProfessionalGroup: !!w.has_professional_group,
            professionalMajors: JSON.parse(w.professional_majors),
          },
          w.group_type,
          authors.filter((a) => Number(a.work_id) === Number(w.id)).map((a) => ({ name: a.name, majorCode: a.major_code })),
        ),
      }))
      .filter((x) => x.problem);
    expect(refused).toEqual([]);
  });
});
