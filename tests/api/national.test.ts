/**
 * The national round (issue 14): a published provincial result enters its promoted works in
 * the national contest within the province's quota (total and per 大类), exactly once
 * (publishing twice, withdrawing and republishing); the national admin's incoming view and
 * its scope; the provincial admin's withdrawal before the national registration closes and
 * the refusal after. The provincial result rows are set by hand (results.test.ts covers how
 * they are computed); publication and its withdrawal go through the real service and API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, makeApp, type Client, type TestApp } from "../helpers/app";
import { catId, contestId, login, setStage } from "./works-fixtures";
import { insertUser, insertWork, joinContest } from "./judging-fixtures";
import { syncNationalEntries } from "../../src/server/national/entries";
import { workLocksOf } from "../../src/server/work/rules";

const N = "/Backend/ContestAdmin/national";

describe.each(DIALECTS)("national round on %s", (dialect) => {
  let t: TestApp;
  let js: number, cn: number, soft: number, data: number;
  let jsAdmin: Client, root: Client, zjAdmin: Client;
  const w: number[] = [];

  const entries = () => t.db.selectFrom("national_entry").selectAll().where("contest_id", "=", cn).orderBy("work_id").execute();
  const entered = async () => (await entries()).filter((e) => e.status === "entered").map((e) => e.work_id);
  /** A provincial publication in force, as publishResults writes it, then the entries' sync it runs. */
  const publish = async () => {
    const admin = (await t.db.selectFrom("app_user").select("id").where("username", "=", "js_admin").executeTakeFirstOrThrow())
      .id;
    await t.db
      .insertInto("result_publication")
      .values({
        contest_id: js,
        published_at: new Date().toISOString(),
        published_by: admin,
        model: "m",
        model_version: 1,
        params: JSON.stringify({ publicity: null }),
        log_head: "h",
        log_seq: 0,
        note: null,
        withdrawn_at: null,
        withdrawn_by: null,
        withdraw_reason: null,
      })
      .execute();
    await syncNationalEntries(t.db, js, admin);
  };

  beforeAll(async () => {
    t = await makeApp(dialect);
    js = await contestId(t, "2026-JS");
    cn = await contestId(t, "2026-CN");
    soft = await catId(t, "软件应用与开发");
    data = await catId(t, "大数据应用");
    await joinContest(t, await insertUser(t, { username: "js_admin", name: "苏赛务", role: 1 }), js, "admin");
    [jsAdmin, root, zjAdmin] = await Promise.all(["js_admin", "root", "contest_admin"].map((u) => login(t, u)));
    // Quota of Jiangsu towards the national contest: 3 in all, 2 in 软件应用与开发.
    await t.db
      .updateTable("contest")
      .set({ recommend_quota: 3, category_quotas: JSON.stringify({ [soft]: 2 }) })
      .where("id", "=", js)
      .execute();
    for (const school of ["南京理工大学", "江南大学", "南京师范大学"])
      w.push(await insertWork(t, { contest: js, school, category: "软件应用与开发", status: "format_passed" }));
    for (const school of ["南京邮电大学", "扬州大学"])
      w.push(await insertWork(t, { contest: js, school, category: "大数据应用", status: "format_passed" }));
    const award = (
      await t.db
        .selectFrom("award_level")
        .select("id")
        .where("contest_level", "=", "provincial")
        .where("kind", "=", "work")
        .orderBy("id")
        .executeTakeFirstOrThrow()
    ).id;
    const at = new Date().toISOString();
    await t.db
      .insertInto("contest_result")
      .values(
        w.map((id, i) => ({
          contest_id: js,
          work_id: id,
          group_id: null,
          raw_mean: 90 - i,
          normalised: 90 - i,
          rank: i + 1,
          award_level_id: award,
          promoted: 1,
          updated_at: at,
        })),
      )
      .execute();
  });
  afterAll(() => t?.close());

  it("publishing enters the promoted works within the quota, exactly once", async () => {
    await publish();
    // 软件 capped at 2 (w0, w1), then 大数据 w3 fills the total of 3; w2 and w4 do not fit.
    expect(await entered()).toEqual([w[0], w[1], w[3]]);
    await syncNationalEntries(t.db, js, null); // publishing again
    expect((await entries()).length).toBe(3);
    const e = (await entries())[0];
    expect(e).toMatchObject({ from_contest_id: js, province: "江苏省", format_status: "pending" });
    // The work itself stays in the provincial contest, its provincial result as it was.
    expect((await t.db.selectFrom("work").select("contest_id").where("id", "=", w[0]).executeTakeFirstOrThrow()).contest_id).toBe(
      js,
    );
    const log = await t.db
      .selectFrom("work_log")
      .select("action")
      .where("work_id", "=", w[0])
      .where("action", "=", "national_enter")
      .execute();
    expect(log.length).toBe(1);
  });

  it("the national admin sees the incoming works per province with the quota used; others get 404", async () => {
    const res = await root.get(`${N}/${cn}/incoming`);
    expect(res.status).toBe(200);
    const [p] = res.body.data;
    expect(p).toMatchObject({ fromContestId: js, province: "江苏省", quota: 3, used: 3 });
    expect(p.perCategory.find((c: { categoryId: number }) => c.categoryId === soft)).toMatchObject({ quota: 2, used: 2 });
    expect(p.perCategory.find((c: { categoryId: number }) => c.categoryId === data)).toMatchObject({ quota: null, used: 1 });
    for (const c of [jsAdmin, zjAdmin]) {
      const r = await c.get(`${N}/${cn}/incoming`);
      expect(r.status).toBe(404);
    }
    // A provincial contest has no incoming view.
    expect((await jsAdmin.get(`${N}/${js}/incoming`)).body.info).toContain("国赛");
  });

  it("withdrawing the provincial publication takes the entries back; republishing re-enters them, no duplicates", async () => {
    const r = await jsAdmin.post(`/Backend/ContestAdmin/judging/${js}/results/unpublish`, { reason: "更正奖项" });
    expect(r.status).toBe(200);
    expect(await entered()).toEqual([]);
    expect((await entries()).every((e) => e.withdraw_kind === "sync")).toBe(true);
    await publish();
    expect(await entered()).toEqual([w[0], w[1], w[3]]);
    expect((await entries()).length).toBe(3);
  });

  it("the provincial admin withdraws a promoted work before the national registration closes, with a reason", async () => {
    await setStage(t, cn, "registration", -10, 5);
    expect((await jsAdmin.post(`${N}/${js}/promoted/${w[0]}/withdraw`, { reason: "x" })).status).toBe(422); // reason too short
    // Another province's admin: as if the contest did not exist.
    expect((await zjAdmin.post(`${N}/${js}/promoted/${w[0]}/withdraw`, { reason: "学校要求撤回" })).status).toBe(404);
    const r = await jsAdmin.post(`${N}/${js}/promoted/${w[0]}/withdraw`, { reason: "学校要求撤回" });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ workId: w[0], status: "withdrawn", withdrawReason: "学校要求撤回" });
    const log = await t.db
      .selectFrom("work_log")
      .select("changes")
      .where("work_id", "=", w[0])
      .where("action", "=", "national_withdraw")
      .executeTakeFirstOrThrow();
    expect(log.changes).toContain("学校要求撤回");
    // A later publication does not bring it back; its slot goes to the next promoted 软件 work.
    await syncNationalEntries(t.db, js, null);
    expect(await entered()).toEqual([w[1], w[2], w[3]]);
    expect((await entries()).length).toBe(4);
  });

  it("an entered work follows the national contest's field locks; its author sees both levels", async () => {
    await t.db
      .insertInto("entry_lock")
      .values({ contest_id: cn, field: "name", from_stage: "format_review", created_at: new Date().toISOString() })
      .execute();
    await setStage(t, cn, "format_review", -1, 10);
    const work = (id: number) =>
      t.db.selectFrom("work").select(["id", "contest_id"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect((await workLocksOf(t.db, await work(w[1]))).get("name")).toBe("format_review");
    // Not entered (withdrawn / never promoted): the provincial contest's locks only.
    expect((await workLocksOf(t.db, await work(w[0]))).has("name")).toBe(false);
    expect((await workLocksOf(t.db, await work(w[4]))).has("name")).toBe(false);
    const authorName = (
      await t.db
        .selectFrom("work_author")
        .innerJoin("app_user", "app_user.id", "work_author.user_id")
        .select("app_user.username")
        .where("work_author.work_id", "=", w[1])
        .where("work_author.rank", "=", 1)
        .executeTakeFirstOrThrow()
    ).username;
    const author = await login(t, authorName);
    const r = await author.get(`/Backend/Work/work/${w[1]}`);
    expect(r.status).toBe(200);
    expect(r.body.data.rounds).toEqual([
      { level: "省赛", text: expect.stringContaining("推荐晋级国赛") },
      { level: "国赛", text: expect.stringContaining("已进入") },
    ]);
    // The author's page shows the national contest's lock (the work is not editable in its state anyway).
    expect(r.body.data.viewer.lockedFields).toContainEqual(expect.objectContaining({ field: "name", stage: "format_review" }));
  });

  it("after the national registration closes the withdrawal is refused in Chinese", async () => {
    await setStage(t, cn, "registration", -10, -1);
    const r = await jsAdmin.post(`${N}/${js}/promoted/${w[1]}/withdraw`, { reason: "学校要求撤回" });
    expect(r.status).toBe(400);
    expect(r.body.info).toContain("国赛报名已于");
    expect(await entered()).toContain(w[1]);
  });
});
