/**
 * The lifecycle through the API: draft → submitted → returned → resubmitted → school
 * approved → recommended (within quota) → accepted, disqualify from anywhere; refusals with
 * their messages; stage windows; quotas; bulk changes; a contest admin's entry.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import {
  account,
  attachRequired,
  catId,
  contestId,
  filled,
  idOf,
  login,
  logOf,
  makeWork,
  setStage,
  statusOf,
  W,
} from "./works-fixtures";

describe.each(DIALECTS)("works lifecycle on %s", (dialect) => {
  let t: TestApp;
  let root: Client, cadmin: Client, sadmin: Client;
  let zjut: number, zj: number, js: number, soft: number, data: number, ai: number;
  beforeAll(async () => {
    t = await makeApp(dialect);
    [root, cadmin, sadmin] = await Promise.all(["root", "contest_admin", "school_admin"].map((u) => login(t, u)));
    zjut = await contestId(t, "2026-ZJ-10337");
    zj = await contestId(t, "2026-ZJ");
    js = await contestId(t, "2026-JS");
    soft = await catId(t, "软件应用与开发");
    data = await catId(t, "大数据应用");
    ai = await catId(t, "人工智能应用");
  });
  afterAll(async () => t?.close());

  it("walks a work from draft to accepted, each step checked, moved and logged", async () => {
    const a = await account(t, "life_a", "甲同学");
    const b = await account(t, "life_b", "乙同学");
    const created = await a.post(W, {
      contestId: zjut,
      categoryId: soft,
      name: "生命周期作品",
      coAuthors: ["life_b"],
      teachers: ["teacher"],
    });
    expect(created.status).toBe(201);
    expect(created.body.info).toBe(`作品已创建，编号 ${created.body.data.id}`);
    const id = created.body.data.id as number;
    expect(created.body.data).toMatchObject({
      status: "draft",
      statusName: "草稿",
      authorNames: "甲同学、乙同学",
      teacherNames: "王老师",
      version: 1,
    });
    expect(created.body.data.authors.map((x: { name: string; confirmed: boolean }) => [x.name, x.confirmed])).toEqual([
      ["甲同学", true],
      ["乙同学", false],
    ]);
    expect(created.body.data.viewer).toMatchObject({ actions: ["submit"], canEdit: true });

    // Submit refuses with the first thing to fix, and changes nothing.
    const empty = await a.post(`${W}/${id}/submit`, {});
    expect(empty.body).toMatchObject({ error: 400, info: "请选择作品小类" });
    const fill = await a.req("PATCH", `${W}/${id}`, { version: 1, ...(await filled(t, soft)) });
    expect(fill.status).toBe(200);
    expect(fill.body.data.version).toBe(2);
    const pending = await a.post(`${W}/${id}/submit`, {});
    expect(pending.body).toMatchObject({ error: 400, info: "作者「乙同学」尚未确认参赛，全部作者确认后才能提交" });
    // A co-author confirms, but only the first author submits.
    expect((await b.post(`${W}/${id}/confirm`, {})).body.info).toBe("已确认参赛");
    const byB = await b.post(`${W}/${id}/submit`, {});
    expect(byB.body).toMatchObject({ error: 403, info: "您不能对该作品执行「提交」" });
    // The school cannot act on a draft; the author cannot act for the school.
    expect((await sadmin.post(`/Backend/School/work/${id}/approve`, {})).body).toMatchObject({
      error: 400,
      info: "作品当前状态为「草稿」，不能「审核通过」",
    });
    expect((await a.post(`/Backend/School/work/${id}/approve`, {})).status).toBe(403);

    // Every required attachment must be there.
    expect((await a.post(`${W}/${id}/submit`, {})).body).toMatchObject({
      error: 400,
      info: "请上传「作品与答辩材料」、「素材与源码」、「设计与开发文档」、「作品演示视频」后再提交",
    });
    await attachRequired(a, id);

    const sub = await a.post(`${W}/${id}/submit`, {});
    expect(sub.body).toMatchObject({ error: 0, info: "作品已提交，等待学校审核", data: { id, status: "submitted" } });
    expect((await a.req("PATCH", `${W}/${id}`, { version: 4, name: "提交后修改" })).body).toMatchObject({
      error: 400,
      info: "作品当前状态为「已提交」，不能修改；只有草稿和已退回修改的作品可以修改",
    });

    // The school returns it with a reason; the author fixes it and resubmits.
    const noReason = await sadmin.post(`/Backend/School/work/${id}/return`, {});
    expect(noReason.body).toMatchObject({ error: 422, info: "请填写「退回修改」的原因", data: { field: "reason" } });
    const ret = await sadmin.post(`/Backend/School/work/${id}/return`, { reason: "请补充部署链接" });
    expect(ret.body).toMatchObject({ error: 0, info: "已退回修改", data: { status: "returned" } });
    const seen = await a.get(`${W}/${id}`);
    expect(seen.body.data).toMatchObject({
      status: "returned",
      returnReason: "请补充部署链接",
      viewer: { canEdit: true, actions: ["submit"] },
    });
    const fix = await a.req("PATCH", `${W}/${id}`, {
      version: seen.body.data.version,
      deployLink1: "https://demo.example.com/app",
    });
    expect(fix.body.data.deployLink1).toBe("https://demo.example.com/app");
    expect((await a.post(`${W}/${id}/submit`, {})).body.data.status).toBe("submitted");
    expect((await a.get(`${W}/${id}`)).body.data.returnReason).toBeNull();

    // Approve, recommend (quota shown), accept.
    expect((await sadmin.post(`/Backend/School/work/${id}/approve`, {})).body.data.status).toBe("school_approved");
    const before = (await sadmin.get(`/Backend/School/work/quota?contestId=${zjut}`)).body.data[0];
    expect(before).toMatchObject({ contestName: "2026年浙江工业大学计算机设计大赛校级赛", total: 30, used: 0, left: 30 });
    expect((await sadmin.post(`/Backend/School/work/${id}/recommend`, {})).body).toMatchObject({
      error: 0,
      info: "已推荐至省赛",
      data: { status: "recommended" },
    });
    const after = (await sadmin.get(`/Backend/School/work/quota?contestId=${zjut}`)).body.data[0];
    expect(after).toMatchObject({ total: 30, used: 1, left: 29 });
    expect(after.categories.find((c: { categoryId: number }) => c.categoryId === soft)).toMatchObject({
      quota: 10,
      used: 1,
      left: 9,
    });
    // The school cannot accept; the provincial contest admin can.
    expect((await sadmin.post(`/Backend/Admin/work/${id}/accept`, {})).status).toBe(403);
    expect((await cadmin.post(`/Backend/Admin/work/${id}/accept`, {})).body).toMatchObject({
      error: 0,
      info: "已接收",
      data: { status: "accepted" },
    });
    expect((await sadmin.post(`/Backend/School/work/${id}/approve`, {})).body.info).toBe(
      "作品当前状态为「省赛已接收」，不能「审核通过」",
    );

    const log = await logOf(t, id);
    const uploads = ["upload_file", "upload_file", "upload_file", "upload_file"];
    expect(log.map((l) => l.action)).toEqual([
      "create",
      "update",
      "confirm_author",
      ...uploads,
      "submit",
      "return",
      "update",
      "submit",
      "approve",
      "recommend",
      "accept",
    ]);
    expect(JSON.parse(log[8].changes)).toEqual({ status: ["submitted", "returned"], reason: [null, "请补充部署链接"] });
    expect(log[8].user_id).toBe(await idOf(t, "school_admin"));
    expect(JSON.parse(log[9].changes)).toEqual({ deployLink1: [null, "https://demo.example.com/app"] });
    expect(await statusOf(t, id)).toEqual({ status: "accepted", version: 10 });
  });

  it("lets a student enter only the open contests of the school: its school contest, else its province's", async () => {
    const own = await account(t, "enter_a", "报名甲");
    const zju = await account(t, "enter_zju", "报名浙大", { school: "浙江大学" });
    const open = async (c: Client) => (await c.get(`${W}/open-contests`)).body.data.map((x: { id: number }) => x.id);
    expect(await open(own)).toEqual([zjut]);
    expect(await open(zju)).toEqual([zj]);
    const viaProvince = await own.post(W, { contestId: zj, categoryId: soft, name: "绕过校赛" });
    expect(viaProvince.body).toMatchObject({
      error: 422,
      info: "浙江工业大学设有校级赛「2026年浙江工业大学计算机设计大赛校级赛」，请在校级赛中报名，作品经学校推荐进入「2026年中国大学生计算机设计大赛浙江省级赛」",
      data: { field: "contestId" },
    });
    expect((await zju.post(W, { contestId: js, categoryId: soft, name: "外省" })).body.info).toBe(
      "「2026年中国大学生计算机设计大赛江苏省级赛」不接受浙江大学的作品报名",
    );
    expect((await zju.post(W, { contestId: zjut, categoryId: soft, name: "他校校赛" })).body.info).toBe(
      "「2026年浙江工业大学计算机设计大赛校级赛」不接受浙江大学的作品报名",
    );
    const soft2 = await zju.post(W, { contestId: zj, categoryId: soft, name: "浙大直接报省赛" });
    expect(soft2.body.data).toMatchObject({ contest: { id: zj, level: "provincial" }, school: { name: "浙江大学" } });
    // Teachers and admins do not create works as authors.
    expect((await sadmin.post(W, { contestId: zjut, categoryId: soft, name: "管理员作品" })).status).toBe(403);
  });

  it("keeps each action to its stage window, and root to none", async () => {
    const a = await account(t, "win_a", "窗口甲");
    const b = await account(t, "win_b", "窗口乙");
    const id = await makeWork(t, a, { contest: zjut, category: data, coAuthors: [b] });
    const id2 = await makeWork(t, b, { contest: zjut, category: ai, coAuthors: [a] });
    // Registration closed: no new works, no submit; school review not started: the school waits.
    await setStage(t, zjut, "registration", -60, -1);
    await setStage(t, zjut, "school_review", 5, 20);
    const late = await a.post(W, { contestId: zjut, categoryId: soft, name: "迟到的作品" });
    expect(late.body.error).toBe(400);
    expect(late.body.info).toMatch(
      /^「2026年浙江工业大学计算机设计大赛校级赛」的报名时间为 \d{4}-\d\d-\d\d \d\d:\d\d 至 \d{4}-\d\d-\d\d \d\d:\d\d，当前不在报名时间内$/,
    );
    const closed = await a.post(`${W}/${id}/submit`, {});
    expect(closed.body.info).toMatch(/^「2026年浙江工业大学计算机设计大赛校级赛」当前不在报名阶段（.+）内，不能「提交」$/);
    expect((await statusOf(t, id)).status).toBe("draft");
    // Root is not bound by windows; the school is.
    await setStage(t, zjut, "registration", -60, 1);
    expect((await a.post(`${W}/${id}/submit`, {})).body.data.status).toBe("submitted");
    expect((await b.post(`${W}/${id2}/submit`, {})).body.data.status).toBe("submitted");
    await setStage(t, zjut, "registration", -60, -1);
    const school = await sadmin.post(`/Backend/School/work/${id}/return`, { reason: "请修改" });
    expect(school.body.info).toMatch(/当前不在报名阶段（.+）或校内审核阶段（.+）内，不能「退回修改」$/);
    expect((await root.post(`/Backend/School/work/${id}/return`, { reason: "请修改" })).body.data.status).toBe("returned");
    // During school review a returned work may be resubmitted and the school acts.
    await setStage(t, zjut, "school_review", -1, 5);
    expect((await a.post(`${W}/${id}/submit`, {})).body.data.status).toBe("submitted");
    expect((await sadmin.post(`/Backend/School/work/${id}/approve`, {})).body.data.status).toBe("school_approved");
    await setStage(t, zjut, "registration", -60, 30);
    await setStage(t, zjut, "school_review", 31, 45);
  });

  it("recommends within the school contest's quota and per-大类 quota; unrecommend frees a slot", async () => {
    const [a, b, c, d] = await Promise.all(["q_a", "q_b", "q_c", "q_d"].map((u, i) => account(t, u, `名额${"甲乙丙丁"[i]}`)));
    const w1 = await makeWork(t, a, { contest: zjut, category: ai, coAuthors: [b], name: "名额作品一" });
    const w2 = await makeWork(t, c, { contest: zjut, category: ai, coAuthors: [d], name: "名额作品二" });
    const w3 = await makeWork(t, a, { contest: zjut, category: soft, coAuthors: [b], name: "名额作品三" });
    for (const [who, w] of [
      [a, w1],
      [c, w2],
      [a, w3],
    ] as [Client, number][]) {
      expect((await who.post(`${W}/${w}/submit`, {})).body.error).toBe(0);
      expect((await sadmin.post(`/Backend/School/work/${w}/approve`, {})).body.error).toBe(0);
    }
    const used = Number(
      (
        await t.db
          .selectFrom("work")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("contest_id", "=", zjut)
          .where("status", "in", ["recommended", "accepted"])
          .executeTakeFirstOrThrow()
      ).n,
    );
    const quotas = JSON.parse(
      (await t.db.selectFrom("contest").select("category_quotas").where("id", "=", zjut).executeTakeFirstOrThrow())
        .category_quotas,
    );
    quotas[String(ai)] = 1;
    await t.db
      .updateTable("contest")
      .set({ recommend_quota: used + 2, category_quotas: JSON.stringify(quotas) })
      .where("id", "=", zjut)
      .execute();

    expect((await sadmin.post(`/Backend/School/work/${w1}/recommend`, {})).body.data.status).toBe("recommended");
    const cat = await sadmin.post(`/Backend/School/work/${w2}/recommend`, {});
    expect(cat.body).toMatchObject({
      error: 400,
      info: "「2026年浙江工业大学计算机设计大赛校级赛」大类「人工智能应用」的推荐名额已用完（共 1 个，已推荐 1 个）",
    });
    expect((await statusOf(t, w2)).status).toBe("school_approved");
    expect((await sadmin.post(`/Backend/School/work/${w3}/recommend`, {})).body.data.status).toBe("recommended");
    const quota = (await sadmin.get(`/Backend/School/work/quota`)).body.data.find(
      (q: { contestId: number }) => q.contestId === zjut,
    );
    expect(quota).toMatchObject({ total: used + 2, used: used + 2, left: 0 });
    expect(quota.categories.find((x: { categoryId: number }) => x.categoryId === ai)).toMatchObject({
      quota: 1,
      used: 1,
      left: 0,
    });
    // Total used up: even a 大类 with room is refused.
    quotas[String(ai)] = 5;
    await t.db
      .updateTable("contest")
      .set({ category_quotas: JSON.stringify(quotas) })
      .where("id", "=", zjut)
      .execute();
    const total = await sadmin.post(`/Backend/School/work/${w2}/recommend`, {});
    expect(total.body.info).toBe(
      `「2026年浙江工业大学计算机设计大赛校级赛」的推荐名额已用完（共 ${used + 2} 个，已推荐 ${used + 2} 个）`,
    );
    // Taking one back frees its slot.
    expect((await sadmin.post(`/Backend/School/work/${w1}/unrecommend`, {})).body.data.status).toBe("school_approved");
    expect((await sadmin.post(`/Backend/School/work/${w2}/recommend`, {})).body.data.status).toBe("recommended");
    // The provincial contest may send one back to the school, with a reason.
    const rej = await cadmin.post(`/Backend/Admin/work/${w2}/reject`, { reason: "材料不全" });
    expect(rej.body.data.status).toBe("school_approved");
    expect((await c.get(`${W}/${w2}`)).body.data.returnReason).toBe("材料不全");
    await t.db.updateTable("contest").set({ recommend_quota: 30 }).where("id", "=", zjut).execute();
  });

  it("disqualifies from any state with a public reason, and then nothing moves", async () => {
    const a = await account(t, "dq_a", "取消甲");
    const b = await account(t, "dq_b", "取消乙");
    const id = await makeWork(t, a, { contest: zjut, category: soft, coAuthors: [b] });
    expect((await sadmin.post(`/Backend/School/work/${id}/return`, { reason: "x" })).status).toBe(400);
    expect((await cadmin.post(`/Backend/Admin/work/${id}/disqualify`, {})).body).toMatchObject({
      error: 422,
      data: { field: "reason" },
    });
    const dq = await cadmin.post(`/Backend/Admin/work/${id}/disqualify`, { reason: "与他人作品雷同（一稿多投）" });
    expect(dq.body.data.status).toBe("disqualified");
    const seen = (await a.get(`${W}/${id}`)).body.data;
    expect(seen).toMatchObject({
      statusName: "已取消资格",
      disqualifyReason: "与他人作品雷同（一稿多投）",
      viewer: { actions: [], canEdit: false },
    });
    expect((await a.post(`${W}/${id}/submit`, {})).body.info).toBe("作品当前状态为「已取消资格」，不能「提交」");
    expect((await root.post(`/Backend/Admin/work/${id}/disqualify`, { reason: "再次" })).body.info).toBe(
      "作品当前状态为「已取消资格」，不能「取消资格」",
    );
    // A contest admin of another province cannot see it at all.
    const jsAdmin = await account(t, "js_admin", "江苏赛管", { role: 2 });
    await t.db.updateTable("app_user").set({ user_type: 1, school_id: null }).where("username", "=", "js_admin").execute();
    await t.db
      .insertInto("contest_member")
      .values({ contest_id: js, user_id: await idOf(t, "js_admin"), role: "admin", created_at: new Date().toISOString() })
      .execute();
    expect((await jsAdmin.post(`/Backend/Admin/work/${id}/accept`, {})).status).toBe(404);
  });

  it("changes many works at once only when every one may change, with a report per work", async () => {
    const [a, b, c, d] = await Promise.all(["bk_a", "bk_b", "bk_c", "bk_d"].map((u, i) => account(t, u, `批量${"甲乙丙丁"[i]}`)));
    const w1 = await makeWork(t, a, { contest: zjut, category: data, coAuthors: [b], name: "批量一" });
    const w2 = await makeWork(t, c, { contest: zjut, category: data, coAuthors: [d], name: "批量二" });
    for (const [who, w] of [
      [a, w1],
      [c, w2],
    ] as [Client, number][]) {
      await who.post(`${W}/${w}/submit`, {});
      await sadmin.post(`/Backend/School/work/${w}/approve`, {});
    }
    await sadmin.post(`/Backend/School/work/${w1}/recommend`, {});
    const refused = await cadmin.post("/Backend/Admin/work/bulk-status", { ids: [w1, w2], action: "accept" });
    expect(refused.status).toBe(400);
    expect(refused.body.info).toBe("有 1 件作品不能「接收」，本次全部未执行");
    expect(refused.body.data).toEqual({
      done: false,
      results: [
        { id: w1, ok: true, info: "可以执行，但因其他作品未通过检查，本次未执行", status: null },
        { id: w2, ok: false, info: "作品当前状态为「学校已审核」，不能「接收」", status: null },
      ],
    });
    expect((await statusOf(t, w1)).status).toBe("recommended");
    await sadmin.post(`/Backend/School/work/${w2}/recommend`, {});
    const done = await cadmin.post("/Backend/Admin/work/bulk-status", { ids: [w1, w2], action: "accept" });
    expect(done.body).toMatchObject({ error: 0, info: "已接收 2 件作品", data: { done: true } });
    expect([(await statusOf(t, w1)).status, (await statusOf(t, w2)).status]).toEqual(["accepted", "accepted"]);
    const noReason = await root.post("/Backend/Admin/work/bulk-status", { ids: [w1], action: "disqualify" });
    expect(noReason.body.data.results[0]).toMatchObject({ ok: false, info: "请填写「取消资格」的原因" });
  });

  it("lets a contest admin enter a work on a school's behalf into the provincial contest, accepted and confirmed", async () => {
    await account(t, "aw_a", "代录甲");
    await account(t, "aw_b", "代录乙", { major: null });
    const zju = await account(t, "aw_zju", "浙大学生", { school: "浙江大学" });
    const js1 = await account(t, "aw_js", "江苏学生", { school: "南京大学" });
    void zju;
    void js1;
    const base = { contestId: zj, categoryId: soft, name: "代为录入的作品", teachers: ["teacher"], ...(await filled(t, soft)) };
    const r = await cadmin.post("/Backend/Admin/work", { ...base, authors: ["aw_a", "aw_b"] });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      status: "accepted",
      contest: { id: zj },
      school: { name: "浙江工业大学" },
      authorNames: "代录甲、代录乙",
    });
    expect(r.body.data.authors.every((x: { confirmed: boolean }) => x.confirmed)).toBe(true);
    const log = await logOf(t, r.body.data.id);
    expect(log.map((l) => l.action)).toEqual(["admin_create"]);
    expect(JSON.parse(log[0].changes).note[1]).toBe("赛事管理员代学校录入；作者由赛事管理员依据学校提交的报名表确认");
    // Authors of two schools, a school contest, another province, a team too small: refused, nothing written.
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom("work")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const n = await count();
    expect(
      (
        await cadmin.post("/Backend/Admin/work", {
          ...base,
          categoryId: data,
          ...(await filled(t, data)),
          authors: ["aw_a", "aw_zju"],
        })
      ).body,
    ).toMatchObject({ error: 422, data: { field: "authors" } });
    expect((await cadmin.post("/Backend/Admin/work", { ...base, contestId: zjut, authors: ["aw_a", "aw_b"] })).body.info).toBe(
      "代学校录入的作品只能录入省级赛；校级赛作品由学校审核推荐",
    );
    expect((await cadmin.post("/Backend/Admin/work", { ...base, contestId: js, authors: ["aw_js", "aw_b"] })).body.info).toBe(
      "所选赛事不存在或不在您的管理范围内",
    );
    expect(
      (
        await cadmin.post("/Backend/Admin/work", {
          ...base,
          categoryId: data,
          ...(await filled(t, data)),
          authors: ["aw_zju"],
          teachers: [],
        })
      ).body.info,
    ).toBe("「大数据应用」每件作品须有 2–5 名作者，当前 1 名");
    expect(await count()).toBe(n);
    // The author sees it and cannot change it; the school cannot act on it.
    const a = await login(t, "aw_a");
    expect((await a.get(`${W}/${r.body.data.id}`)).body.data.viewer).toMatchObject({ canEdit: false, actions: [] });
  });
});
