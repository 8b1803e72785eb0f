/**
 * Online scoring: a judge scores only an assigned work, per rubric item within its maximum
 * (one decimal), with the category's deductions and a comment; drafts may be partial,
 * submission needs every item; a submitted score is locked for the judge and only the
 * contest admin of the contest reopens it; stale versions and closed judging windows are
 * refused with nothing changed; every change lands in the hash-chained score log, whose
 * check (API and `npm run verify-scores`) finds a tampered row; applyAssignments refuses to
 * remove a scored assignment.
 */
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { contestId, idOf, login, setStage } from "./works-fixtures";
import { insertUser, insertWork, joinContest } from "./judging-fixtures";
import { verifyScores } from "../../src/server/judging/verify-scores";

const A = "/Backend/ContestAdmin/judging";
const J = "/Backend/Judge";
const S = "/Backend/Judging/contest";
const NOT_ASSIGNED = { error: 404, info: "作品不存在或未分配给您" };

describe.each(DIALECTS)("online scoring on %s", (dialect) => {
  let t: TestApp;
  let cadmin: Client, root: Client, jsAdmin: Client;
  let zj: number, zjut: number;
  let work: number, zjuWork: number;
  /** the three judges of `work`, and one judge of the contest without it */
  let judges: { username: string; id: number; c: Client }[];
  let outsider: Client;
  let item: Record<string, string>;
  const url = (w: number, c = zj) => `${J}/contest/${c}/work/${w}/score`;
  const put = (c: Client, w: number, body: unknown, cid = zj) => c.req("PUT", url(w, cid), body);
  const submit = (c: Client, w: number, body: unknown, cid = zj) => c.post(`${url(w, cid)}/submit`, body);
  const full = (v: number[], extra: Record<string, unknown> = {}) => ({
    items: { [item.theme]: v[0], [item.plan]: v[1], [item.core]: v[2], [item.tech]: v[3] },
    ...extra,
  });
  const count = async (table: "judge_score" | "score_log") =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const logActions = async () =>
    (await t.db.selectFrom("score_log").select("body").where("contest_id", "=", zj).orderBy("id").execute()).map(
      (r) => JSON.parse(r.body).action as string,
    );

  beforeAll(async () => {
    t = await makeApp(dialect);
    [cadmin, root] = await Promise.all(["contest_admin", "root"].map((u) => login(t, u)));
    zj = await contestId(t, "2026-ZJ");
    zjut = await contestId(t, "2026-ZJ-10337");
    const js = await contestId(t, "2026-JS");
    const jsa = await insertUser(t, { username: "sc_js_admin", name: "苏赛管", role: 1 });
    await joinContest(t, jsa, js, "admin");
    jsAdmin = await login(t, "sc_js_admin");
    await setStage(t, zj, "online_judging", -1, 10);

    zjuWork = await insertWork(t, {
      contest: zj,
      school: "浙江大学",
      category: "软件应用与开发",
      status: "format_passed",
      name: "浙大作品",
    });
    for (const [school, name] of [
      ["温州大学", "温大作品"],
      ["浙江理工大学", "理工作品"],
      ["中国计量大学", "计量作品"],
      ["浙江财经大学", "财大作品"],
    ]) {
      await insertWork(t, { contest: zj, school, category: "软件应用与开发", status: "format_passed", name });
    }
    expect((await cadmin.post(`${A}/${zj}/group-works/auto`, {})).body.data.grouped).toBe(5);
    expect((await cadmin.post(`${A}/${zj}/assign`, {})).body.data).toMatchObject({ applied: true, complete: true, added: 15 });

    // A work of the demo judge 李评审, with its two other judges, and a judge without it.
    const judgeId = await idOf(t, "judge");
    work = Number(
      (
        await t.db
          .selectFrom("judge_assignment")
          .select("work_id")
          .where("judge_id", "=", judgeId)
          .orderBy("work_id")
          .executeTakeFirstOrThrow()
      ).work_id,
    );
    const rows = await t.db
      .selectFrom("judge_assignment")
      .innerJoin("app_user", "app_user.id", "judge_assignment.judge_id")
      .select(["app_user.id", "app_user.username"])
      .where("work_id", "=", work)
      .orderBy("app_user.id")
      .execute();
    expect(rows).toHaveLength(3);
    const ordered = [rows.find((r) => r.username === "judge")!, ...rows.filter((r) => r.username !== "judge")];
    judges = await Promise.all(ordered.map(async (r) => ({ username: r.username, id: r.id, c: await login(t, r.username) })));
    const others = (
      await t.db
        .selectFrom("app_user")
        .select("username")
        .where("username", "in", ["judge2", "judge3", "judge4", "judge5"])
        .execute()
    )
      .map((r) => r.username)
      .filter((u) => !rows.some((r) => r.username === u));
    outsider = await login(t, others[0]);

    const soft = (
      await t.db
        .selectFrom("work_category")
        .select("id")
        .where("name", "=", "软件应用与开发")
        .where("parent_id", "is", null)
        .executeTakeFirstOrThrow()
    ).id;
    const items = await t.db
      .selectFrom("rubric_item")
      .select(["id", "name"])
      .where("category_id", "=", soft)
      .orderBy("sort")
      .execute();
    const byName = (n: string) => String(items.find((i) => i.name === n)!.id);
    item = { theme: byName("主题与内容"), plan: byName("方案概要"), core: byName("核心内容"), tech: byName("技术与创新") };
  });
  afterAll(async () => t?.close());

  it("shows a blank score and the assigned works with their status and progress", async () => {
    const me = judges[0].c;
    const blank = await me.get(url(work));
    expect(blank.status).toBe(200);
    expect(blank.body.data).toMatchObject({
      id: null,
      workId: work,
      status: "none",
      items: {},
      deductions: [],
      comment: "",
      total: null,
      version: 0,
      window: { open: true, message: null },
    });
    const o = (await me.get(`${J}/contest/${zj}/online`)).body.data;
    expect(o.contest).toMatchObject({ id: zj, name: "2026年中国大学生计算机设计大赛浙江省级赛", as: "judge" });
    expect(o.works.map((w: { id: number }) => w.id)).toContain(work);
    expect(o.works.every((w: { scoreStatus: string; total: null }) => w.scoreStatus === "none" && w.total === null)).toBe(true);
    expect(o.progress).toEqual({ assigned: o.works.length, submitted: 0, draft: 0 });
    const p = (await me.get(`${J}/progress`)).body.data;
    expect(p).toEqual([
      {
        contestId: zj,
        window: expect.objectContaining({ open: true }),
        progress: { assigned: o.works.length, submitted: 0, draft: 0 },
      },
    ]);
  });

  it("refuses bad points, unknown items and deductions, and a closed window, saving nothing", async () => {
    const me = judges[0].c;
    const cases: [unknown, number, string][] = [
      [{ items: { [item.theme]: 21 }, version: 0 }, 400, "「主题与内容」的得分须在 0 到 20 分之间"],
      [{ items: { [item.core]: 30.25 }, version: 0 }, 400, "「核心内容」的得分最多保留一位小数"],
      [{ items: { "999999": 5 }, version: 0 }, 400, "评分项（编号 999999）不属于本作品类别的评分标准，请刷新页面后重试"],
      [
        { items: { [item.theme]: 10 }, deductions: ["迟交"], version: 0 },
        400,
        "扣分项「迟交」不属于本作品类别，请刷新页面后重试",
      ],
      [{ items: { [item.theme]: 10 }, deductions: ["非原创", "非原创"], version: 0 }, 400, "扣分项「非原创」重复选择"],
      [
        { items: { [item.theme]: 10 }, version: 3 },
        409,
        "评分已在别处修改（当前版本 0，您提交的是版本 3），请刷新后重试；本次未保存",
      ],
    ];
    for (const [body, status, info] of cases) {
      const r = await put(me, work, body);
      expect([r.status, r.body.info]).toEqual([status, info]);
    }
    expect((await put(me, work, { items: { [item.theme]: -1 }, version: 0 })).status).toBe(422);
    expect((await put(me, work, { items: {} })).status).toBe(422);

    await setStage(t, zj, "online_judging", 5, 10);
    const closed = await put(me, work, { items: { [item.theme]: 10 }, version: 0 });
    expect(closed.status).toBe(400);
    expect(closed.body.info).toMatch(
      /^「2026年中国大学生计算机设计大赛浙江省级赛」的网络评审时间为 \d{4}-\d\d-\d\d \d\d:\d\d 至 .*网络评审尚未开始，现在不能评分$/,
    );
    expect((await me.get(url(work))).body.data.window).toMatchObject({ open: false, message: closed.body.info });
    await setStage(t, zj, "online_judging", -10, -1);
    expect((await submit(me, work, { ...full([10, 10, 10, 10]), version: 0 })).body.info).toContain(
      "网络评审已结束，现在不能评分",
    );
    expect(await count("judge_score")).toBe(0);
    expect(await count("score_log")).toBe(0);
    await setStage(t, zj, "online_judging", -1, 10);
  });

  it("saves a partial draft, refuses a stale version, and names the missing item on submit", async () => {
    const me = judges[0].c;
    const d = await put(me, work, { items: { [item.theme]: 18, [item.plan]: 22.5 }, comment: "  选题贴近实际  ", version: 0 });
    expect(d.status).toBe(200);
    expect(d.body.info).toBe("草稿已保存（当前总分 40.5）");
    expect(d.body.data).toMatchObject({
      status: "draft",
      items: { [item.theme]: 18, [item.plan]: 22.5 },
      comment: "选题贴近实际",
      total: 40.5,
      version: 1,
      submittedAt: null,
    });
    const stale = await put(me, work, { items: { [item.theme]: 19 }, version: 0 });
    expect(stale.status).toBe(409);
    const missing = await submit(me, work, { items: { [item.theme]: 18, [item.plan]: 22.5, [item.core]: 30 }, version: 1 });
    expect([missing.status, missing.body.info]).toEqual([400, "「技术与创新」尚未评分，请为全部评分项打分后再提交"]);
    const now = (await me.get(url(work))).body.data;
    expect(now).toMatchObject({ status: "draft", version: 1, total: 40.5 });
    expect((await me.get(`${J}/contest/${zj}/online`)).body.data.works.find((w: { id: number }) => w.id === work)).toMatchObject({
      scoreStatus: "draft",
      total: 40.5,
    });
  });

  it("submits with deductions (total floored at 0), then locks the score for the judge", async () => {
    const me = judges[0].c;
    const s = await submit(me, work, {
      ...full([18, 22.5, 30, 15]),
      deductions: ["非原创"],
      comment: "完成度高，但核心算法引用未注明",
      version: 1,
    });
    expect(s.status).toBe(200);
    expect(s.body.info).toBe("评分已提交，总分 75.5");
    expect(s.body.data).toMatchObject({ status: "submitted", total: 75.5, deductions: ["非原创"], version: 2 });
    expect(s.body.data.submittedAt).toEqual(expect.any(String));
    for (const r of [
      await put(me, work, { items: { [item.theme]: 20 }, version: 2 }),
      await submit(me, work, { ...full([20, 25, 35, 20]), version: 2 }),
    ]) {
      expect([r.status, r.body.info]).toEqual([400, "该作品的评分已提交，不能再修改；如需修改，请联系赛事管理员退回评分"]);
    }
    expect((await me.get(url(work))).body.data).toMatchObject({ status: "submitted", total: 75.5, version: 2 });
    const o = (await me.get(`${J}/contest/${zj}/online`)).body.data;
    expect(o.progress.submitted).toBe(1);

    // The second judge is harsh: everything 0 and a deduction gives 0, not −10.
    const z = await submit(judges[1].c, work, { ...full([0, 0, 0, 0]), deductions: ["非原创"], version: 0 });
    expect(z.body.data).toMatchObject({ status: "submitted", total: 0 });
    expect(await logActions()).toEqual(["draft", "submit", "submit"]);
  });

  it("answers 404 for a judge without the work, and for a work of the judge's own school even with a row", async () => {
    for (const r of [
      await outsider.get(url(work)),
      await put(outsider, work, { items: { [item.theme]: 1 }, version: 0 }),
      await submit(outsider, work, { ...full([1, 1, 1, 1]), version: 0 }),
    ]) {
      expect(r.body).toEqual(NOT_ASSIGNED);
    }
    // Bad data written around applyAssignments, which refuses it.
    await t.db
      .insertInto("judge_assignment")
      .values({
        contest_id: zj,
        work_id: zjuWork,
        judge_id: judges[0].id,
        group_id: null,
        created_at: new Date().toISOString(),
        created_by: null,
      })
      .execute();
    expect((await judges[0].c.get(url(zjuWork))).body).toEqual(NOT_ASSIGNED);
    expect((await put(judges[0].c, zjuWork, { items: { [item.theme]: 1 }, version: 0 })).body).toEqual(NOT_ASSIGNED);
    await t.db.deleteFrom("judge_assignment").where("work_id", "=", zjuWork).where("judge_id", "=", judges[0].id).execute();
    // A made-up work and a contest the judge does not judge.
    expect((await judges[0].c.get(url(2026999999))).body).toEqual(NOT_ASSIGNED);
    expect((await judges[0].c.get(url(work, zjut))).body).toEqual(NOT_ASSIGNED);
    // Not judges at all.
    for (const u of ["student", "reviewer", "contest_admin"]) expect((await (await login(t, u)).get(url(work))).status).toBe(403);
    expect(await logActions()).toEqual(["draft", "submit", "submit"]);
  });

  it("lets only the contest admin (or root) reopen a submitted score, with a reason; the judge then edits and resubmits", async () => {
    const row = await t.db
      .selectFrom("judge_score")
      .select(["id", "version"])
      .where("judge_id", "=", judges[0].id)
      .where("work_id", "=", work)
      .executeTakeFirstOrThrow();
    const reopen = (c: Client, body: unknown, id = row.id) => c.post(`${S}/${zj}/score/${id}/reopen`, body);
    expect((await reopen(judges[0].c, { reason: "我想改" })).status).toBe(403);
    expect((await reopen(jsAdmin, { reason: "越权" })).body).toEqual({ error: 404, info: "赛事不存在或不在您的管理范围内" });
    expect((await reopen(cadmin, { reason: "" })).status).toBe(422);
    expect((await reopen(cadmin, { reason: "   " })).status).toBe(422);
    expect((await reopen(cadmin, { reason: "x", version: 1 })).status).toBe(409);
    expect((await reopen(cadmin, { reason: "x" }, 999999)).body).toEqual({ error: 404, info: "评分记录不存在" });
    expect((await judges[0].c.get(url(work))).body.data.status).toBe("submitted");

    const ok = await reopen(cadmin, { reason: "扣分项选择有误，请核对后重新提交", version: row.version });
    expect(ok.status).toBe(200);
    expect(ok.body.info).toMatch(/^已退回评委「李评审」对作品 \d{10}「.+」的评分$/);
    const again = await reopen(cadmin, { reason: "再退一次" });
    expect([again.status, again.body.info]).toEqual([400, expect.stringMatching(/尚未提交，无需退回$/)]);

    const mine = (await judges[0].c.get(url(work))).body.data;
    expect(mine).toMatchObject({
      status: "draft",
      total: 75.5,
      deductions: ["非原创"],
      reopenReason: "扣分项选择有误，请核对后重新提交",
      version: row.version + 1,
    });
    const re = await submit(judges[0].c, work, { ...full([18, 22.5, 30, 15]), comment: "完成度高", version: mine.version });
    expect(re.body.data).toMatchObject({ status: "submitted", total: 85.5, deductions: [] });
    // Root may reopen too.
    const z = await t.db.selectFrom("judge_score").select("id").where("judge_id", "=", judges[1].id).executeTakeFirstOrThrow();
    expect((await reopen(root, { reason: "全部 0 分，请复核" }, z.id)).status).toBe(200);
    expect(await logActions()).toEqual(["draft", "submit", "submit", "reopen", "submit", "reopen"]);
    const audit = await t.db.selectFrom("audit_log").select("action").where("entity", "=", "judge_score").execute();
    expect(audit).toHaveLength(2);
  });

  it("shows the admin the progress per judge and per work", async () => {
    const v1 = (await judges[1].c.get(url(work))).body.data.version;
    expect((await submit(judges[1].c, work, { ...full([15, 20, 28, 16]), version: v1 })).status).toBe(200);
    expect((await submit(judges[2].c, work, { ...full([17, 21, 29, 17]), version: 0 })).status).toBe(200);
    const v = (await cadmin.get(`${S}/${zj}/scores`)).body.data;
    expect(v.summary).toEqual({ assignments: 15, submitted: 3, draft: 0, none: 12, works: 5, worksComplete: 1 });
    const w = v.works.find((x: { workId: number }) => x.workId === work);
    expect(w).toMatchObject({ assigned: 3, submitted: 3, mean: Math.round(((85.5 + 79 + 84) / 3) * 100) / 100 });
    expect(w.scores.map((s: { judgeId: number; status: string }) => [s.judgeId, s.status]).sort()).toEqual(
      judges.map((j) => [j.id, "submitted"]).sort(),
    );
    expect(v.judges.find((j: { judgeId: number }) => j.judgeId === judges[0].id)).toMatchObject({
      name: "李评审",
      assigned: 3,
      submitted: 1,
      draft: 0,
    });
    expect((await jsAdmin.get(`${S}/${zj}/scores`)).status).toBe(404);
    expect((await judges[0].c.get(`${S}/${zj}/scores`)).status).toBe(403);
  });

  it("refuses to remove an assignment that has a score, naming the work and the judge", async () => {
    const a = await t.db
      .selectFrom("judge_assignment")
      .select("id")
      .where("work_id", "=", work)
      .where("judge_id", "=", judges[0].id)
      .executeTakeFirstOrThrow();
    const r = await cadmin.del(`${A}/assignment/${a.id}`);
    expect(r.status).toBe(400);
    const name = (await t.db.selectFrom("work").select("name").where("id", "=", work).executeTakeFirstOrThrow()).name;
    expect(r.body.info).toBe(
      `不能移除分配：评委「李评审」已为作品 ${work}「${name}」评分（已提交）。已有评分的分配须保留，如评分有误请由赛事管理员退回后由评委修改；本次未做任何更改`,
    );
    const outsiderId = await idOf(
      t,
      (
        await t.db
          .selectFrom("app_user")
          .select("username")
          .where("username", "in", ["judge2", "judge3", "judge4", "judge5"])
          .execute()
      )
        .map((x) => x.username)
        .find((u) => !judges.some((j) => j.username === u))!,
    );
    const replace = await cadmin.post(`${A}/assignment/${a.id}/replace`, { judgeId: outsiderId });
    expect(replace.status).toBe(400);
    expect(replace.body.info).toContain("评委「李评审」已为作品");
    expect(await t.db.selectFrom("judge_assignment").select("id").where("id", "=", a.id).executeTakeFirst()).toBeTruthy();
    // A draft counts too; an unscored assignment of the same work can still go.
    const other = await t.db
      .selectFrom("judge_assignment")
      .select(["id", "work_id"])
      .where("judge_id", "=", judges[0].id)
      .where("work_id", "!=", work)
      .orderBy("work_id")
      .execute();
    await put(judges[0].c, Number(other[0].work_id), { items: { [item.theme]: 12 }, version: 0 });
    const draft = await cadmin.del(`${A}/assignment/${other[0].id}`);
    expect([draft.status, draft.body.info]).toEqual([400, expect.stringContaining("评分（草稿）")]);
    const free = await cadmin.del(`${A}/assignment/${other[1].id}`);
    expect(free.status).toBe(200);
  });

  it("lets a flagged teacher score the own school contest like a judge", async () => {
    await setStage(t, zjut, "online_judging", -1, 10);
    const w = await insertWork(t, {
      contest: zjut,
      school: "浙江工业大学",
      category: "软件应用与开发",
      status: "submitted",
      name: "校赛作品",
    });
    const g = (
      await root.post(`${A}/${zjut}/groups`, {
        name: "校赛软件组",
        categoryId: (
          await t.db.selectFrom("work_category").select("id").where("name", "=", "软件应用与开发").executeTakeFirstOrThrow()
        ).id,
      })
    ).body.data.id;
    await root.post(`${A}/group/${g}/judges`, { userIds: [await idOf(t, "teacher")] });
    await root.post(`${A}/group/${g}/works`, { workIds: [w] });
    expect((await root.post(`${A}/${zjut}/assign`, { reviewsPerWork: 1, workIds: [w] })).body.data).toMatchObject({
      applied: true,
      added: 1,
    });
    const teacher = await login(t, "teacher");
    const s = await submit(teacher, w, { ...full([16, 20, 30, 18]), version: 0 }, zjut);
    expect(s.body.data).toMatchObject({ status: "submitted", total: 84 });
    expect((await teacher.get(`${J}/contest/${zjut}/online`)).body.data).toMatchObject({
      contest: { as: "school_contest_judge" },
      progress: { assigned: 1, submitted: 1, draft: 0 },
    });
    expect((await teacher.get(url(work))).body).toEqual(NOT_ASSIGNED);
  });

  it("keeps every change in the hash chain; the check and `npm run verify-scores` find a tampered row", async () => {
    const ok = await cadmin.get(`${S}/${zj}/score-log/verify`);
    expect(ok.body.data).toMatchObject({ ok: true, count: 9, index: null });
    expect(ok.body.info).toMatch(/^评分日志完整：共 9 条记录（3 条评分链），链头 [0-9a-f]{16}…$/);
    // One chain per judge: each judge's entries, and only theirs, numbered from 1.
    const bodies = (
      await t.db
        .selectFrom("score_log")
        .select(["chain", "seq", "body", "prev_hash"])
        .where("contest_id", "=", zj)
        .where("chain", "=", judges[0].id)
        .orderBy("seq")
        .execute()
    ).map((r) => ({ chain: r.chain, seq: Number(r.seq), prev: r.prev_hash, ...JSON.parse(r.body) }));
    expect(bodies.map((b) => [b.seq, b.judgeId])).toEqual([1, 2, 3, 4, 5].map((seq) => [seq, judges[0].id]));
    expect(bodies[1]).toMatchObject({
      seq: 2,
      action: "submit",
      judgeId: judges[0].id,
      workId: work,
      score: 75.5,
      deductions: ["非原创"],
      items: { [item.theme]: 18, [item.plan]: 22.5, [item.core]: 30, [item.tech]: 15 },
    });
    expect(bodies[2]).toMatchObject({
      action: "reopen",
      reason: "扣分项选择有误，请核对后重新提交",
      actorId: await idOf(t, "contest_admin"),
    });
    expect(bodies[0].prev).toBe("0".repeat(64));
    expect((await jsAdmin.get(`${S}/${zj}/score-log/verify`)).status).toBe(404);

    const lines: string[] = [];
    expect(await verifyScores(t.db, {}, (l) => lines.push(l))).toBe(0);
    expect(lines).toEqual([
      expect.stringMatching(
        /^赛事「2026年中国大学生计算机设计大赛浙江省级赛」（编号 \d+）：评分日志完整：共 9 条记录（3 条评分链）/,
      ),
      expect.stringMatching(/^赛事「2026年浙江工业大学计算机设计大赛校级赛」.*共 1 条记录/),
      "共校验 2 个赛事，评分日志全部完整",
    ]);

    // Someone raises the judge's second score in the database.
    const second = await t.db
      .selectFrom("score_log")
      .select(["id", "body"])
      .where("contest_id", "=", zj)
      .where("chain", "=", judges[0].id)
      .where("seq", "=", 2)
      .executeTakeFirstOrThrow();
    const chainOf = `评委「李评审」（编号 ${judges[0].id}）的评分链`;
    await t.db
      .updateTable("score_log")
      .set({ body: second.body.replace('"score":75.5', '"score":95.5') })
      .where("id", "=", second.id)
      .execute();
    const bad = await cadmin.get(`${S}/${zj}/score-log/verify`);
    expect(bad.body.data).toMatchObject({ ok: false, index: 1, reason: "hash_mismatch" });
    expect(bad.body.info).toBe(`评分日志校验失败：${chainOf}：第 2 条记录的内容与其哈希不符（记录被修改）`);
    lines.length = 0;
    expect(await verifyScores(t.db, { contest: zj }, (l) => lines.push(l))).toBe(1);
    expect(lines).toEqual([
      expect.stringContaining(`评分日志校验失败：${chainOf}：第 2 条记录的内容与其哈希不符（记录被修改）`),
      "共校验 1 个赛事，其中 1 个赛事的评分日志被篡改或不完整",
    ]);
    lines.length = 0;
    expect(await verifyScores(t.db, { contest: 999999 }, (l) => lines.push(l))).toBe(1);
    expect(lines).toEqual(["赛事（编号 999999）不存在"]);

    // The real command on the same database.
    const cli = spawnSync(process.execPath, ["--import", "tsx", "src/server/judging/verify-cli.ts", "--contest", String(zj)], {
      env: { ...process.env, DATABASE_URL: t.config.databaseUrl },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(cli.stdout).toContain(`${chainOf}：第 2 条记录的内容与其哈希不符（记录被修改）`);
    expect(cli.status).toBe(1);
    await t.db.updateTable("score_log").set({ body: second.body }).where("id", "=", second.id).execute();
    const fixed = spawnSync(process.execPath, ["--import", "tsx", "src/server/judging/verify-cli.ts"], {
      env: { ...process.env, DATABASE_URL: t.config.databaseUrl },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(fixed.stdout).toContain("共校验 2 个赛事，评分日志全部完整");
    expect(fixed.status).toBe(0);
    // A deleted entry breaks the chain at the next one.
    await t.db
      .deleteFrom("score_log")
      .where("contest_id", "=", zj)
      .where("chain", "=", judges[0].id)
      .where("seq", "=", 3)
      .execute();
    expect((await cadmin.get(`${S}/${zj}/score-log/verify`)).body.data).toMatchObject({
      ok: false,
      index: 2,
      reason: "prev_mismatch",
    });
  }, 120_000);
});
