/**
 * Format review through the API: the reviewer's contests and progress, the list with its
 * filters and stable order, the review sheet, the outcomes (pass, return with reason codes
 * and a deadline, the authors' resubmission, reject, undo) with their refusals and log,
 * the deadline, the reviewer's scope, and fast review's neighbours and saved position.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { account, catId, contestId, filled, idOf, login, logOf, makeWork, statusOf, upload, SAMPLE, W } from "./works-fixtures";
import { insertUser, insertWork, joinContest } from "./judging-fixtures";

const R = "/Backend/Review";
const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

describe.each(DIALECTS)("format review on %s", (dialect) => {
  let t: TestApp;
  let reviewer: Client, cadmin: Client, root: Client, sadmin: Client, jsReviewer: Client;
  let zj: number, js: number, zjut: number, soft: number;
  /** Works the demo data may already have under review in the Zhejiang contest, by id. */
  let seeded: number[], seededPending: number[], seededSoftPending: number[], seededPassed: number[];
  let viaApi: number, a1: number, a2: number, a3: number, b1: number, passedBefore: number, jsWork: number;
  let author: Client;

  beforeAll(async () => {
    t = await makeApp(dialect);
    [reviewer, cadmin, root, sadmin] = await Promise.all(
      ["reviewer", "contest_admin", "root", "school_admin"].map((u) => login(t, u)),
    );
    zj = await contestId(t, "2026-ZJ");
    js = await contestId(t, "2026-JS");
    zjut = await contestId(t, "2026-ZJ-10337");
    soft = await catId(t, "软件应用与开发");
    const demo = await t.db
      .selectFrom("work")
      .select(["id", "status", "category_id"])
      .where("contest_id", "=", zj)
      .orderBy("id")
      .execute();
    seeded = demo.map((w) => Number(w.id));
    seededPending = demo.filter((w) => w.status === "accepted").map((w) => Number(w.id));
    seededSoftPending = demo.filter((w) => w.status === "accepted" && w.category_id === soft).map((w) => Number(w.id));
    seededPassed = demo.filter((w) => w.status === "format_passed").map((w) => Number(w.id));

    // One work the whole way through the API: a ZJUT student's work in the school contest,
    // approved and recommended by the school, accepted by the provincial contest.
    author = await account(t, "fr_a", "审查甲");
    const co = await account(t, "fr_b", "审查乙");
    viaApi = await makeWork(t, author, {
      contest: zjut,
      category: soft,
      name: "校园二手书交易平台",
      coAuthors: [co],
      teachers: ["teacher"],
    });
    expect((await author.post(`${W}/${viaApi}/submit`, {})).status).toBe(200);
    expect((await sadmin.post(`/Backend/School/work/${viaApi}/approve`, {})).status).toBe(200);
    expect((await sadmin.post(`/Backend/School/work/${viaApi}/recommend`, {})).status).toBe(200);
    expect((await cadmin.post(`/Backend/Admin/work/${viaApi}/accept`, {})).body.data.status).toBe("accepted");

    // Works entered directly in the provincial contests (schools without a school contest).
    a1 = await insertWork(t, {
      contest: zj,
      school: "浙江大学",
      category: "软件应用与开发",
      status: "accepted",
      name: "智能排课系统",
    });
    a2 = await insertWork(t, {
      contest: zj,
      school: "杭州电子科技大学",
      category: "大数据应用",
      status: "accepted",
      name: "城市交通流量预测",
    });
    a3 = await insertWork(t, {
      contest: zj,
      school: "宁波大学",
      category: "软件应用与开发",
      status: "accepted",
      name: "港口物流调度平台",
      incomplete: true,
    });
    b1 = await insertWork(t, {
      contest: zj,
      school: "温州大学",
      category: "软件应用与开发",
      status: "accepted",
      name: "鞋业供应链看板",
    });
    passedBefore = await insertWork(t, {
      contest: zj,
      school: "浙江大学",
      category: "大数据应用",
      status: "format_passed",
      name: "已通过的作品",
    });
    jsWork = await insertWork(t, {
      contest: js,
      school: "南京大学",
      category: "软件应用与开发",
      status: "accepted",
      name: "江苏省的作品",
    });
    // A reviewer of the Jiangsu contest only.
    const jr = await insertUser(t, { username: "js_reviewer", name: "苏审核", role: 3 });
    await joinContest(t, jr, js, "reviewer");
    jsReviewer = await login(t, "js_reviewer");
  });
  afterAll(async () => t?.close());

  it("lists the contests a reviewer reviews with progress, and only those", async () => {
    const mine = await reviewer.get(`${R}/contests`);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0]).toMatchObject({
      id: zj,
      name: "2026年中国大学生计算机设计大赛浙江省级赛",
      total: seeded.length + 6,
      reviewed: seeded.length - seededPending.length + 1,
      pending: seededPending.length + 5,
      passed: seededPassed.length + 1,
      returned: 0,
      rejected: 0,
      lastWorkId: null,
    });
    const theirs = await jsReviewer.get(`${R}/contests`);
    expect(theirs.body.data.map((c: { id: number; total: number }) => [c.id, c.total])).toEqual([[js, 1]]);
    // Root reviews every provincial and national contest; school admins are not reviewers.
    expect((await root.get(`${R}/contests`)).body.data.map((c: { id: number }) => c.id)).toEqual(
      expect.arrayContaining([zj, js]),
    );
    expect((await sadmin.get(`${R}/contests`)).status).toBe(403);
    const nobody = await insertUser(t, { username: "idle_reviewer", name: "闲审核", role: 3 });
    expect(nobody).toBeGreaterThan(0);
    expect((await (await login(t, "idle_reviewer")).get(`${R}/contests`)).body).toMatchObject({
      error: 0,
      info: "您目前没有负责形式审查的赛事",
      data: [],
    });
  });

  it("lists the works to review by work id, filtered by status, category and keyword", async () => {
    const all = await reviewer.get(`${R}/contest/${zj}/works?pageSize=50`);
    expect(all.body.data.total).toBe(seeded.length + 6);
    const order = [...seeded, viaApi, a1, a2, a3, b1, passedBefore];
    expect(all.body.data.list.map((w: { id: number }) => w.id)).toEqual(order);
    expect(all.body.data.list.map((w: { id: number }) => w.id)).not.toContain(jsWork);
    const pending = await reviewer.get(`${R}/contest/${zj}/works?status=pending&categoryId=${soft}`);
    expect(pending.body.data.list.map((w: { id: number }) => w.id)).toEqual([...seededSoftPending, viaApi, a1, a3, b1]);
    expect(pending.body.data.list[seededSoftPending.length + 1]).toMatchObject({
      name: "智能排课系统",
      status: "accepted",
      statusName: "省赛已接收",
      school: { name: "浙江大学" },
      category: { id: soft, name: "软件应用与开发" },
    });
    expect(
      (await reviewer.get(`${R}/contest/${zj}/works?keyword=${encodeURIComponent("交通")}`)).body.data.list.map(
        (w: { id: number }) => w.id,
      ),
    ).toEqual([a2]);
    expect(
      (await reviewer.get(`${R}/contest/${zj}/works?keyword=${a3}`)).body.data.list.map((w: { id: number }) => w.id),
    ).toEqual([a3]);
    expect(
      (await reviewer.get(`${R}/contest/${zj}/works?status=passed`)).body.data.list.map((w: { id: number }) => w.id),
    ).toEqual([...seededPassed, passedBefore]);
    const page2 = await reviewer.get(`${R}/contest/${zj}/works?pageSize=3&current=2`);
    expect(page2.body.data.list.map((w: { id: number }) => w.id)).toEqual(order.slice(3, 6));
  });

  it("shows the review sheet with fields, attachments and a checklist from the category's requirements", async () => {
    const s = await reviewer.get(`${R}/work/${a3}`);
    expect(s.status).toBe(200);
    const sheet = s.body.data;
    expect(sheet).toMatchObject({
      id: a3,
      name: "港口物流调度平台",
      status: "accepted",
      reviewContest: { id: zj },
      school: { name: "宁波大学" },
      outcomes: ["format_pass", "format_return", "format_reject"],
    });
    expect(sheet.authors.map((x: { name: string }) => x.name)).toHaveLength(2);
    expect(sheet.requirements.map((r: { name: string }) => r.name)).toEqual([
      "作品与答辩材料",
      "素材与源码",
      "设计与开发文档",
      "作品演示视频",
    ]);
    const item = (key: string) => sheet.checklist.find((c: { key: string }) => c.key === key);
    expect(item("file:video")).toMatchObject({ kind: "attachment", required: true, ok: false, detail: "未上传（必交）" });
    expect(item("field:summary")).toMatchObject({ kind: "field", ok: false, detail: "未填写" });
    expect(item("field:name")).toMatchObject({ ok: true });
    expect(item("team:size")).toMatchObject({ kind: "team", ok: true, detail: "符合要求" });
    // The work that came through the API has its files uploaded.
    const full = (await reviewer.get(`${R}/work/${viaApi}`)).body.data;
    expect(full.files.length).toBeGreaterThanOrEqual(3);
    expect(
      full.checklist
        .filter((c: { kind: string; required: boolean; ok: boolean }) => c.kind === "attachment" && c.required)
        .every((c: { ok: boolean }) => c.ok),
    ).toBe(true);
    expect(full.history.map((h: { action: string }) => h.action)).toEqual(["accept"]);
    // The reasons catalogue.
    expect((await reviewer.get(`${R}/reasons`)).body.data.map((r: { name: string }) => r.name)).toEqual([
      "材料缺失",
      "视频无法播放",
      "作品信息不完整",
      "含有作者或学校信息",
      "参赛类别不符",
      "其他",
    ]);
  });

  it("passes a work through the one transition function, logs it and counts it as reviewed", async () => {
    const progress = (await reviewer.get(`${R}/contests`)).body.data[0];
    const before = (await statusOf(t, a1)).version;
    const r = await reviewer.post(`${R}/work/${a1}/format_pass`, { version: before });
    expect(r.body).toMatchObject({
      error: 0,
      info: "形式审查通过",
      data: { id: a1, status: "format_passed", statusName: "形式审查通过", next: a2 },
    });
    expect(await statusOf(t, a1)).toEqual({ status: "format_passed", version: before + 1 });
    const log = await logOf(t, a1);
    expect(log.at(-1)).toMatchObject({ action: "format_pass", user_id: await idOf(t, "reviewer") });
    expect(JSON.parse(log.at(-1)!.changes)).toEqual({ status: ["accepted", "format_passed"] });
    // Twice is refused with the state, and a stale version too.
    expect((await reviewer.post(`${R}/work/${a1}/format_pass`, {})).body).toMatchObject({
      error: 400,
      info: "作品当前状态为「形式审查通过」，不能「形式审查通过」",
    });
    expect((await reviewer.post(`${R}/work/${a2}/format_pass`, { version: 1 })).status).toBe(409);
    expect((await reviewer.get(`${R}/contests`)).body.data[0]).toMatchObject({
      total: progress.total,
      reviewed: progress.reviewed + 1,
      pending: progress.pending - 1,
      passed: progress.passed + 1,
    });
  });

  it("returns a work with reason codes, a text and a deadline; the authors fix it and resubmit before the deadline", async () => {
    const url = `${R}/work/${viaApi}/format_return`;
    expect((await reviewer.post(url, { reason: "请补充演示视频", deadline: inDays(3) })).body).toMatchObject({
      error: 422,
      info: "请至少选择一个问题类型",
      data: { field: "reasonCodes" },
    });
    expect((await reviewer.post(url, { reasonCodes: ["missing_material"], deadline: inDays(3) })).body).toMatchObject({
      error: 422,
      info: "请填写「形式审查退回修改」的原因",
      data: { field: "reason" },
    });
    expect((await reviewer.post(url, { reasonCodes: ["missing_material"], reason: "请补充演示视频" })).body).toMatchObject({
      error: 422,
      info: "请设置修改截止时间",
      data: { field: "deadline" },
    });
    expect(
      (await reviewer.post(url, { reasonCodes: ["missing_material"], reason: "请补充演示视频", deadline: inDays(-1) })).body,
    ).toMatchObject({ error: 422, data: { field: "deadline" } });
    expect((await reviewer.post(url, { reasonCodes: ["no_such_code"], reason: "x", deadline: inDays(3) })).status).toBe(422);
    expect((await statusOf(t, viaApi)).status).toBe("accepted");

    const deadline = inDays(3);
    const r = await reviewer.post(url, {
      reasonCodes: ["video_unplayable", "identity_revealed"],
      reason: "演示视频无法播放；文档封面含有学校名称",
      deadline,
    });
    expect(r.body).toMatchObject({ error: 0, info: "已退回作者修改", data: { status: "format_returned" } });
    const seen = (await author.get(`${W}/${viaApi}`)).body.data;
    expect(seen).toMatchObject({
      status: "format_returned",
      statusName: "形式审查退回修改",
      returnReason: "演示视频无法播放；文档封面含有学校名称",
      formatDeadline: new Date(deadline).toISOString(),
      viewer: { canEdit: true, actions: ["format_resubmit"] },
    });
    expect(seen.formatReasons).toEqual([
      { code: "video_unplayable", name: "视频无法播放" },
      { code: "identity_revealed", name: "含有作者或学校信息" },
    ]);
    const entry = (await logOf(t, viaApi)).at(-1)!;
    expect(entry.action).toBe("format_return");
    expect(JSON.parse(entry.changes)).toMatchObject({
      status: ["accepted", "format_returned"],
      reasonCodes: [null, ["video_unplayable", "identity_revealed"]],
      deadline: [null, new Date(deadline).toISOString()],
    });

    // Not rejected before the deadline; the authors fix the files and resubmit.
    expect((await reviewer.post(`${R}/work/${viaApi}/format_reject`, { reason: "逾期未改" })).body.info).toMatch(
      /^作品已退回修改，修改截止时间为 .+，截止前不能判定不符合要求$/,
    );
    const replaced = await upload(author, viaApi, "video", "演示视频.mp4", SAMPLE.mp4);
    expect(replaced.status).toBe(201);
    const version = (await author.get(`${W}/${viaApi}`)).body.data.version;
    const fix = await author.req("PATCH", `${W}/${viaApi}`, {
      version,
      ...(await filled(t, soft)),
      summary: "已重新剪辑演示视频并去除学校信息的作品简介。",
    });
    expect(fix.status).toBe(200);
    expect((await reviewer.post(`/Backend/Work/work/${viaApi}/format-resubmit`, {})).status).toBe(403);
    const again = await author.post(`/Backend/Work/work/${viaApi}/format-resubmit`, {});
    expect(again.body).toMatchObject({
      error: 0,
      info: "已重新提交形式审查，作品状态为「已重新提交形式审查」",
      data: { status: "format_resubmitted" },
    });
    // Waiting for review again; the sheet shows what was asked and the history.
    const sheet = (await reviewer.get(`${R}/work/${viaApi}`)).body.data;
    expect(sheet).toMatchObject({
      status: "format_resubmitted",
      outcomes: ["format_pass", "format_return", "format_reject"],
      returnReason: "演示视频无法播放；文档封面含有学校名称",
    });
    expect(sheet.history.map((h: { action: string }) => h.action)).toEqual(["accept", "format_return", "format_resubmit"]);
    expect(
      (await reviewer.get(`${R}/contest/${zj}/works?status=pending`)).body.data.list.map((w: { id: number }) => w.id),
    ).toContain(viaApi);
    expect((await reviewer.post(`${R}/work/${viaApi}/format_pass`, {})).body.data.status).toBe("format_passed");
    expect((await author.get(`${W}/${viaApi}`)).body.data).toMatchObject({
      returnReason: null,
      formatReasons: [],
      formatDeadline: null,
    });
  });

  it("after the deadline refuses the resubmission and lets the work be rejected; a rejection needs a reason", async () => {
    const r = await reviewer.post(`${R}/work/${a2}/format_return`, {
      reasonCodes: ["info_incomplete"],
      reason: "请补充数据来源说明",
      deadline: inDays(2),
    });
    expect(r.body.data.status).toBe("format_returned");
    // Time passes: the deadline is now behind us.
    await t.db
      .updateTable("work")
      .set({ format_deadline: inDays(-1) })
      .where("id", "=", a2)
      .execute();
    const first = (
      await t.db
        .selectFrom("work_author")
        .select("user_id")
        .where("work_id", "=", a2)
        .where("rank", "=", 1)
        .executeTakeFirstOrThrow()
    ).user_id;
    const firstName = (await t.db.selectFrom("app_user").select("username").where("id", "=", first).executeTakeFirstOrThrow())
      .username;
    const late = await (await login(t, firstName)).post(`/Backend/Work/work/${a2}/format-resubmit`, {});
    expect(late.body).toMatchObject({ error: 400 });
    expect(late.body.info).toMatch(/^形式审查的修改截止时间（.+）已过，不能再重新提交$/);
    expect((await reviewer.post(`${R}/work/${a2}/format_reject`, {})).body).toMatchObject({
      error: 422,
      info: "请填写「判定不符合要求」的原因",
      data: { field: "reason" },
    });
    const rej = await reviewer.post(`${R}/work/${a2}/format_reject`, {
      reasonCodes: ["info_incomplete"],
      reason: "逾期未补充材料",
    });
    expect(rej.body).toMatchObject({ error: 0, info: "已判定不符合要求", data: { status: "format_rejected" } });
    expect(
      await t.db
        .selectFrom("work")
        .select(["return_reason", "format_reasons", "format_deadline"])
        .where("id", "=", a2)
        .executeTakeFirstOrThrow(),
    ).toEqual({ return_reason: "逾期未补充材料", format_reasons: JSON.stringify(["info_incomplete"]), format_deadline: null });
    // A decision can be undone: the work waits for review again.
    const back = await reviewer.post(`${R}/work/${a2}/format_reopen`, {});
    expect(back.body).toMatchObject({ info: "已撤销形式审查结论，作品回到待审查", data: { status: "accepted" } });
    expect((await logOf(t, a2)).map((l) => l.action).slice(-3)).toEqual(["format_return", "format_reject", "format_reopen"]);
  });

  it("lets the contest's admin and root decide too, and nobody outside the contest", async () => {
    expect(
      (
        await cadmin.post(`${R}/work/${b1}/format_return`, {
          reasonCodes: ["other"],
          reason: "请补充部署链接",
          deadline: inDays(5),
        })
      ).body.data.status,
    ).toBe("format_returned");
    expect((await root.post(`${R}/work/${b1}/format_reject`, { reason: "材料严重不全" })).body.data.status).toBe(
      "format_rejected",
    );
    expect((await logOf(t, b1)).slice(-2).map((l) => [l.action, l.user_id])).toEqual([
      ["format_return", await idOf(t, "contest_admin")],
      ["format_reject", await idOf(t, "root")],
    ]);
    // A reviewer of another contest: the work, its sheet and the contest do not exist for them.
    for (const res of [
      await jsReviewer.get(`${R}/work/${a3}`),
      await jsReviewer.post(`${R}/work/${a3}/format_pass`, {}),
      await jsReviewer.get(`${R}/contest/${zj}/works`),
      await jsReviewer.get(`${R}/contest/${zj}/neighbours?workId=${a3}`),
      await jsReviewer.get(`${R}/contest/${zj}/position`),
      await jsReviewer.get(`/Backend/Work/work/${a3}`),
    ])
      expect(res.status).toBe(404);
    expect((await statusOf(t, a3)).status).toBe("accepted");
    // And the Zhejiang reviewer cannot see the Jiangsu work, nor works still at the school.
    expect((await reviewer.get(`${R}/work/${jsWork}`)).body).toMatchObject({
      error: 404,
      info: "作品不存在或不在您负责的形式审查中",
    });
    const draft = (await t.db.selectFrom("work").select("id").where("status", "=", "draft").executeTakeFirstOrThrow()).id;
    expect((await reviewer.get(`${R}/work/${draft}`)).status).toBe(404);
    expect((await reviewer.get(`/Backend/Work/work/${draft}`)).status).toBe(404);
    // The reviewer reads the full work detail of a work under review.
    expect((await reviewer.get(`/Backend/Work/work/${a3}`)).body.data.viewer.actions).toEqual([
      "format_pass",
      "format_return",
      "format_reject",
    ]);
    // School admins and authors are not reviewers.
    expect((await sadmin.post(`${R}/work/${a3}/format_pass`, {})).status).toBe(403);
    expect((await author.get(`${R}/work/${viaApi}`)).status).toBe(403);
  });

  it("fast review: neighbours in the stable order under the filters, the next pending work after an outcome, and a position that survives a reload", async () => {
    const pending = (await reviewer.get(`${R}/contest/${zj}/works?status=pending&pageSize=50`)).body.data.list.map(
      (w: { id: number }) => w.id,
    );
    expect(pending).toEqual([...seededPending, a2, a3]);
    const k = seededPending.length;
    const n = await reviewer.get(`${R}/contest/${zj}/neighbours?workId=${a3}&status=pending`);
    expect(n.body.data).toEqual({ prev: a2, next: null, index: k + 2, total: k + 2 });
    const all = await reviewer.get(`${R}/contest/${zj}/neighbours?workId=${a2}`);
    expect(all.body.data).toEqual({ prev: a1, next: a3, index: seeded.length + 3, total: seeded.length + 6 });
    // A work outside the filter still has neighbours (index 0).
    expect((await reviewer.get(`${R}/contest/${zj}/neighbours?workId=${a1}&status=pending`)).body.data).toEqual({
      prev: seededPending[k - 1] ?? null,
      next: a2,
      index: 0,
      total: k + 2,
    });
    expect((await reviewer.get(`${R}/contest/${zj}/neighbours?workId=${pending[0]}&status=pending`)).body.data).toMatchObject({
      prev: null,
      index: 1,
    });

    const out = await reviewer.post(`${R}/work/${a2}/format_pass`, {});
    expect(out.body.data).toMatchObject({ status: "format_passed", next: a3 });
    expect((await reviewer.get(`${R}/contest/${zj}/position`)).body.data.workId).toBe(a2);
    const put = await reviewer.req("PUT", `${R}/contest/${zj}/position`, { workId: a3 });
    expect(put.body).toMatchObject({ error: 0, info: "已保存审查位置", data: { workId: a3 } });
    expect((await reviewer.req("PUT", `${R}/contest/${zj}/position`, { workId: jsWork })).body).toMatchObject({
      error: 404,
      info: "该作品不在本赛事的形式审查中",
    });
    // A reload (a new session) finds the same place, and the contest list shows it.
    const again = await login(t, "reviewer");
    expect((await again.get(`${R}/contest/${zj}/position`)).body.data.workId).toBe(a3);
    expect((await again.get(`${R}/contests`)).body.data[0].lastWorkId).toBe(a3);
    // Positions are per user: the contest admin's is the work they last decided on.
    expect((await cadmin.get(`${R}/contest/${zj}/position`)).body.data.workId).toBe(b1);
    expect((await jsReviewer.get(`${R}/contest/${js}/position`)).body.data).toEqual({ workId: null, updatedAt: null });
    // The last pending work: nothing comes next.
    expect((await reviewer.post(`${R}/work/${a3}/format_pass`, {})).body.data.next).toBeNull();
  });
});
