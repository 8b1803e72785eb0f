/**
 * The demo's national round end to end (issue 14: "a work goes from a school contest to the
 * national result in the demo without hand-made data"): from the state `npm start` seeds — works
 * recommended by their schools' 校级赛 to the Zhejiang contest, the Zhejiang result published and promoting its awarded works into the national contest, the
 * national judges and settings of national-demo.ts — the demo users drive the API the screens
 * use: national_admin passes format review, forms a group of the seeded national judges, groups
 * and assigns the works (no conflicts), the judges score them, the admin computes, allocates
 * awards and publishes; the national awards show in the public 获奖名单 and on the work's page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, makeApp, type Client, type TestApp } from "../helpers/app";
import { login } from "./works-fixtures";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { NATIONAL_DEMO_JUDGES, seedNationalDemo } from "../../src/server/seed/national-demo";

const R = "/Backend/Review";
const A = "/Backend/ContestAdmin/judging";
const N = "/Backend/ContestAdmin/national";

describe.each(DIALECTS)("the demo national round on %s", (dialect) => {
  let t: TestApp;
  let cn: number;
  let admin: Client;
  let entries: number[] = [];

  beforeAll(async () => {
    t = await makeApp(dialect);
    // What `npm start` seeds after seedDemo (src/server/serve.ts).
    expect(await seedResultsDemo(t.db)).toBe(true);
    expect(await seedComplaintsDemo(t.db)).toBe(true);
    expect(await seedNationalDemo(t.db)).toBe(true);
    cn = (
      await t.db
        .selectFrom("contest")
        .select("id")
        .where("level", "=", "national")
        .where("archived", "=", 0)
        .orderBy("year", "desc")
        .executeTakeFirstOrThrow()
    ).id;
    admin = await login(t, "national_admin");
  });
  afterAll(() => t?.close());

  it("the promoted works came up from their schools' 校级赛: approved and recommended by the school, then judged in the province", async () => {
    const promoted = await t.db
      .selectFrom("national_entry")
      .innerJoin("work", "work.id", "national_entry.work_id")
      .innerJoin("contest", "contest.id", "work.contest_id")
      .innerJoin("contest as p", "p.id", "contest.parent_id")
      .select([
        "work.id",
        "work.school_id",
        "contest.level",
        "contest.school_id as contest_school",
        "p.level as parent_level",
        "p.province",
      ])
      .where("national_entry.contest_id", "=", cn)
      .execute();
    expect(promoted.length).toBeGreaterThanOrEqual(3);
    for (const w of promoted)
      expect(w).toMatchObject({ level: "school", contest_school: w.school_id, parent_level: "provincial", province: "浙江省" });
    // The log shows each step, by whom it is expected to be taken.
    const log = await t.db
      .selectFrom("work_log")
      .innerJoin("app_user", "app_user.id", "work_log.user_id")
      .select(["work_log.action", "app_user.user_type", "app_user.school_id"])
      .where("work_log.work_id", "=", Number(promoted[0].id))
      .orderBy("work_log.id")
      .execute();
    expect(log.map((l) => l.action)).toEqual([
      "create",
      "submit",
      "approve",
      "recommend",
      "accept",
      "format_pass",
      "national_enter",
    ]);
    expect(
      log
        .filter((l) => l.action === "approve" || l.action === "recommend")
        .every((l) => l.user_type === 2 && l.school_id === promoted[0].school_id),
    ).toBe(true);
    // Before the national result: the author's page shows the school and provincial rounds and the national entry.
    const author = (
      await t.db
        .selectFrom("work_author")
        .innerJoin("app_user", "app_user.id", "work_author.user_id")
        .select("app_user.username")
        .where("work_author.work_id", "=", Number(promoted[0].id))
        .orderBy("rank")
        .executeTakeFirstOrThrow()
    ).username;
    const rounds = (await (await login(t, author)).get(`/Backend/Work/work/${promoted[0].id}`)).body.data.rounds as {
      level: string;
      text: string;
    }[];
    expect(rounds.map((r) => r.level)).toEqual(["校赛", "省赛", "国赛"]);
    expect(rounds[0].text).toMatch(/校级赛」推荐至省赛$/);
    expect(rounds[1].text).toMatch(/^.等奖，推荐晋级国赛$/);
    expect(rounds[2].text).toMatch(/^已进入「.+」（待形式审查）$/);
  });

  it("national_admin sees the promoted Zhejiang works waiting for format review and passes them", async () => {
    const incoming = (await admin.get(`${N}/${cn}/incoming`)).body.data as {
      province: string;
      entries: { workId: number; status: string }[];
    }[];
    expect(incoming.map((p) => p.province)).toEqual(["浙江省"]);
    entries = incoming[0].entries.filter((e) => e.status === "entered").map((e) => e.workId);
    expect(entries.length).toBeGreaterThanOrEqual(3);
    const list = (await admin.get(`${R}/contest/${cn}/works?status=pending&pageSize=50`)).body.data.list as {
      id: number;
      statusName: string;
    }[];
    expect(list.map((x) => x.id).sort()).toEqual([...entries].sort());
    expect(list.every((x) => x.statusName === "国赛已接收")).toBe(true);
    for (const id of entries)
      expect((await admin.post(`${R}/work/${id}/format_pass`, {})).body).toMatchObject({
        error: 0,
        data: { status: "format_passed" },
      });
    expect((await admin.get(`${A}/${cn}/works?pageSize=100`)).body.data.list.map((x: { id: number }) => x.id).sort()).toEqual(
      [...entries].sort(),
    );
  });

  it("forms a group of the seeded national judges, groups and assigns every work without conflicts", async () => {
    const settings = (await admin.get(`${A}/${cn}/settings`)).body.data;
    expect(settings).toMatchObject({ reviewsPerWork: 3, avoidProvince: true });
    const judges = (await admin.get(`${A}/${cn}/judges`)).body.data as { id: number; name: string }[];
    expect(judges.map((j) => j.name).sort()).toEqual(NATIONAL_DEMO_JUDGES.map((j) => j.name).sort());
    const cats = await t.db.selectFrom("work").select("category_id").where("id", "in", entries).groupBy("category_id").execute();
    for (const c of cats) {
      const name = (
        await t.db.selectFrom("work_category").select("name").where("id", "=", c.category_id).executeTakeFirstOrThrow()
      ).name;
      const g = await admin.post(`${A}/${cn}/groups`, { name: `国赛${name}组`, categoryId: c.category_id });
      expect(g.body.error).toBe(0);
      expect((await admin.post(`${A}/group/${g.body.data.id}/judges`, { userIds: judges.map((j) => j.id) })).body.error).toBe(0);
    }
    expect((await admin.post(`${A}/${cn}/group-works/auto`, {})).body.data).toMatchObject({
      grouped: entries.length,
      unmatched: [],
    });
    const a = await admin.post(`${A}/${cn}/assign`, {});
    expect(a.body.data).toMatchObject({ applied: true, complete: true, added: entries.length * 3 });
  });

  it("the national judges score their works in the open 网络评审", async () => {
    for (const j of NATIONAL_DEMO_JUDGES) {
      const c = await login(t, j.username);
      const mine = (await c.get(`/Backend/Judge/contest/${cn}/works`)).body.data as { id: number }[];
      expect(mine.length).toBeGreaterThan(0);
      for (const w of mine) {
        const view = (await c.get(`/Backend/Judge/contest/${cn}/work/${w.id}`)).body.data;
        const share = 0.6 + ((w.id % 7) + Number(j.username.slice(-1))) / 40;
        const items = Object.fromEntries(
          view.rubric.items.map((i: { id: number; maxPoints: number }) => [String(i.id), Math.floor(i.maxPoints * share)]),
        );
        expect(
          (await c.post(`/Backend/Judge/contest/${cn}/work/${w.id}/score/submit`, { items, version: 0 })).body,
        ).toMatchObject({ error: 0 });
      }
    }
  });

  it("computes, allocates and publishes the national result: awards in 获奖名单 and on the author's work page", async () => {
    expect((await admin.post(`${A}/${cn}/results/compute`, {})).body).toMatchObject({
      error: 0,
      data: { works: entries.length, ranked: entries.length },
    });
    // The national contest is the highest: no 推荐晋级 (issue 29).
    expect((await admin.post(`${A}/${cn}/results/promote`, {})).body).toMatchObject({
      error: 422,
      info: "国赛是最高级别的赛事，没有可晋级的上级赛事，不能推荐晋级",
    });
    const alloc = await admin.post(`${A}/${cn}/results/allocate`, {});
    expect(alloc.body.error).toBe(0);
    // Fewer than 10 works: ⌊n × 10%⌋ gives no 一等奖, and the admin is told so (issue 29).
    const groups = alloc.body.data.groups as { name: string; works: number }[];
    expect(groups.every((g) => g.works < 10)).toBe(true);
    expect(alloc.body.data.warnings).toHaveLength(groups.length);
    for (const [i, g] of groups.entries())
      expect(alloc.body.data.warnings[i]).toContain(`「${g.name}」共 ${g.works} 件作品，一等奖（⌊${g.works} × 10%⌋ = 0）`);
    expect(alloc.body.info).toContain("注意：");
    const p = await admin.post(`${A}/${cn}/results/publish`, { note: "国赛结果公示（演示）" });
    expect(p.body).toMatchObject({ error: 0 });
    const pub = (await admin.get(`/Backend/Public/mainpage/results?contestId=${cn}&pageSize=50`)).body.data as {
      list: { workId: number; awardName: string; contestId: number }[];
    };
    expect(pub.list.length).toBeGreaterThan(0);
    expect(pub.list.every((r) => entries.includes(r.workId) && r.contestId === cn)).toBe(true);
    // The first-ranked work's author sees all three levels on the work page, the national award last.
    const top = pub.list[0];
    const username = (
      await t.db
        .selectFrom("work_author")
        .innerJoin("app_user", "app_user.id", "work_author.user_id")
        .select("app_user.username")
        .where("work_author.work_id", "=", top.workId)
        .orderBy("rank")
        .executeTakeFirstOrThrow()
    ).username;
    const rounds = (await (await login(t, username)).get(`/Backend/Work/work/${top.workId}`)).body.data.rounds as {
      level: string;
      text: string;
    }[];
    expect(rounds.map((r) => r.level)).toEqual(["校赛", "省赛", "国赛"]);
    expect(rounds[2].text).toBe(top.awardName);
  });
});
