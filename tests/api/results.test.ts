/**
 * Results of a contest on a small, hand-checkable case (the Jiangsu provincial contest, run by
 * its own admin; each work has 2 online reviews):
 *
 * - 软件组 (judge group): judges 甲 and 乙 score like each other, 严 is 10 points harsher.
 *     w1: 甲 80, 严 70    w2: 乙 82, 严 72    w3: 甲 75, 乙 75    w4: 甲 70, 乙 70
 *   The model fits exactly: b甲 = b乙 = 10/3, b严 = −20/3, so μ1 = 76.67, μ2 = 78.67, μ3 = 71.67,
 *   μ4 = 66.67 — w1 and w2 move above w3, whose raw mean (75) ties w1's.
 * - 大数据组 (judge group): w6 (甲2 90, 乙2 70: spread 20 > 15, flagged), w7, and w8 with one
 *   score only (incomplete); 丁2 may take w6, 同2 is of w6's school.
 * - 人工智能应用 (no judge group: ranked per 大类): ten works, both judges on each, means
 *   95 95 90 85 85 80 80 70 65 60 — the allocation (10 % / 20 % / 30 %: 1, 2, 3 awards)
 *   gives the tie at the top two 一等奖, leaves one 二等奖, and gives the tie straddling the
 *   三等奖 boundary 三等奖 (4 in all).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { loadWorkbook } from "../helpers/xlsx";
import { normaliseScores } from "../../src/server/judging/scoring";
import { scoreLogHead } from "../../src/server/judging/service/score-log-store";
import { currentStage, type StageKey } from "../../src/shared/contest/stages";
import { catId, contestId, login } from "./works-fixtures";
import { insertUser, insertWork, joinContest, makeJudge } from "./judging-fixtures";
import { changeScore, defenceScores, makeGroup, setReviewsPerWork, submitScores } from "./results-fixtures";

const A = "/Backend/ContestAdmin/judging";

describe.each(DIALECTS)("results on %s", (dialect) => {
  let t: TestApp;
  let cadmin: Client, root: Client, other: Client;
  let js: number;
  const J: Record<string, number> = {};
  const w: number[] = [];
  const ai: number[] = [];
  let soft: number, data: number, aiCat: number;
  let softGroup: number, dataGroup: number;
  const R = () => `${A}/${js}/results`;
  const award = new Map<string, number>();

  const ranking = async (group: string) =>
    (await cadmin.get(`${R()}/ranking?group=${group}`)).body.data as {
      workId: number;
      rank: number | null;
      rawMean: number;
      normalised: number;
      flagged: boolean;
      incomplete: boolean;
      judgeCount: number;
      spread: number;
      award: { id: number; name: string } | null;
      awardManual: boolean;
      promoted: boolean;
      defenceMean: number | null;
    }[];
  const authorOf = async (workId: number) =>
    (
      await t.db
        .selectFrom("work_author")
        .innerJoin("app_user", "app_user.id", "work_author.user_id")
        .select("app_user.name")
        .where("work_author.work_id", "=", workId)
        .where("work_author.rank", "=", 1)
        .executeTakeFirstOrThrow()
    ).name;
  const lookup = async (workId: number) =>
    (await new Client(t).post("/Backend/Public/query-work", { workId, authorName: await authorOf(workId) })).body;

  beforeAll(async () => {
    t = await makeApp(dialect);
    js = await contestId(t, "2026-JS");
    await joinContest(t, await insertUser(t, { username: "js_admin", name: "苏赛务", role: 1 }), js, "admin");
    [cadmin, root, other] = await Promise.all(["js_admin", "root", "contest_admin"].map((u) => login(t, u)));
    soft = await catId(t, "软件应用与开发");
    data = await catId(t, "大数据应用");
    aiCat = await catId(t, "人工智能应用");
    await setReviewsPerWork(t, js, 2);
    for (const l of await t.db
      .selectFrom("award_level")
      .select(["id", "name"])
      .where("contest_level", "=", "provincial")
      .where("kind", "=", "work")
      .execute())
      award.set(l.name, l.id);

    J.jia = await makeJudge(t, "r_jia", "甲评委", "南京大学", js);
    J.yi = await makeJudge(t, "r_yi", "乙评委", "东南大学", js);
    J.yan = await makeJudge(t, "r_yan", "严评委", "苏州大学", js);
    J.jia2 = await makeJudge(t, "r_jia2", "甲二评委", "南京大学", js);
    J.yi2 = await makeJudge(t, "r_yi2", "乙二评委", "东南大学", js);
    J.ding2 = await makeJudge(t, "r_ding2", "丁二评委", null, js);
    J.tong2 = await makeJudge(t, "r_tong2", "同校评委", "南京理工大学", js);
    J.x = await makeJudge(t, "r_x", "人工智能评委甲", "南京大学", js);
    J.y = await makeJudge(t, "r_y", "人工智能评委乙", "东南大学", js);

    for (const school of ["南京理工大学", "江南大学", "南京师范大学", "扬州大学"])
      w.push(await insertWork(t, { contest: js, school, category: "软件应用与开发", status: "format_passed" }));
    for (const school of ["南京理工大学", "江南大学", "南京邮电大学"])
      w.push(await insertWork(t, { contest: js, school, category: "大数据应用", status: "format_passed" }));
    const aiSchools = [
      "南京理工大学",
      "江南大学",
      "南京师范大学",
      "扬州大学",
      "南京邮电大学",
      "江苏大学",
      "南京航空航天大学",
      "苏州大学",
      "南京理工大学",
      "江南大学",
    ];
    for (const school of aiSchools)
      ai.push(await insertWork(t, { contest: js, school, category: "人工智能应用", status: "format_passed" }));
    // w[0..3]: 软件组 w1..w4; w[4..6]: 大数据组 w6..w8.
    softGroup = await makeGroup(t, js, "软件组", soft, [J.jia, J.yi, J.yan], w.slice(0, 4));
    dataGroup = await makeGroup(t, js, "大数据组", data, [J.jia2, J.yi2, J.ding2, J.tong2], w.slice(4, 7));

    await submitScores(t, js, [
      [w[0], J.jia, 80],
      [w[0], J.yan, 70],
      [w[1], J.yi, 82],
      [w[1], J.yan, 72],
      [w[2], J.jia, 75],
      [w[2], J.yi, 75],
      [w[3], J.jia, 70],
      [w[3], J.yi, 70],
      [w[4], J.jia2, 90],
      [w[4], J.yi2, 70],
      [w[5], J.jia2, 80],
      [w[5], J.yi2, 78],
      [w[6], J.jia2, 77],
    ]);
    const means = [95, 95, 90, 85, 85, 80, 80, 70, 65, 60];
    await submitScores(
      t,
      js,
      ai.flatMap(
        (id, i) =>
          [
            [id, J.x, means[i] + 2],
            [id, J.y, means[i] - 2],
          ] as [number, number, number][],
      ),
    );
  });
  afterAll(async () => t?.close());

  it("refuses other contests' admins and users who are not contest admins", async () => {
    expect((await other.post(`${R()}/compute`, {})).body).toMatchObject({ error: 404, info: "赛事不存在或不在您的管理范围内" });
    expect((await other.get(R())).status).toBe(404);
    expect((await other.get(`${R()}/ranking?group=g${softGroup}`)).status).toBe(404);
    for (const u of ["judge", "school_admin", "reviewer", "student"]) {
      const c = await login(t, u);
      expect((await c.post(`${R()}/compute`, {})).status).toBe(403);
      expect((await c.get(R())).status).toBe(403);
    }
    expect((await new Client(t).get(R())).status).toBe(401);
    // The chooser lists only the admin's own contests.
    expect((await cadmin.get(`${A}/result-contests`)).body.data.map((c: { id: number }) => c.id)).toEqual([js]);
    expect((await other.get(`${A}/result-contests`)).body.data.map((c: { id: number }) => c.id)).not.toContain(js);
  });

  it("normalises per group: the harsh judge is corrected, raw means stay available", async () => {
    expect((await cadmin.post(`${R()}/allocate`, {})).body).toMatchObject({ error: 400, info: "请先计算成绩，再分配奖项" });
    const c = await cadmin.post(`${R()}/compute`, {});
    expect(c.body).toMatchObject({
      error: 0,
      data: { works: 17, ranked: 16, unscored: 0, flagged: 1, incomplete: 1, groups: 3, manualKept: 0 },
    });
    expect(c.body.info).toBe(
      "已计算 17 件作品的成绩，16 件排名，1 件评分未完成（评分完成前不参与排名，单独列出），1 件评委分歧较大",
    );

    const s = await ranking(`g${softGroup}`);
    expect(s.map((r) => [r.workId, r.rank])).toEqual([
      [w[1], 1],
      [w[0], 2],
      [w[2], 3],
      [w[3], 4],
    ]);
    const byId = new Map(s.map((r) => [r.workId, r]));
    expect(byId.get(w[0])!.rawMean).toBe(75);
    expect(byId.get(w[2])!.rawMean).toBe(75);
    expect(byId.get(w[0])!.normalised).toBeCloseTo(80 - 10 / 3, 9);
    expect(byId.get(w[1])!.normalised).toBeCloseTo(82 - 10 / 3, 9);
    expect(byId.get(w[2])!.normalised).toBeCloseTo(75 - 10 / 3, 9);
    expect(byId.get(w[3])!.normalised).toBeCloseTo(70 - 10 / 3, 9);
    expect(s.every((r) => r.judgeCount === 2 && !r.flagged && !r.incomplete)).toBe(true);

    const fit = (await cadmin.get(`${R()}/fit`)).body.data;
    const g = fit.groups.find((x: { key: string }) => x.key === `g${softGroup}`);
    expect(g.name).toBe("软件组");
    expect(g.fit.rmse).toBeCloseTo(0, 9);
    const eff = Object.fromEntries(g.judges.map((j: { name: string; effect: number }) => [j.name, j.effect]));
    expect(eff["严评委"]).toBeCloseTo(-20 / 3, 9);
    expect(eff["甲评委"]).toBeCloseTo(10 / 3, 9);
    expect(g.judges[0].name).toBe("严评委");

    const o = (await cadmin.get(R())).body.data;
    expect(o.groups.map((x: { key: string; name: string; works: number }) => [x.key, x.name, x.works])).toEqual([
      [`g${softGroup}`, "软件组", 4],
      [`g${dataGroup}`, "大数据组", 3],
      [`c${aiCat}`, "人工智能应用（未分组作品）", 10],
    ]);
    expect(o.totals).toMatchObject({ works: 17, ranked: 16, flagged: 1, incomplete: 1, awarded: 0 });
    expect(o.published).toBeNull();
  });

  it("flags disagreement, lists incomplete works and adds a conflict-free extra judge", async () => {
    const d = await ranking(`g${dataGroup}`);
    const w6 = d.find((r) => r.workId === w[4])!;
    expect(w6).toMatchObject({ flagged: true, spread: 20, rawMean: 80 });
    // w8 has 1 of 2 scores: not ranked, listed after the ranked works.
    expect(d.find((r) => r.workId === w[6])).toMatchObject({ incomplete: true, judgeCount: 1, flagged: false, rank: null });
    expect(d.at(-1)!.workId).toBe(w[6]);
    expect(
      d
        .filter((r) => r.rank !== null)
        .map((r) => r.workId)
        .sort(),
    ).toEqual([w[4], w[5]].sort());

    const p = (await cadmin.get(`${R()}/extra-judges`)).body.data;
    expect(p).toEqual([
      {
        workId: w[4],
        workName: expect.any(String),
        groupKey: `g${dataGroup}`,
        spread: 20,
        existingJudges: expect.arrayContaining([
          { id: J.jia2, name: "甲二评委" },
          { id: J.yi2, name: "乙二评委" },
        ]),
        needed: 3,
        proposed: { id: J.ding2, name: "丁二评委" },
        problem: null,
      },
    ]);
    // Only flagged works; the judge of the work's school is refused by the assignment check.
    expect((await cadmin.post(`${R()}/extra-judge`, { workId: w[5] })).body).toMatchObject({
      error: 400,
      info: `作品 ${w[5]} 的评委评分没有明显分歧（分差未超过阈值），无需增加评委`,
    });
    const bad = await cadmin.post(`${R()}/extra-judge`, { workId: w[4], judgeId: J.tong2 });
    expect(bad.body.error).toBe(400);
    expect(bad.body.info).toContain("存在回避关系");
    const add = await cadmin.post(`${R()}/extra-judge`, { workId: w[4] });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({
      info: `已为作品 ${w[4]} 增加评委「丁二评委」，评分提交后请重新计算成绩`,
      data: { workId: w[4], judge: { id: J.ding2 }, judges: 3 },
    });
    const rows = await t.db
      .selectFrom("judge_assignment")
      .select("judge_id")
      .where("contest_id", "=", js)
      .where("work_id", "=", w[4])
      .execute();
    expect(rows.map((r) => r.judge_id).sort()).toEqual([J.jia2, J.yi2, J.ding2].sort());
    // Until the new judge has scored: no second extra judge, and the work counts as incomplete.
    expect((await cadmin.post(`${R()}/extra-judge`, { workId: w[4] })).body.info).toBe(
      `作品 ${w[4]} 已增加评委，尚有 1 位评委未提交评分，请等待评分后重新计算成绩`,
    );
    expect((await ranking(`g${dataGroup}`)).find((r) => r.workId === w[4])).toMatchObject({ incomplete: true, judgeCount: 2 });
    await submitScores(t, js, [[w[4], J.ding2, 72]]);
    const again = await cadmin.post(`${R()}/compute`, {});
    expect(again.body.data).toMatchObject({ flagged: 1, incomplete: 1 });
    expect((await ranking(`g${dataGroup}`)).find((r) => r.workId === w[4])).toMatchObject({
      judgeCount: 3,
      incomplete: false,
      flagged: true,
    });
  });

  it("allocates awards by ratio per group, ties at a boundary sharing the better award", async () => {
    const res = await cadmin.post(`${R()}/allocate`, {});
    expect(res.body.error).toBe(0);
    const aiGroup = res.body.data.groups.find((g: { key: string }) => g.key === `c${aiCat}`);
    expect(aiGroup).toEqual({
      key: `c${aiCat}`,
      name: "人工智能应用（未分组作品）",
      works: 10,
      left: 0,
      awards: [
        { awardLevelId: award.get("一等奖"), name: "一等奖", count: 2 },
        { awardLevelId: award.get("二等奖"), name: "二等奖", count: 1 },
        { awardLevelId: award.get("三等奖"), name: "三等奖", count: 4 },
      ],
    });
    expect(res.body.data.manualOnly).toEqual(["优秀奖"]);
    const r = await ranking(`c${aiCat}`);
    expect(r.map((x) => [x.rank, x.award?.name ?? null])).toEqual([
      [1, "一等奖"],
      [1, "一等奖"],
      [3, "二等奖"],
      [4, "三等奖"],
      [4, "三等奖"],
      [6, "三等奖"],
      [6, "三等奖"],
      [8, null],
      [9, null],
      [10, null],
    ]);
    // 4 works: 0 first (⌊0.4⌋), 0 second (⌊0.8⌋), 1 third (⌊1.2⌋).
    expect((await ranking(`g${softGroup}`)).map((x) => x.award?.name ?? null)).toEqual(["三等奖", null, null, null]);
  });

  it("keeps a manual award through later allocations, and can clear it", async () => {
    const last = ai[9];
    const set = await cadmin.req("PATCH", `${R()}/work/${last}`, { awardLevelId: award.get("优秀奖") });
    expect(set.body).toMatchObject({ error: 0, data: { workId: last, award: { name: "优秀奖" }, awardManual: true } });
    const top = (await ranking(`c${aiCat}`))[0].workId;
    await cadmin.req("PATCH", `${R()}/work/${top}`, { awardLevelId: award.get("二等奖") });
    const again = await cadmin.post(`${R()}/allocate`, { groups: [`c${aiCat}`] });
    expect(again.body.data.manualKept).toBe(2);
    const r = await ranking(`c${aiCat}`);
    expect(r.find((x) => x.workId === last)).toMatchObject({ award: { name: "优秀奖" }, awardManual: true });
    expect(r.find((x) => x.workId === top)).toMatchObject({ award: { name: "二等奖" }, awardManual: true });
    // The other first-placed work keeps its 一等奖 (the manual one still takes its place).
    expect(r.filter((x) => x.award?.name === "一等奖")).toHaveLength(1);
    // Recomputing keeps manual awards.
    expect((await cadmin.post(`${R()}/compute`, {})).body.data.manualKept).toBe(2);
    expect((await ranking(`c${aiCat}`)).find((x) => x.workId === last)).toMatchObject({
      award: { name: "优秀奖" },
      awardManual: true,
    });
    // Back to the allocation.
    const clear = await cadmin.req("PATCH", `${R()}/work/${top}`, { manual: false });
    expect(clear.body.data).toMatchObject({ award: null, awardManual: false });
    await cadmin.post(`${R()}/allocate`, {});
    expect((await ranking(`c${aiCat}`)).find((x) => x.workId === top)).toMatchObject({
      award: { name: "一等奖" },
      awardManual: false,
    });
    // An award of another contest level is refused.
    const national = await t.db
      .selectFrom("award_level")
      .select("id")
      .where("contest_level", "=", "national")
      .where("name", "=", "一等奖")
      .executeTakeFirstOrThrow();
    expect((await cadmin.req("PATCH", `${R()}/work/${top}`, { awardLevelId: national.id })).body).toMatchObject({
      error: 400,
      info: `奖项 ${national.id} 不是省赛的作品奖项`,
    });
  });

  it("ranks a group by its defence scores when the admin chooses it", async () => {
    expect((await cadmin.post(`${R()}/compute`, { basis: { [`g${dataGroup}`]: "defence" } })).body).toMatchObject({
      error: 400,
      info: "「大数据组」还没有答辩成绩，不能按答辩成绩排名",
    });
    await defenceScores(t, js, softGroup, [
      [w[3], J.jia, 90, "strong"],
      [w[3], J.yi, 88, "strong"],
      [w[1], J.jia, 70, "not"],
      [w[1], J.yi, 74, "recommend"],
    ]);
    const c = await cadmin.post(`${R()}/compute`, { basis: { [`g${softGroup}`]: "defence" } });
    expect(c.body.error).toBe(0);
    const s = (await cadmin.get(`${R()}/ranking?group=g${softGroup}`)).body.data;
    expect(s.map((r: { workId: number; rank: number | null }) => [r.workId, r.rank])).toEqual([
      [w[3], 1],
      [w[1], 2],
      [w[0], null],
      [w[2], null],
    ]);
    expect(s[0]).toMatchObject({ defenceMean: 89, defenceCount: 2, recommendations: { strong: 2, recommend: 0, not: 0 } });
    expect((await cadmin.get(R())).body.data.groups.find((g: { key: string }) => g.key === `g${softGroup}`)).toMatchObject({
      basis: "defence",
      withDefence: 2,
    });
    await cadmin.post(`${R()}/allocate`, {});
    // Back to the online score; the ranking changed, so automatic awards were cleared.
    const back = await cadmin.post(`${R()}/compute`, { basis: { [`g${softGroup}`]: "online" } });
    expect(back.body.data.awardsCleared).toBe(true);
    expect((await ranking(`g${softGroup}`)).map((r) => r.workId)).toEqual([w[1], w[0], w[2], w[3]]);
    await cadmin.post(`${R()}/allocate`, {});
  });

  it("promotes the best awarded works within the contest's quota to the national contest", async () => {
    await t.db
      .updateTable("contest")
      .set({ recommend_quota: 3, category_quotas: JSON.stringify({ [String(aiCat)]: 2 }) })
      .where("id", "=", js)
      .execute();
    const p = await cadmin.post(`${R()}/promote`, {});
    expect(p.body).toMatchObject({ error: 0, data: { total: 3, promoted: 3 } });
    expect(p.body.data.parentName).toContain("中国大学生计算机设计大赛");
    const aiRows = await ranking(`c${aiCat}`);
    // Both 一等奖 of 人工智能应用 fill its 大类 quota of 2; the third place goes to the best other award.
    expect(aiRows.filter((r) => r.promoted).map((r) => r.award?.name)).toEqual(["一等奖", "一等奖"]);
    const otherPromoted = [...(await ranking(`g${softGroup}`)), ...(await ranking(`g${dataGroup}`))].filter((r) => r.promoted);
    expect(otherPromoted).toHaveLength(1);
    expect(p.body.data.categories.find((c: { categoryId: number }) => c.categoryId === aiCat)).toMatchObject({
      quota: 2,
      promoted: 2,
    });
    expect(p.body.data.notFitting).toBe(p.body.data.candidates - 3);
    // By hand beyond the quota: refused.
    const notYet = aiRows.find((r) => !r.promoted && r.rank !== null)!;
    expect((await cadmin.req("PATCH", `${R()}/work/${notYet.workId}`, { promoted: true })).body).toMatchObject({
      error: 400,
      info: "晋级名额已用完（共 3 个，已晋级 3 件）",
    });
    const o = (await cadmin.get(R())).body.data;
    expect(o.quota).toMatchObject({ total: 3, promoted: 3 });
  });

  it("publishes only an up-to-date, complete result; stores reproducible parameters and the log head", async () => {
    // A score changed after the computation.
    await changeScore(t, js, w[3], J.jia, 71);
    const stale = await cadmin.post(`${R()}/publish`, {});
    expect(stale.body.error).toBe(409);
    expect(stale.body.info).toContain("计算成绩之后评分有变化");
    expect(stale.body.info).toContain(String(w[3]));
    await cadmin.post(`${R()}/compute`, {});
    await cadmin.post(`${R()}/allocate`, {});
    await cadmin.post(`${R()}/promote`, {});
    const incomplete = await cadmin.post(`${R()}/publish`, {});
    expect(incomplete.body).toMatchObject({
      error: 400,
      info: `有 1 件作品的网评评分未完成（如作品 ${w[6]}）；确认仍要发布请勾选“评分未完成时仍发布”`,
    });
    const winner = (await ranking(`c${aiCat}`))[0].workId;
    expect((await lookup(winner)).data.award).toBeNull();

    const pub = await cadmin.post(`${R()}/publish`, { confirmIncomplete: true, note: "省赛结果公示" });
    expect(pub.body).toMatchObject({
      error: 0,
      info: "结果已发布，公示期开始",
      data: { model: "additive-judge-effect", modelVersion: 1, note: "省赛结果公示", withdrawnAt: null },
    });
    const head = await scoreLogHead(t.db, js);
    expect(pub.body.data).toMatchObject({ logHead: head.hash, logSeq: head.seq });
    expect(head.seq).toBe(35);

    // Recomputing from the stored parameters and scores gives the published scores.
    const row = await t.db
      .selectFrom("result_publication")
      .select("params")
      .where("id", "=", pub.body.data.id)
      .executeTakeFirstOrThrow();
    const params = JSON.parse(row.params);
    const stored = new Map(
      (
        await t.db
          .selectFrom("contest_result")
          .select(["work_id", "normalised", "raw_mean"])
          .where("contest_id", "=", js)
          .execute()
      ).map((r) => [Number(r.work_id), r]),
    );
    expect(params.groups).toHaveLength(3);
    let checked = 0;
    for (const g of params.groups) {
      const again = normaliseScores(
        g.scores.map(([workId, judgeId, score]: number[]) => ({ workId, judgeId, score })),
        params.options,
      );
      expect(again.fit.scoresDigest).toBe(g.fit.scoresDigest);
      for (const j of again.judges)
        expect(j.effect).toBe(g.judges.find((x: { judgeId: number }) => x.judgeId === j.judgeId).effect);
      for (const x of again.works) {
        expect(Number(stored.get(x.workId)!.normalised)).toBe(x.normalised);
        expect(Number(stored.get(x.workId)!.raw_mean)).toBe(x.rawMean);
        checked++;
      }
    }
    expect(checked).toBe(17);
    expect(
      params.groups
        .find((g: { key: string }) => g.key === `g${softGroup}`)
        .judges.find((j: { judgeId: number }) => j.judgeId === J.yan).effect,
    ).toBeLessThan(-6);

    // The contest is in its publicity period.
    const stages = await t.db
      .selectFrom("contest_stage")
      .select(["stage", "starts_at", "ends_at"])
      .where("contest_id", "=", js)
      .execute();
    expect(currentStage(stages.map((s) => ({ stage: s.stage as StageKey, startsAt: s.starts_at, endsAt: s.ends_at })))).toBe(
      "publicity",
    );

    // The public lookup shows the award now.
    expect((await lookup(winner)).data).toMatchObject({ id: winner, award: "省赛一等奖，推荐晋级国赛" });
    const loser = (await ranking(`c${aiCat}`)).at(-1)!;
    expect((await lookup(loser.workId)).data.award).toBe(loser.award ? `省赛${loser.award.name}` : null);

    // Nothing changes while published.
    for (const [path, body] of [
      ["compute", {}],
      ["allocate", {}],
      ["promote", {}],
      ["publish", {}],
    ] as const) {
      expect((await cadmin.post(`${R()}/${path}`, body)).body).toMatchObject({
        error: 409,
        info: "本赛事的结果已发布，不能再修改；如需更正，请先撤回发布（须填写原因）",
      });
    }
    expect((await cadmin.req("PATCH", `${R()}/work/${winner}`, { awardLevelId: null })).status).toBe(409);
    expect((await cadmin.get(`${A}/result-contests`)).body.data[0].publishedAt).toBe(pub.body.data.publishedAt);
  });

  it("withdraws a publication with a reason; the lookup hides the award and the results can change again", async () => {
    expect((await cadmin.post(`${R()}/unpublish`, { reason: "" })).status).toBe(422);
    expect((await cadmin.post(`${R()}/unpublish`, { reason: "    " })).body).toMatchObject({
      error: 400,
      info: "请填写撤回发布的原因",
    });
    const un = await cadmin.post(`${R()}/unpublish`, { reason: "发现一件作品评分录入错误" });
    expect(un.body).toMatchObject({ error: 0, data: { withdrawReason: "发现一件作品评分录入错误", withdrawnBy: "苏赛务" } });
    const winner = (await ranking(`c${aiCat}`))[0].workId;
    expect((await lookup(winner)).data.award).toBeNull();
    const stages = await t.db
      .selectFrom("contest_stage")
      .select(["stage", "starts_at", "ends_at"])
      .where("contest_id", "=", js)
      .execute();
    expect(currentStage(stages.map((s) => ({ stage: s.stage as StageKey, startsAt: s.starts_at, endsAt: s.ends_at })))).not.toBe(
      "publicity",
    );
    expect((await cadmin.post(`${R()}/unpublish`, { reason: "再次撤回" })).body).toMatchObject({
      error: 400,
      info: "本赛事的结果尚未发布，无需撤回",
    });
    expect((await cadmin.post(`${R()}/compute`, {})).body.error).toBe(0);
    const o = (await cadmin.get(R())).body.data;
    expect(o.published).toBeNull();
    expect(o.history).toHaveLength(1);
    // Root may publish any contest.
    expect((await root.post(`${R()}/publish`, { confirmIncomplete: true })).body.error).toBe(0);
    expect((await cadmin.get(R())).body.data.history.map((p: { withdrawnAt: string | null }) => !!p.withdrawnAt)).toEqual([
      false,
      true,
    ]);
  });

  it("exports the ranking as .xlsx", async () => {
    const res = await cadmin.req("GET", `${R()}/export`);
    expect(res.status).toBe(200);
    expect(res.res.headers["content-type"]).toContain("spreadsheetml");
    expect(decodeURIComponent(String(res.res.headers["content-disposition"]))).toContain("成绩排名.xlsx");
    const wb = await loadWorkbook(res.res.rawPayload);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).getCell(1).value).toBe("结果分组");
    expect(ws.rowCount).toBe(18);
    expect(ws.getRow(2).values).toEqual(expect.arrayContaining(["软件组", 1, w[1]]));
  });

  it("lists a work with missing scores apart and leaves it out of the allocation unless the admin includes it (issue 15)", async () => {
    expect((await cadmin.post(`${R()}/unpublish`, { reason: "补充一件作品的评分" })).body.error).toBe(0);
    // A late AI work with one lenient score of 2 needed: it used to rank first.
    const late = await insertWork(t, { contest: js, school: "南京邮电大学", category: "人工智能应用", status: "format_passed" });
    await submitScores(t, js, [[late, J.x, 99]]);
    const c = await cadmin.post(`${R()}/compute`, {});
    expect(c.body.data).toMatchObject({ works: 18, incomplete: 2 });
    const r = await ranking(`c${aiCat}`);
    expect(r).toHaveLength(11);
    expect(r[0].workId).not.toBe(late);
    expect(r.at(-1)).toMatchObject({ workId: late, rank: null, incomplete: true, judgeCount: 1 });
    expect(r.slice(0, 10).every((x) => x.rank !== null && !x.incomplete)).toBe(true);

    // By default only the 10 complete works count: the late work gets no award.
    const def = await cadmin.post(`${R()}/allocate`, { groups: [`c${aiCat}`] });
    expect(def.body.data.groups[0]).toMatchObject({ works: 10, left: 1 });
    expect(def.body.info).toContain("1 件评分未完成的作品未参与分配");
    expect((await ranking(`c${aiCat}`)).find((x) => x.workId === late)!.award).toBeNull();
    expect((await cadmin.get(R())).body.data.groups.find((g: { key: string }) => g.key === `c${aiCat}`)).toMatchObject({
      includeIncomplete: false,
      incomplete: 1,
    });

    // Explicitly included: 11 works count and the late work's provisional score (the best) takes a 一等奖.
    const inc = await cadmin.post(`${R()}/allocate`, { groups: [`c${aiCat}`], includeIncomplete: true });
    expect(inc.body.data.groups[0]).toMatchObject({ works: 11, left: 0 });
    expect(inc.body.info).toContain("评分未完成的作品按当前成绩一并参与了分配");
    expect((await ranking(`c${aiCat}`)).find((x) => x.workId === late)).toMatchObject({ rank: null, award: { name: "一等奖" } });
    expect((await cadmin.get(R())).body.data.groups.find((g: { key: string }) => g.key === `c${aiCat}`)).toMatchObject({
      includeIncomplete: true,
    });
    expect((await cadmin.post(`${R()}/allocate`, { includeIncomplete: "yes" })).status).toBe(422);

    // The choice and the incomplete works are recorded in the publication's params.
    const pub = await cadmin.post(`${R()}/publish`, { confirmIncomplete: true });
    expect(pub.body.error).toBe(0);
    const params = JSON.parse(
      (await t.db.selectFrom("result_publication").select("params").where("id", "=", pub.body.data.id).executeTakeFirstOrThrow())
        .params,
    );
    expect(params.reviewsPerWork).toBe(2);
    expect(params.groups.find((g: { key: string }) => g.key === `c${aiCat}`)).toMatchObject({
      includeIncomplete: true,
      incomplete: [late],
    });
    expect(params.groups.find((g: { key: string }) => g.key === `g${dataGroup}`)).toMatchObject({
      includeIncomplete: false,
      incomplete: [w[6]],
    });
  });
});
