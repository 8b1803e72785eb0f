/**
 * The national contest's pipeline reads its national entries (issue 14): a promoted work shows
 * in the national format review list; format review of the entry writes the entry, leaving the
 * provincial work as it was; a provincial admin cannot review it; it is grouped, assigned and
 * scored in the national contest and computed in its results; a withdrawn entry vanishes from
 * the review list and the judging pool.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, makeApp, type Client, type TestApp } from "../helpers/app";
import { catId, contestId, login, setStage } from "./works-fixtures";
import { insertUser, insertWork, joinContest, makeJudge } from "./judging-fixtures";
import { syncNationalEntries } from "../../src/server/national/entries";
import { contestOfWork } from "../../src/server/complaint/filing";

const R = "/Backend/Review";
const A = "/Backend/ContestAdmin/judging";
const N = "/Backend/ContestAdmin/national";
const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

describe.each(DIALECTS)("national pipeline on %s", (dialect) => {
  let t: TestApp;
  let js: number, cn: number, soft: number;
  let jsAdmin: Client, cnAdmin: Client, cnReviewer: Client;
  const w: number[] = [];
  const judges: { id: number; c: Client }[] = [];

  const work = (id: number) =>
    t.db
      .selectFrom("work")
      .select(["status", "version", "format_reasons", "format_deadline", "return_reason", "contest_id"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  const entry = (id: number) =>
    t.db
      .selectFrom("national_entry")
      .selectAll()
      .where("work_id", "=", id)
      .where("contest_id", "=", cn)
      .executeTakeFirstOrThrow();
  const reviewList = async (c: Client = cnReviewer) => {
    const r = await c.get(`${R}/contest/${cn}/works?pageSize=50`);
    expect(r.status).toBe(200);
    return r.body.data.list as { id: number; status: string }[];
  };
  const pool = async () =>
    ((await cnAdmin.get(`${A}/${cn}/works?pageSize=100`)).body.data.list as { id: number }[]).map((x) => x.id);

  beforeAll(async () => {
    t = await makeApp(dialect);
    js = await contestId(t, "2026-JS");
    cn = await contestId(t, "2026-CN");
    soft = await catId(t, "软件应用与开发");
    await joinContest(t, await insertUser(t, { username: "np_js_admin", name: "苏赛务", role: 1 }), js, "admin");
    await joinContest(t, await insertUser(t, { username: "np_cn_admin", name: "国赛务", role: 1 }), cn, "admin");
    await joinContest(t, await insertUser(t, { username: "np_cn_reviewer", name: "国审查", role: 3 }), cn, "reviewer");
    [jsAdmin, cnAdmin, cnReviewer] = await Promise.all(["np_js_admin", "np_cn_admin", "np_cn_reviewer"].map((u) => login(t, u)));
    for (const school of ["南京理工大学", "江南大学", "南京师范大学"])
      w.push(await insertWork(t, { contest: js, school, category: "软件应用与开发", status: "format_passed" }));
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
    const admin = (await t.db.selectFrom("app_user").select("id").where("username", "=", "np_js_admin").executeTakeFirstOrThrow())
      .id;
    await t.db
      .insertInto("result_publication")
      .values({
        contest_id: js,
        published_at: at,
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
    await setStage(t, cn, "registration", -10, 5);
    await setStage(t, cn, "online_judging", -1, 10);
    for (const [i, school] of ["浙江大学", "浙江工业大学", "温州大学", "宁波大学"].entries()) {
      const id = await makeJudge(t, `np_judge${i}`, `国评委${i}`, school, cn);
      judges.push({ id, c: await login(t, `np_judge${i}`) });
    }
  });
  afterAll(() => t?.close());

  it("a promoted work shows in the national contest's format review list, pending; not in the pool yet", async () => {
    const list = await reviewList();
    expect(list.map((x) => x.id)).toEqual(w);
    expect(list.every((x) => x.status === "accepted")).toBe(true);
    expect(list[0]).toMatchObject({ statusName: "国赛已接收" });
    const mine = (await cnReviewer.get(`${R}/contests`)).body.data.find((c: { id: number }) => c.id === cn);
    expect(mine).toMatchObject({ total: 3, pending: 3 });
    // The national contest admin's works list holds them too.
    const admin = (await cnAdmin.get(`/Backend/Admin/work?contestId=${cn}&pageSize=50`)).body.data;
    expect(admin.list.map((x: { id: number }) => x.id).sort()).toEqual([...w].sort());
    expect(await pool()).toEqual([]);
  });

  it("format review of the entry writes the entry; the provincial work stays as it was", async () => {
    const before = await work(w[1]);
    const sheet = await cnReviewer.get(`${R}/work/${w[1]}`);
    expect(sheet.status).toBe(200);
    const r = await cnReviewer.post(`${R}/work/${w[1]}/format_return`, {
      reasonCodes: ["missing_material"],
      reason: "请补交国赛演示视频",
      deadline: inDays(3),
    });
    expect(r.body).toMatchObject({ error: 0, data: { status: "format_returned" } });
    expect(await entry(w[1])).toMatchObject({ format_status: "returned", format_note: "请补交国赛演示视频" });
    expect(await work(w[1])).toEqual(before);
    // The provincial admin is nothing to the national review: it sees and acts on the provincial record only.
    expect((await jsAdmin.get(`${R}/work/${w[0]}`)).body.data.status).toBe("format_passed");
    expect((await jsAdmin.post(`${R}/work/${w[0]}/format_pass`, {})).body.info).toContain("形式审查通过");
    expect((await entry(w[0])).format_status).toBe("pending");
    for (const id of [w[0], w[2]])
      expect((await cnReviewer.post(`${R}/work/${id}/format_pass`, {})).body.data.status).toBe("format_passed");
    expect((await entry(w[0])).format_status).toBe("passed");
    expect((await work(w[0])).status).toBe("format_passed");
    const list = await reviewList();
    expect(list.find((x) => x.id === w[1])!.status).toBe("format_returned");
    // The log names the national contest.
    const log = await t.db
      .selectFrom("work_log")
      .select("changes")
      .where("work_id", "=", w[1])
      .where("action", "=", "format_return")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(log.changes).nationalContest).toEqual([null, cn]);
  });

  it("passed entries are grouped, assigned without conflicts, scored and computed in the national contest", async () => {
    expect((await pool()).sort()).toEqual([w[0], w[2]].sort());
    const g = await cnAdmin.post(`${A}/${cn}/groups`, { name: "国赛软件组", categoryId: soft });
    expect(g.body.error).toBe(0);
    expect((await cnAdmin.post(`${A}/group/${g.body.data.id}/judges`, { userIds: judges.map((j) => j.id) })).status).toBe(200);
    expect((await cnAdmin.post(`${A}/${cn}/group-works/auto`, {})).body.data.grouped).toBe(2);
    expect((await cnAdmin.post(`${A}/${cn}/assign`, {})).body.data).toMatchObject({ applied: true, complete: true, added: 6 });
    const rows = await t.db.selectFrom("judge_assignment").select(["work_id", "judge_id"]).where("contest_id", "=", cn).execute();
    expect(new Set(rows.map((r) => Number(r.work_id)))).toEqual(new Set([w[0], w[2]]));
    // Score every assignment of w[0] and w[2].
    const items = await t.db
      .selectFrom("rubric_item")
      .select(["id", "max_points"])
      .where("category_id", "=", soft)
      .orderBy("sort")
      .execute();
    for (const r of rows) {
      const j = judges.find((x) => x.id === r.judge_id)!;
      const res = await j.c.post(`/Backend/Judge/contest/${cn}/work/${r.work_id}/score/submit`, {
        items: Object.fromEntries(items.map((i) => [String(i.id), Math.floor(Number(i.max_points) * 0.8)])),
        version: 0,
      });
      expect(res.body).toMatchObject({ error: 0 });
    }
    const c = await cnAdmin.post(`/Backend/ContestAdmin/judging/${cn}/results/compute`, {});
    expect(c.body).toMatchObject({ error: 0, data: { works: 2, ranked: 2 } });
    const res = await t.db.selectFrom("contest_result").select("work_id").where("contest_id", "=", cn).execute();
    expect(res.map((r) => Number(r.work_id)).sort()).toEqual([w[0], w[2]].sort());
    // The provincial result is untouched.
    expect((await t.db.selectFrom("contest_result").select("work_id").where("contest_id", "=", js).execute()).length).toBe(3);
  });

  it("the national result is published with its own awards and certificates; complaints go to the national contest", async () => {
    const first = (
      await t.db
        .selectFrom("award_level")
        .select("id")
        .where("contest_level", "=", "national")
        .where("kind", "=", "work")
        .orderBy("sort")
        .executeTakeFirstOrThrow()
    ).id;
    expect((await cnAdmin.req("PATCH", `${A}/${cn}/results/work/${w[0]}`, { awardLevelId: first })).body.error).toBe(0);
    const p = await cnAdmin.post(`${A}/${cn}/results/publish`, { confirmIncomplete: true });
    expect(p.body.error).toBe(0);
    const certs = await t.db
      .selectFrom("certificate")
      .select(["contest_id", "award_level_id"])
      .where("work_id", "=", w[0])
      .where("holder_kind", "=", "author")
      .execute();
    expect(certs.some((c) => c.contest_id === cn && c.award_level_id === first)).toBe(true);
    // A complaint about the work now concerns the national contest's result.
    const facts = await t.db
      .selectFrom("work")
      .innerJoin("contest", "contest.id", "work.contest_id")
      .select(["work.id", "work.contest_id", "contest.level as contest_level", "contest.parent_id as contest_parent_id"])
      .where("work.id", "=", w[0])
      .executeTakeFirstOrThrow();
    expect(await contestOfWork(t.db, { ...facts, id: Number(facts.id) })).toEqual({ contestId: cn, published: true });
  });

  it("a withdrawn entry vanishes from the national review list and pool", async () => {
    const out = (await jsAdmin.get(`${N}/${js}/promoted`)).body.data;
    expect(out).toMatchObject({ nationalContestId: cn, open: true });
    expect(out.entries.map((e: { workId: number }) => e.workId)).toEqual(w);
    expect((await cnAdmin.get(`${N}/${js}/promoted`)).status).toBe(200); // the national admin's scope holds the province
    expect((await (await login(t, "contest_admin")).get(`${N}/${js}/promoted`)).status).toBe(404);
    const r = await jsAdmin.post(`${N}/${js}/promoted/${w[1]}/withdraw`, { reason: "作者放弃参加国赛" });
    expect(r.status).toBe(200);
    expect(
      (await jsAdmin.get(`${N}/${js}/promoted`)).body.data.entries.find((e: { workId: number }) => e.workId === w[1]),
    ).toMatchObject({ status: "withdrawn", withdrawReason: "作者放弃参加国赛" });
    expect((await reviewList()).map((x) => x.id)).toEqual([w[0], w[2]]);
    expect((await cnReviewer.get(`${R}/work/${w[1]}`)).status).toBe(404);
    // w[2] was judged and ranked in the national contest: it can no longer leave (tests/api/national-round.test.ts).
    const judged = await jsAdmin.post(`${N}/${js}/promoted/${w[2]}/withdraw`, { reason: "作者放弃参加国赛" });
    expect(judged.status).toBe(400);
    expect(judged.body.info).toContain("已进入国赛评审");
    expect((await pool()).sort()).toEqual([w[0], w[2]].sort());
    // The provincial work keeps its provincial record for everyone.
    expect((await work(w[1])).status).toBe("format_passed");
  });
});
