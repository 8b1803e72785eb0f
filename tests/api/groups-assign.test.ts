/**
 * Judge groups and conflict-free assignment on a realistic small provincial contest (the
 * Jiangsu one, run by its own contest admin; the Zhejiang demo contest has judging demo
 * data of its own): 28 works of 10 schools in two categories, 9 judges of several schools
 * and from industry, an advisor and declared conflicts. Groups are built
 * through the API; the automatic assignment refuses an infeasible setting with its exact
 * reasons and writes nothing, then gives every work exactly N conflict-free judges with
 * balanced loads; manual assignment of a conflicted judge is refused with the reason; the
 * check report lists loads, conflicts and shortfalls, and its findings can be fixed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { catId, contestId, idOf, login } from "./works-fixtures";
import { countAssignments, insertUser, insertWork, joinContest, makeJudge } from "./judging-fixtures";

const A = "/Backend/ContestAdmin/judging";

describe.each(DIALECTS)("judge groups and assignment on %s", (dialect) => {
  let t: TestApp;
  let cadmin: Client, root: Client;
  /** zj: the contest under test (Jiangsu); other: the Zhejiang demo contest */
  let zj: number, other: number, soft: number, data: number;
  let softGroup: number, dataGroup: number;
  const J: Record<string, number> = {};
  const softWorks: number[] = [];
  const dataWorks: number[] = [];
  let advisedWork: number, declaredWork: number, zjuDataWorks: number[];

  /** Every assignment of the contest, checked independently of the server against the rules. */
  async function verify() {
    const rows = await t.db
      .selectFrom("judge_assignment as a")
      .innerJoin("work", "work.id", "a.work_id")
      .innerJoin("app_user as j", "j.id", "a.judge_id")
      .select(["a.id", "a.work_id", "a.judge_id", "a.group_id", "work.school_id as work_school", "j.school_id as judge_school"])
      .where("a.contest_id", "=", zj)
      .execute();
    const advisors = await t.db.selectFrom("work_teacher").select(["work_id", "user_id"]).execute();
    const declared = await t.db.selectFrom("declared_conflict").select(["judge_id", "work_id", "school_id"]).execute();
    const members = await t.db.selectFrom("judge_group_member").select(["group_id", "user_id"]).execute();
    const bad = rows.filter(
      (r) =>
        r.work_school === r.judge_school ||
        advisors.some((a) => Number(a.work_id) === Number(r.work_id) && a.user_id === r.judge_id) ||
        declared.some(
          (d) => d.judge_id === r.judge_id && (Number(d.work_id) === Number(r.work_id) || d.school_id === r.work_school),
        ) ||
        !members.some((m) => m.group_id === r.group_id && m.user_id === r.judge_id),
    );
    const perWork = new Map<number, Set<number>>();
    for (const r of rows) perWork.set(Number(r.work_id), (perWork.get(Number(r.work_id)) ?? new Set()).add(r.judge_id));
    const load = new Map<number, number>();
    for (const r of rows) load.set(r.judge_id, (load.get(r.judge_id) ?? 0) + 1);
    return { rows, bad, perWork, load };
  }

  beforeAll(async () => {
    t = await makeApp(dialect);
    zj = await contestId(t, "2026-JS");
    other = await contestId(t, "2026-ZJ");
    await joinContest(t, await insertUser(t, { username: "js_admin", name: "苏赛务", role: 1 }), zj, "admin");
    [cadmin, root] = await Promise.all(["js_admin", "root"].map((u) => login(t, u)));
    soft = await catId(t, "软件应用与开发");
    data = await catId(t, "大数据应用");

    // Judges of the Jiangsu contest, of several schools and from industry.
    J.zju = await makeJudge(t, "g_nju", "南评委", "南京大学", zj);
    J.hdu = await makeJudge(t, "g_seu", "东评委", "东南大学", zj);
    J.nbu = await makeJudge(t, "g_nuaa", "航评委", "南京航空航天大学", zj);
    J.zjut = await makeJudge(t, "g_njust", "理评委", "南京理工大学", zj);
    J.ind = await makeJudge(t, "g_ind", "企业评委", null, zj);
    J.zju2 = await makeJudge(t, "g_nju2", "南大评委", "南京大学", zj);
    J.hdu2 = await makeJudge(t, "g_seu2", "东大评委", "东南大学", zj);
    J.zjsu = await makeJudge(t, "g_suda", "苏大评委", "苏州大学", zj);
    J.ind2 = await makeJudge(t, "g_ind2", "行业评委", null, zj);
    // A judge of another province's contest.
    J.js = await makeJudge(t, "g_zj", "浙评委", "浙江大学", other);

    const spread: [string, number][] = [
      ["南京大学", 4],
      ["南京理工大学", 3],
      ["东南大学", 3],
      ["南京航空航天大学", 2],
      ["江南大学", 1],
      ["南京师范大学", 1],
      ["扬州大学", 1],
    ];
    for (const [school, n] of spread) {
      for (let i = 0; i < n; i++)
        softWorks.push(await insertWork(t, { contest: zj, school, category: "软件应用与开发", status: "format_passed" }));
    }
    // A 江南大学 work co-advised by the industry judge.
    advisedWork = await insertWork(t, {
      contest: zj,
      school: "江南大学",
      category: "软件应用与开发",
      status: "format_passed",
      teachers: [J.ind],
    });
    softWorks.push(advisedWork);
    for (const [school, n] of [
      ["南京大学", 3],
      ["东南大学", 2],
      ["南京理工大学", 2],
      ["苏州大学", 2],
      ["南京邮电大学", 2],
      ["江苏大学", 1],
    ] as [string, number][]) {
      for (let i = 0; i < n; i++)
        dataWorks.push(await insertWork(t, { contest: zj, school, category: "大数据应用", status: "format_passed" }));
    }
    zjuDataWorks = dataWorks.slice(0, 3);
    declaredWork = dataWorks[11];
    // Works not yet judged: still in format review, and another province's.
    await insertWork(t, { contest: zj, school: "南京大学", category: "软件应用与开发", status: "accepted" });
    await insertWork(t, { contest: other, school: "浙江大学", category: "软件应用与开发", status: "format_passed" });
  });
  afterAll(async () => t?.close());

  it("builds groups per category with the contest's judges, refusing what does not fit", async () => {
    const s = await cadmin.post(`${A}/${zj}/groups`, { name: "软件应用与开发组", categoryId: soft });
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({
      info: "评审组「软件应用与开发组」已创建",
      data: { name: "软件应用与开发组", category: { id: soft }, scope: "软件应用与开发", judges: [], workCount: 0 },
    });
    softGroup = s.body.data.id;
    dataGroup = (await cadmin.post(`${A}/${zj}/groups`, { name: "大数据应用组", categoryId: data, note: "线上评审" })).body.data
      .id;
    expect((await cadmin.post(`${A}/${zj}/groups`, { name: "软件应用与开发组", categoryId: soft })).body).toMatchObject({
      error: 409,
      info: "评审组「软件应用与开发组」已存在",
    });
    const sub = (await t.db.selectFrom("work_category").select("id").where("parent_id", "=", soft).executeTakeFirstOrThrow()).id;
    expect((await cadmin.post(`${A}/${zj}/groups`, { name: "小类组", categoryId: sub })).body).toMatchObject({
      error: 422,
      info: "请选择作品大类",
      data: { field: "categoryId" },
    });
    expect(
      (await cadmin.post(`${A}/${zj}/groups`, { name: "专业组", categoryId: soft, groupType: "professional" })).body,
    ).toMatchObject({ error: 422, info: "「软件应用与开发」不分普通组和专业组" });

    const add = await cadmin.post(`${A}/group/${softGroup}/judges`, { userIds: [J.zju, J.hdu, J.nbu, J.zjut, J.ind] });
    expect(add.body.data.judges.map((j: { id: number }) => j.id).sort()).toEqual([J.zju, J.hdu, J.nbu, J.zjut, J.ind].sort());
    expect((await cadmin.post(`${A}/group/${dataGroup}/judges`, { userIds: [J.zju2, J.hdu2, J.zjsu, J.ind2] })).status).toBe(200);
    // Only judges of this contest.
    expect((await cadmin.post(`${A}/group/${dataGroup}/judges`, { userIds: [J.js] })).body).toMatchObject({
      error: 422,
      info: `用户 ${J.js} 不是本赛事的评委，请先在用户管理中把他们加入赛事`,
    });
    expect((await cadmin.req("PATCH", `${A}/group/${dataGroup}`, { leaderId: J.hdu2 })).body.data.leader).toEqual({
      id: J.hdu2,
      name: "东大评委",
    });

    // Works into groups by category: every judged work, none still under format review.
    const auto = await cadmin.post(`${A}/${zj}/group-works/auto`, {});
    expect(auto.body).toMatchObject({ error: 0, info: "已分组 28 件作品", data: { grouped: 28, unmatched: [] } });
    const groups = (await cadmin.get(`${A}/${zj}/groups`)).body.data;
    expect(groups.map((g: { name: string; workCount: number }) => [g.name, g.workCount])).toEqual([
      ["软件应用与开发组", 16],
      ["大数据应用组", 12],
    ]);
    const pool = await cadmin.get(`${A}/${zj}/works?pageSize=100`);
    expect(pool.body.data.total).toBe(28);
    expect(pool.body.data.list.every((w: { judgeGroup: unknown; judges: unknown[] }) => w.judgeGroup && !w.judges.length)).toBe(
      true,
    );
    // Another contest's admin scope: nothing of Zhejiang exists for a Jiangsu-only view.
    expect((await cadmin.get(`${A}/${other}/groups`)).body).toMatchObject({ error: 404, info: "赛事不存在或不在您的管理范围内" });
    expect((await cadmin.req("PATCH", `${A}/group/${softGroup}`, { categoryId: data })).body).toMatchObject({
      error: 400,
      info: "评审组「软件应用与开发组」已有 16 件作品，不能修改类别；请先移出作品",
    });
  });

  it("takes declared conflicts from judges for themselves and from the contest admin", async () => {
    const nbu = await login(t, "g_nuaa");
    const wzu = (await t.db.selectFrom("school").select("id").where("name", "=", "江南大学").executeTakeFirstOrThrow()).id;
    const own = await nbu.post("/Backend/Judging/conflicts", { schoolId: wzu, note: "曾在江南大学任教" });
    expect(own.body).toMatchObject({
      error: 0,
      info: "已申报回避：学校「江南大学」",
      data: { judge: { id: J.nbu }, school: { id: wzu, name: "江南大学" }, note: "曾在江南大学任教" },
    });
    expect((await nbu.post("/Backend/Judging/conflicts", { schoolId: wzu })).body).toMatchObject({
      error: 409,
      info: "评委「航评委」已申报过该学校的回避关系",
    });
    expect((await nbu.post("/Backend/Judging/conflicts", { judgeId: J.hdu, schoolId: wzu })).body).toMatchObject({
      error: 403,
      info: "评委只能申报本人的回避关系",
    });
    const byAdmin = await cadmin.post("/Backend/Judging/conflicts", {
      judgeId: J.ind2,
      workId: declaredWork,
      note: "作者是其亲属",
    });
    expect(byAdmin.body.data).toMatchObject({ judge: { id: J.ind2 }, work: { id: declaredWork } });
    // A judge of another contest is outside the admin's scope.
    expect((await cadmin.post("/Backend/Judging/conflicts", { judgeId: J.js, schoolId: wzu })).status).toBe(404);
    expect((await nbu.get("/Backend/Judging/conflicts")).body.data.map((c: { id: number }) => c.id)).toEqual([own.body.data.id]);
    expect((await cadmin.get(`/Backend/Judging/conflicts?contestId=${zj}`)).body.data).toHaveLength(2);
  });

  it("refuses an infeasible setting with the assigner's exact reasons and writes nothing", async () => {
    const tight = await cadmin.post(`${A}/${zj}/assign`, { reviewsPerWork: 3, judgeCapacity: 8 });
    expect(tight.status).toBe(400);
    expect(tight.body.info).toMatch(/^无法为全部作品分配足够的评委，未写入任何分配：/);
    expect(tight.body.data).toMatchObject({ applied: false, complete: false, added: 0, works: 28, judges: 9 });
    const messages = tight.body.data.issues.map((i: { message: string }) => i.message);
    expect(messages).toContain("评委剩余容量合计 72 次，少于作品还需的 84 次评审（缺 12 次）");
    expect(messages).toContain("评审组“软件应用与开发组”的评委剩余容量合计 40 次，少于该组作品还需的 48 次评审（缺 8 次）");
    expect(messages).toContain("评审组“大数据应用组”的评委剩余容量合计 32 次，少于该组作品还需的 36 次评审（缺 4 次）");
    const tooMany = await cadmin.post(`${A}/${zj}/assign`, { reviewsPerWork: 5 });
    expect(tooMany.body.data.issues[0].message).toBe(
      `评审组“大数据应用组”只有 4 位评委，每件作品需要 5 位（涉及作品 ${dataWorks.slice(0, 5).join("、")} 等 12 件作品）`,
    );
    expect(await countAssignments(t, zj)).toBe(0);
    expect(await t.db.selectFrom("judging_setting").selectAll().where("contest_id", "=", zj).execute()).toEqual([]);
  });

  it("gives every work exactly N conflict-free judges of its group with balanced loads", async () => {
    const r = await cadmin.post(`${A}/${zj}/assign`, { reviewsPerWork: 3 });
    expect(r.body).toMatchObject({
      error: 0,
      data: { applied: true, complete: true, added: 84, proposed: 84, issues: [], shortfalls: [] },
    });
    expect(r.body.data.loadSpread).toBeLessThanOrEqual(1);
    expect(r.body.info).toBe(`已分配 84 条，每件作品均有足够评委，工作量最多与最少相差 ${r.body.data.loadSpread}`);
    const { bad, perWork, load } = await verify();
    expect(bad).toEqual([]);
    expect(perWork.size).toBe(28);
    for (const judges of perWork.values()) expect(judges.size).toBe(3);
    const softLoads = [J.zju, J.hdu, J.nbu, J.zjut, J.ind].map((j) => load.get(j) ?? 0);
    const dataLoads = [J.zju2, J.hdu2, J.zjsu, J.ind2].map((j) => load.get(j) ?? 0);
    expect(softLoads.reduce((a, b) => a + b)).toBe(48);
    expect(Math.max(...softLoads) - Math.min(...softLoads)).toBeLessThanOrEqual(1);
    expect(dataLoads).toEqual([9, 9, 9, 9]);
    // The settings of the run are kept for the check report and the next run.
    expect((await cadmin.get(`${A}/${zj}/settings`)).body.data).toEqual({
      reviewsPerWork: 3,
      judgeCapacity: null,
      avoidProvince: false,
    });
    // Running again adds nothing: existing assignments are kept.
    expect((await cadmin.post(`${A}/${zj}/assign`, {})).body.data).toMatchObject({ applied: true, complete: true, added: 0 });
    expect(await countAssignments(t, zj)).toBe(84);
  });

  it("reports loads per judge and group with no conflicts and no shortfalls", async () => {
    const rep = await cadmin.get(`${A}/${zj}/check`);
    expect(rep.body.info).toBe("检查通过：没有回避冲突，每件作品均有足够评委");
    const d = rep.body.data;
    expect(d.summary).toEqual({
      works: 28,
      assignments: 84,
      judges: 9,
      groups: 2,
      conflicts: 0,
      misplaced: 0,
      shortWorks: 0,
      judgesWithoutGroup: 0,
      worksWithoutGroup: 0,
    });
    expect(d.groupLoads.find((g: { name: string }) => g.name === "大数据应用组")).toMatchObject({
      judges: 4,
      works: 12,
      assignments: 36,
      min: 9,
      max: 9,
      spread: 0,
    });
    expect(d.groupLoads.find((g: { name: string }) => g.name === "软件应用与开发组")).toMatchObject({
      judges: 5,
      works: 16,
      assignments: 48,
    });
    expect(d.judgeLoads.find((l: { judgeId: number }) => l.judgeId === J.zju2)).toMatchObject({
      name: "南大评委",
      schoolName: "南京大学",
      groups: ["大数据应用组"],
      load: 9,
      capacity: null,
    });
    expect(d.overall.spread).toBeLessThanOrEqual(1);
    // The contest's judges with their groups, loads and declared conflicts.
    const judges = (await cadmin.get(`${A}/${zj}/judges`)).body.data;
    expect(judges.find((j: { id: number }) => j.id === J.nbu)).toMatchObject({
      school: { name: "南京航空航天大学" },
      province: "江苏省",
      groups: [{ id: softGroup, name: "软件应用与开发组" }],
      declared: 1,
    });
  });

  it("refuses a manual assignment of a conflicted judge with the reason, and changes nothing", async () => {
    const zjuWork = softWorks[0];
    const one = (await cadmin.get(`${A}/${zj}/assignments?workId=${zjuWork}`)).body.data[0];
    // Free a place so only the conflict stands in the way.
    expect((await cadmin.del(`${A}/assignment/${one.id}`)).body).toMatchObject({
      error: 0,
      info: "分配已移除",
      data: { workId: zjuWork },
    });
    const same = await cadmin.post(`${A}/${zj}/assignments`, { workId: zjuWork, judgeId: J.zju });
    expect(same.status).toBe(400);
    expect(same.body.info).toMatch(
      new RegExp(`^不能分配：评委「南评委」与作品 ${zjuWork}「[^」]+」存在回避关系（同校），请改选其他评委；本次未做任何更改$`),
    );
    expect(same.body.data.problems).toEqual([expect.objectContaining({ kind: "conflict", workId: zjuWork, judgeId: J.zju })]);
    const advised = await cadmin.post(`${A}/${zj}/assignments`, { workId: advisedWork, judgeId: J.ind });
    expect(advised.body.info).toContain("存在回避关系（指导或参与的作品）");
    const wrongGroup = await cadmin.post(`${A}/${zj}/assignments`, { workId: zjuWork, judgeId: J.zjsu });
    expect(wrongGroup.body.data.problems.map((p: { kind: string }) => p.kind)).toEqual(["not_in_group"]);
    const other = await cadmin.post(`${A}/${zj}/assignments`, { workId: zjuWork, judgeId: J.js });
    expect(other.body.info).toBe("不能分配：所选用户不是本赛事的评委，请先在「评委与审核员」中把其加入本赛事；本次未做任何更改");
    expect(await countAssignments(t, zj)).toBe(83);

    // The check report shows the gap; a replacement by a conflicted judge keeps the original.
    const rep = (await cadmin.get(`${A}/${zj}/check`)).body;
    expect(rep.info).toBe("发现 0 条回避冲突、0 条不符合分组的分配、1 件评委不足的作品、0 件未分组的作品");
    expect(rep.data.shortWorks).toEqual([
      { workId: zjuWork, name: expect.any(String), groupName: "软件应用与开发组", have: 2, needed: 3 },
    ]);
    const keep = (await cadmin.get(`${A}/${zj}/assignments?workId=${zjuWork}`)).body.data[0];
    expect((await cadmin.post(`${A}/assignment/${keep.id}/replace`, { judgeId: J.zju })).body.data.problems[0].kind).toBe(
      "conflict",
    );
    expect((await cadmin.get(`${A}/${zj}/assignments?workId=${zjuWork}`)).body.data.map((a: { id: number }) => a.id)).toContain(
      keep.id,
    );
    // Fixed from the report: re-run the automatic assignment for the short work.
    const fill = await cadmin.post(`${A}/${zj}/assign`, { workIds: [zjuWork] });
    expect(fill.body.data).toMatchObject({ applied: true, complete: true, added: 1 });
    expect((await verify()).bad).toEqual([]);
    expect((await cadmin.get(`${A}/${zj}/check`)).body.data.summary.shortWorks).toBe(0);
  });

  it("finds a conflict declared after assignment and lets the admin replace the judge", async () => {
    // An assignment of 苏大评委 whose work's fourth data judge could take it instead.
    const dataJudges = [J.zju2, J.hdu2, J.zjsu, J.ind2];
    const schools = new Map(
      (await t.db.selectFrom("app_user").select(["id", "school_id"]).where("id", "in", dataJudges).execute()).map((u) => [
        u.id,
        u.school_id,
      ]),
    );
    let victim: { id: number; workId: number; workName: string } | undefined;
    let candidate = 0;
    for (const a of (await cadmin.get(`${A}/${zj}/assignments?judgeId=${J.zjsu}`)).body.data) {
      const on = (await cadmin.get(`${A}/${zj}/assignments?workId=${a.workId}`)).body.data.map(
        (x: { judgeId: number }) => x.judgeId,
      );
      const free = dataJudges.find((j) => !on.includes(j))!;
      const work = await t.db.selectFrom("work").select("school_id").where("id", "=", a.workId).executeTakeFirstOrThrow();
      if (schools.get(free) !== work.school_id && !(free === J.ind2 && a.workId === declaredWork)) {
        victim = a;
        candidate = free;
        break;
      }
    }
    expect(victim).toBeDefined();
    const zjsu = await login(t, "g_suda");
    expect((await zjsu.post("/Backend/Judging/conflicts", { workId: victim!.workId, note: "与作者是同事" })).status).toBe(201);
    const rep = (await cadmin.get(`${A}/${zj}/check`)).body;
    expect(rep.info).toBe("发现 1 条回避冲突、0 条不符合分组的分配、0 件评委不足的作品、0 件未分组的作品");
    expect(rep.data.conflicts).toEqual([
      {
        assignmentId: victim!.id,
        workId: victim!.workId,
        workName: victim!.workName,
        judgeId: J.zjsu,
        judgeName: "苏大评委",
        reasons: ["declared"],
        reasonText: "申报回避",
      },
    ]);
    const fixed = await cadmin.post(`${A}/assignment/${victim!.id}/replace`, { judgeId: candidate });
    expect(fixed.body).toMatchObject({ error: 0, data: { workId: victim!.workId, judgeId: candidate } });
    expect((await cadmin.get(`${A}/${zj}/check`)).body.data.summary).toMatchObject({ conflicts: 0, shortWorks: 0 });
    expect((await verify()).bad).toEqual([]);
  });

  it("confirms a partial assignment only when asked, and reports works still short and what has no group", async () => {
    const four = await cadmin.post(`${A}/${zj}/assign`, { reviewsPerWork: 4 });
    expect(four.status).toBe(400);
    const messages: string[] = four.body.data.issues.map((i: { message: string }) => i.message);
    for (const w of zjuDataWorks) expect(messages).toContain(`作品 ${w} 只有 0 位无回避关系的评委可选，需要 1 位`);
    const before = await countAssignments(t, zj);
    expect((await cadmin.get(`${A}/${zj}/settings`)).body.data.reviewsPerWork).toBe(3);

    const partial = await cadmin.post(`${A}/${zj}/assign`, { reviewsPerWork: 4, confirmPartial: true });
    expect(partial.body.data).toMatchObject({ applied: true, complete: false });
    expect(partial.body.info).toBe(
      `已按确认写入部分分配 ${partial.body.data.added} 条，仍有 ${partial.body.data.shortfalls.length} 件作品评委不足`,
    );
    expect(await countAssignments(t, zj)).toBe(before + partial.body.data.added);
    expect((await verify()).bad).toEqual([]);
    const rep = (await cadmin.get(`${A}/${zj}/check`)).body.data;
    expect(rep.settings.reviewsPerWork).toBe(4);
    for (const w of zjuDataWorks)
      expect(rep.shortWorks).toContainEqual(
        expect.objectContaining({ workId: w, have: 3, needed: 4, groupName: "大数据应用组" }),
      );

    // A new judge and a newly passed work of a category without a group show up in the report.
    await makeJudge(t, "g_new", "新评委", "扬州大学", zj);
    const ai = await insertWork(t, {
      contest: zj,
      school: "扬州大学",
      category: "人工智能应用",
      status: "format_passed",
      name: "方言识别助手",
    });
    const now = (await cadmin.get(`${A}/${zj}/check`)).body.data;
    expect(now.judgesWithoutGroup).toEqual([{ id: await idOf(t, "g_new"), name: "新评委" }]);
    expect(now.worksWithoutGroup).toEqual([{ id: ai, name: "方言识别助手", categoryName: "人工智能应用" }]);
    expect((await cadmin.post(`${A}/${zj}/group-works/auto`, {})).body.data.unmatched).toEqual([
      { id: ai, name: "方言识别助手", categoryName: "人工智能应用" },
    ]);
  });

  it("keeps groups with assignments: no deleting the group or removing its judges until they are fixed", async () => {
    expect((await cadmin.del(`${A}/group/${dataGroup}`)).body.info).toMatch(
      /^评审组「大数据应用组」已有 \d+ 条评委分配，不能删除；请先在分配检查中移除这些分配$/,
    );
    expect((await cadmin.del(`${A}/group/${dataGroup}/judges/${J.ind2}`)).body.info).toMatch(
      /^评委「行业评委」在评审组「大数据应用组」已分配 \d+ 件作品，请先移除或替换这些分配$/,
    );
    expect((await cadmin.del(`${A}/group/${dataGroup}/works/${dataWorks[0]}`)).body.info).toMatch(
      /^作品 \d+ 已分配 \d 位评委，请先移除这些分配再移出评审组$/,
    );
    // Root manages any contest: the Zhejiang demo contest has a group and nothing assigned yet.
    expect((await root.get(`${A}/${other}/check`)).body.data.summary).toMatchObject({
      works: 1,
      assignments: 0,
      judges: 6,
      groups: 1,
      shortWorks: 1,
      worksWithoutGroup: 1,
    });
    // Other roles are refused by the policy.
    expect((await (await login(t, "judge")).get(`${A}/${zj}/check`)).status).toBe(403);
    expect((await (await login(t, "reviewer")).post(`${A}/${zj}/assign`, {})).status).toBe(403);
  });
});
