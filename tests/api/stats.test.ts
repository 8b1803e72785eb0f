/**
 * The statistics dashboards (issue 32) on both dialects: a generated edition (this year and
 * last year's works, spread over days before the deadline, judging scores, results and
 * complaints), every figure compared with a count made straight from the rows, the scope of
 * a contest admin and a school admin, the roles refused, and the .xlsx export.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { DIALECTS, makeApp, type Client, type TestApp } from "../helpers/app";
import { loadWorkbook } from "../helpers/xlsx";
import { contestId, idOf, login, schoolId } from "./works-fixtures";
import { hashPassword } from "../../src/server/account/password";
import { generateWorks } from "../../src/server/seed/works";
import {
  STATS_DASHBOARDS,
  STATS_PATHS,
  statsExportPath,
  type BreakdownReply,
  type ComplaintStatsReply,
  type PipelineReply,
  type ProgressReply,
  type ScoresReply,
  type SummaryReply,
  type TimelineReply,
} from "../../src/shared/stats/schema";
import { WORK_STATES } from "../../src/shared/work/states";

const YEAR = 2026;
const DAY = 86_400_000;
const bjDate = (iso: string) => new Date(Date.parse(iso) + 8 * 3_600_000).toISOString().slice(0, 10);
const n = (v: unknown) => Number(v);

/** Moves each work's creation and steps to a day before its contest's registration deadline (20 buckets by id). */
async function spread(t: TestApp, year: number) {
  const deadline = (
    await t.db
      .selectFrom("contest_stage")
      .innerJoin("contest", "contest.id", "contest_stage.contest_id")
      .select("contest_stage.ends_at")
      .where("contest.year", "=", year)
      .where("contest.level", "=", "provincial")
      .where("contest_stage.stage", "=", "registration")
      .executeTakeFirstOrThrow()
  ).ends_at;
  const end = Date.parse(deadline);
  for (let b = 0; b < 20; b++) {
    const at = (days: number) => new Date(end - (25 - b - days) * DAY + 3_600_000 * b).toISOString();
    const ids = t.db
      .selectFrom("work")
      .select("work.id")
      .where("work.year", "=", year)
      .where(sql`work.id % 20`, "=", b);
    await t.db
      .updateTable("work")
      .set({ created_at: at(0) })
      .where("year", "=", year)
      .where(sql`id % 20`, "=", b)
      .execute();
    for (const [action, days] of [
      ["submit", 1],
      ["approve", 2],
      ["recommend", 3],
      ["accept", 4],
      ["format_pass", 5],
      ["format_return", 5],
    ] as const)
      await t.db
        .updateTable("work_log")
        .set({ at: at(days) })
        .where("action", "=", action)
        .where("work_id", "in", ids)
        .execute();
  }
}

/** Judge scores, results and complaints in the Zhejiang contest (and a complaint in Jiangsu). */
async function judging(t: TestApp, zj: number, js: number) {
  const now = new Date().toISOString();
  const works = (
    await t.db
      .selectFrom("work")
      .select(["id", "category_id"])
      .where("contest_id", "=", zj)
      .where("status", "=", "format_passed")
      .orderBy("id")
      .limit(12)
      .execute()
  ).map((w) => ({ id: n(w.id), category: w.category_id }));
  expect(works.length).toBe(12);
  const group = await t.db
    .insertInto("judge_group")
    .values({ contest_id: zj, name: "统计测试组", category_id: works[0].category, created_at: now, updated_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  const judges = [await idOf(t, "judge"), await idOf(t, "reviewer"), await idOf(t, "teacher")];
  const offset = [-10, 0, 5];
  for (const [i, w] of works.entries()) {
    await t.db
      .insertInto("judge_group_work")
      .values({ contest_id: zj, group_id: group.id, work_id: w.id, created_at: now })
      .execute();
    for (const [k, judge] of judges.entries()) {
      const a = await t.db
        .insertInto("judge_assignment")
        .values({ contest_id: zj, work_id: w.id, judge_id: judge, group_id: group.id, created_at: now, created_by: null })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (k === 2 && i >= 9) continue; // the third judge has not scored the last three works
      const total = 60 + ((i * 7) % 30) + offset[k] + (i === 0 && k === 2 ? 20 : 0);
      await t.db
        .insertInto("judge_score")
        .values({
          assignment_id: a.id,
          contest_id: zj,
          work_id: w.id,
          judge_id: judge,
          total,
          status: k === 2 && i === 8 ? "draft" : "submitted",
          submitted_at: now,
          created_at: now,
          updated_at: new Date(Date.now() - (k + 1) * 3_600_000).toISOString(),
        })
        .execute();
    }
  }
  // A superseded score (of a replaced judge, no group): kept, not counted.
  const a0 = await t.db
    .insertInto("judge_assignment")
    .values({
      contest_id: zj,
      work_id: works[1].id,
      judge_id: await idOf(t, "arbitrator"),
      group_id: null,
      created_at: now,
      created_by: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await t.db
    .insertInto("judge_score")
    .values({
      assignment_id: a0.id,
      contest_id: zj,
      work_id: works[1].id,
      judge_id: await idOf(t, "arbitrator"),
      total: 1,
      status: "submitted",
      superseded_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const levels = await t.db
    .selectFrom("award_level")
    .select("id")
    .where("contest_level", "=", "provincial")
    .where("kind", "=", "work")
    .orderBy("sort")
    .execute();
  for (const [i, w] of works.entries())
    await t.db
      .insertInto("contest_result")
      .values({
        contest_id: zj,
        work_id: w.id,
        group_id: group.id,
        award_level_id: i < 2 ? levels[0].id : i < 5 ? levels[1].id : null,
        updated_at: now,
      })
      .execute();
  const complaint = (contest: number, work: number, state: string, extra: Record<string, unknown> = {}) => ({
    contest_id: contest,
    work_id: work,
    type: "appeal",
    category: "score",
    state,
    text: "测试",
    filer_name: "测试人",
    created_at: now,
    updated_at: now,
    state_at: now,
    ...extra,
  });
  const past = new Date(Date.now() - DAY).toISOString();
  const jsWork = await t.db.selectFrom("work").select("id").where("contest_id", "=", js).limit(1).executeTakeFirstOrThrow();
  await t.db
    .insertInto("complaint")
    .values([
      complaint(zj, works[0].id, "submitted", { due_at: past }),
      complaint(zj, works[1].id, "decided", { decision_at: now, decision_outcome: "upheld" }),
      complaint(zj, works[2].id, "arbitration_requested", { decision_at: now, decision_outcome: "rejected" }),
      complaint(zj, works[3].id, "closed", {
        decision_at: now,
        decision_outcome: "rejected",
        arb_outcome: "revise",
        arb_revised_outcome: "partly_upheld",
      }),
      complaint(js, n(jsWork.id), "submitted", { due_at: past }),
    ] as never)
    .execute();
  return { group: group.id, works, judges };
}

describe.each(DIALECTS)("statistics dashboards (%s)", (dialect) => {
  let t: TestApp;
  let root: Client, admin: Client, school: Client;
  let zj: number, js: number, zjut: number;
  let seeded: Awaited<ReturnType<typeof judging>>;

  beforeAll(async () => {
    t = await makeApp(dialect);
    const hash = await hashPassword("Seed@2026");
    await generateWorks(t.db, { count: 400, seed: 3, year: YEAR, passwordHash: hash });
    await generateWorks(t.db, { count: 300, seed: 4, year: YEAR - 1, passwordHash: hash });
    await spread(t, YEAR);
    await spread(t, YEAR - 1);
    zj = await contestId(t, "2026-ZJ");
    js = await contestId(t, "2026-JS");
    zjut = await schoolId(t, "浙江工业大学");
    // the school admin's school gets works this year too (its own school contest): move some in
    const zjWorks = await t.db
      .selectFrom("work")
      .select("id")
      .where("contest_id", "=", zj)
      .where("status", "=", "returned")
      .limit(3)
      .execute();
    await t.db
      .updateTable("work")
      .set({ school_id: zjut, return_reason: "材料不全" })
      .where(
        "id",
        "in",
        zjWorks.map((w) => w.id),
      )
      .execute();
    seeded = await judging(t, zj, js);
    // the generated steps name no user: the demo reviewer made this year's format decisions
    await t.db
      .updateTable("work_log")
      .set({ user_id: await idOf(t, "reviewer") })
      .where("action", "in", ["format_pass", "format_return", "format_reject"])
      .execute();
    [root, admin, school] = await Promise.all([login(t, "root"), login(t, "contest_admin"), login(t, "school_admin")]);
  }, 300_000);
  afterAll(() => t?.close());

  /** Works per (contest, status) straight from the table: this year's, of some contests or a school. */
  async function worksBy(w: { contests?: number[]; school?: number }) {
    const rows = await t.db
      .selectFrom("work")
      .select(["contest_id", "status", (eb) => eb.fn.countAll().as("n")])
      .where("year", "=", YEAR)
      .$if(!!w.contests, (q) => q.where("contest_id", "in", w.contests!))
      .$if(w.school !== undefined, (q) => q.where("school_id", "=", w.school!))
      .groupBy(["contest_id", "status"])
      .execute();
    return rows.map((r) => ({ contest: n(r.contest_id), status: r.status as string, n: n(r.n) }));
  }
  const subtree = async (id: number) =>
    (
      await t.db
        .selectFrom("contest")
        .select("id")
        .where((eb) => eb.or([eb("id", "=", id), eb("parent_id", "=", id)]))
        .execute()
    ).map((c) => c.id);

  it("pipeline: every state of every contest equals the rows, for root, the contest admin and the school admin", async () => {
    const zjIds = await subtree(zj);
    const cases: [Client, Parameters<typeof worksBy>[0]][] = [
      [root, {}],
      [admin, { contests: zjIds }],
      [school, { school: zjut }],
    ];
    for (const [c, where] of cases) {
      const r = await c.get(STATS_PATHS.pipeline);
      expect(r.status, r.body.info).toBe(200);
      const d = r.body.data as PipelineReply;
      expect(d.states.map((s) => s.state)).toEqual([...WORK_STATES]);
      const expected = await worksBy(where);
      const got = d.contests.flatMap((x: PipelineReply["contests"][number]) =>
        Object.entries(x.counts)
          .filter(([, v]) => (v as number) > 0)
          .map(([status, v]) => ({ contest: x.contestId, status, n: v })),
      );
      const key = (x: { contest: number; status: string }) => `${x.contest}:${x.status}`;
      expect(got.sort((a, b) => (key(a) < key(b) ? -1 : 1))).toEqual(expected.sort((a, b) => (key(a) < key(b) ? -1 : 1)));
      expect(d.total).toBe(expected.reduce((a: number, x) => a + x.n, 0));
    }
    // the contest admin sees no work of Jiangsu
    const a = (await admin.get(STATS_PATHS.pipeline)).body.data as PipelineReply;
    expect(a.contests.map((c) => c.contestId).every((id: number) => zjIds.includes(id))).toBe(true);
    expect(a.contests.some((c) => c.contestId === js)).toBe(false);
  });

  it("timeline: per day and cumulative equal the rows; last year's curve on days before its deadline", async () => {
    const r = await root.get(STATS_PATHS.timeline);
    expect(r.status, r.body.info).toBe(200);
    const d = r.body.data as TimelineReply;
    const created = new Map<string, number>();
    for (const w of await t.db.selectFrom("work").select("created_at").where("year", "=", YEAR).execute())
      created.set(bjDate(w.created_at), (created.get(bjDate(w.created_at)) ?? 0) + 1);
    const series = (key: string, e: TimelineReply["current"] | null = d.current) => e!.series.find((s) => s.key === key)!;
    expect(Object.fromEntries(series("created").points.map((p) => [p.date, p.count]))).toEqual(Object.fromEntries(created));
    const firstSubmit = await t.db
      .selectFrom("work_log")
      .innerJoin("work", "work.id", "work_log.work_id")
      .select(["work_log.work_id", (eb) => eb.fn.min("work_log.at").as("at")])
      .where("work_log.action", "=", "submit")
      .where("work.year", "=", YEAR)
      .groupBy("work_log.work_id")
      .execute();
    const submitted = series("submitted");
    expect(submitted.total).toBe(firstSubmit.length);
    expect(submitted.points.at(-1)!.cumulative).toBe(firstSubmit.length);
    const perDay = new Map<string, number>();
    for (const s of firstSubmit) perDay.set(bjDate(String(s.at)), (perDay.get(bjDate(String(s.at))) ?? 0) + 1);
    expect(Object.fromEntries(submitted.points.map((p) => [p.date, p.count]))).toEqual(Object.fromEntries(perDay));
    expect(d.current.deadline).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const p of submitted.points)
      expect(p.daysBefore).toBe(Math.round((Date.parse(d.current.deadline!) - Date.parse(p.date)) / DAY));
    expect(d.previous!.year).toBe(YEAR - 1);
    const prevCount = n(
      (
        await t.db
          .selectFrom("work")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("year", "=", YEAR - 1)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(series("created", d.previous).total).toBe(prevCount);
    // both editions spread the same way before their deadlines: the same days before
    expect(series("created", d.previous).points.map((p) => p.daysBefore)).toEqual(
      series("created").points.map((p) => p.daysBefore),
    );
  });

  it("breakdown: provinces, schools and categories equal the rows; the school admin gets the own figures only", async () => {
    const d = (await root.get(STATS_PATHS.breakdown)).body.data as BreakdownReply;
    const rows = await t.db
      .selectFrom("work")
      .innerJoin("school", "school.id", "work.school_id")
      .select(["school.province", (eb) => eb.fn.countAll().as("n")])
      .where("work.year", "=", YEAR)
      .where("work.status", "!=", "draft")
      .groupBy("school.province")
      .execute();
    expect(Object.fromEntries(d.provinces.map((p) => [p.key, p.count]))).toEqual(
      Object.fromEntries(rows.map((r) => [r.province, n(r.n)])),
    );
    const total = rows.reduce((a, r) => a + n(r.n), 0);
    expect(d.total).toBe(total);
    expect(d.categories.reduce((a: number, c) => a + c.count, 0)).toBe(total);
    expect(d.topSchools[0].count).toBeGreaterThanOrEqual(d.topSchools.at(-1)!.count);

    const s = await school.get(STATS_PATHS.breakdown);
    expect(s.status).toBe(200);
    expect(s.body.data.provinces).toEqual([]);
    expect(s.body.data.topSchools).toEqual([]);
    const f = (s.body.data as BreakdownReply).school!;
    const mine = await t.db
      .selectFrom("work")
      .select(["id", "status"])
      .where("year", "=", YEAR)
      .where("school_id", "=", zjut)
      .execute();
    expect(f.works).toBe(mine.length);
    expect(f.returnedBySchool).toBe(mine.filter((w) => w.status === "returned").length);
    const students = await t.db
      .selectFrom("work_author")
      .select(sql<number>`count(distinct user_id)`.as("n"))
      .where(
        "work_id",
        "in",
        mine.map((w) => w.id),
      )
      .executeTakeFirstOrThrow();
    expect(f.students).toBe(n(students.n));
    expect(f.reasons.find((x) => x.reason === "材料不全")?.count).toBe(3);
    expect(s.body.data.total).toBe(mine.filter((w) => w.status !== "draft").length);
  });

  it("progress: judges' started/finished and groups' share equal the rows, stragglers first", async () => {
    const r = await admin.get(STATS_PATHS.progress);
    expect(r.status, r.body.info).toBe(200);
    const d = r.body.data as ProgressReply;
    const g = d.groups.find((x) => x.groupId === seeded.group)!;
    expect(g).toMatchObject({ works: 12, expected: 36, submitted: 32 });
    expect(g.share).toBeCloseTo(32 / 36);
    const third = d.judges.find((j) => j.judgeId === seeded.judges[2])!;
    expect(third).toMatchObject({ assigned: 12, started: 9, finished: 8 });
    const order = d.judges.map((j) => j.judgeId);
    expect(order.indexOf(seeded.judges[2])).toBeLessThan(order.indexOf(seeded.judges[0]));
    const done = d.judges.map((j) => (j.assigned ? j.finished / j.assigned : 1));
    expect(done).toEqual([...done].sort((a: number, b: number) => a - b));
    const zjIds = await subtree(zj);
    const status = await worksBy({ contests: zjIds });
    const passed = status.filter((x) => x.status === "format_passed").reduce((a, x) => a + x.n, 0);
    expect(d.formatReview.passed).toBe(passed);
    const logged = await t.db
      .selectFrom("work_log")
      .innerJoin("work", "work.id", "work_log.work_id")
      .select(["work_log.action", sql<number>`count(distinct work_log.work_id)`.as("n")])
      .where("work.year", "=", YEAR)
      .where("work.contest_id", "in", zjIds)
      .where("work_log.action", "in", ["format_pass", "format_return", "format_reject"])
      .groupBy("work_log.action")
      .execute();
    const by = Object.fromEntries(logged.map((l) => [l.action, n(l.n)]));
    expect(d.formatReview.reviewers).toHaveLength(1);
    expect(d.formatReview.reviewers[0]).toMatchObject({
      userId: await idOf(t, "reviewer"),
      passed: by.format_pass ?? 0,
      returned: by.format_return ?? 0,
      rejected: by.format_reject ?? 0,
    });
    expect(by.format_pass).toBeGreaterThan(0);
    // the school admin: counts of the own works only, no names
    const s = (await school.get(STATS_PATHS.progress)).body.data as ProgressReply;
    expect(s.judges).toEqual([]);
    expect(s.formatReview.reviewers).toEqual([]);
  });

  it("scores: distribution, severity from the normalisation, flags and awards equal the rows", async () => {
    const d = (await admin.get(STATS_PATHS.scores)).body.data as ScoresReply;
    const g = d.groups.find((x) => x.groupId === seeded.group)!;
    const totals = (
      await t.db
        .selectFrom("judge_score")
        .select("total")
        .where("contest_id", "=", zj)
        .where("status", "=", "submitted")
        .where("superseded_at", "is", null)
        .execute()
    ).map((s) => Number(s.total));
    expect(g.scores).toBe(totals.length);
    expect(g.box!.min).toBe(Math.min(...totals));
    expect(g.box!.max).toBe(Math.max(...totals));
    expect(g.bins.reduce((a: number, b) => a + b.count, 0)).toBe(totals.length);
    const harsh = d.judges.find((j) => j.judgeId === seeded.judges[0])!;
    const lenient = d.judges.find((j) => j.judgeId === seeded.judges[1])!;
    expect(harsh.effect).toBeLessThan(lenient.effect);
    expect(d.judges[0].effect).toBeLessThanOrEqual(d.judges.at(-1)!.effect);
    expect(d.flags.map((f) => f.workId)).toContain(seeded.works[0].id);
    const awarded = d.awards.filter((a) => a.contestId === zj);
    expect(awarded.reduce((a: number, x) => a + x.count, 0)).toBe(5);
    const s = (await school.get(STATS_PATHS.scores)).body.data as ScoresReply;
    expect(s.judges).toEqual([]);
  });

  it("complaints: filed, decided, upheld, arbitration and overdue per contest equal the rows", async () => {
    const d = (await root.get(STATS_PATHS.complaints)).body.data as ComplaintStatsReply;
    const z = d.contests.find((c) => c.contestId === zj)!;
    expect(z).toMatchObject({ filed: 4, decided: 3, upheld: 2, inArbitration: 1, overdue: 1, open: 3 });
    expect(d.totals.filed).toBe(5);
    const a = (await admin.get(STATS_PATHS.complaints)).body.data as ComplaintStatsReply;
    expect(a.contests.map((c) => c.contestId)).toEqual([zj]);
    expect(a.totals.filed).toBe(4);
  });

  it("summary: three figures per admin role, equal to the rows", async () => {
    const r = (await root.get(STATS_PATHS.summary)).body.data as SummaryReply;
    expect(r.figures.map((f) => f.key)).toEqual(["submitted", "formatPending", "complaintsOverdue"]);
    const submitted = n(
      (
        await t.db
          .selectFrom("work")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("year", "=", YEAR)
          .where("submitted_at", "is not", null)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(r.figures[0].value).toBe(submitted);
    expect(r.figures[2]).toMatchObject({ value: 2, compare: 4 });
    const a = (await admin.get(STATS_PATHS.summary)).body.data as SummaryReply;
    expect(a.figures.map((f) => f.key)).toEqual(["received", "formatPending", "scoresIn"]);
    // 36 assignments of the group and the replaced judge's one (its score superseded: not in)
    expect(a.figures[2]).toMatchObject({ value: 32, compare: 37 });
    const s = (await school.get(STATS_PATHS.summary)).body.data as SummaryReply;
    expect(s.figures.map((f) => f.key)).toEqual(["submitted", "schoolReview", "returned"]);
  });

  it("refuses a school admin's province or other school, a contest admin's other contest, and every other role", async () => {
    const other = await schoolId(t, "浙江大学");
    for (const url of [
      `${STATS_PATHS.breakdown}?province=${encodeURIComponent("浙江省")}`,
      `${STATS_PATHS.pipeline}?schoolId=${other}`,
    ]) {
      const r = await school.get(url);
      expect(r.status).toBe(403);
      expect(r.body.info).toBe("学校管理员只能查看本校的统计");
    }
    const r = await admin.get(`${STATS_PATHS.pipeline}?contestId=${js}`);
    expect(r.status).toBe(403);
    expect(r.body.info).toBe("只能查看您管理的赛事的统计");
    for (const username of ["reviewer", "judge", "complaint_reviewer", "complaint_admin", "arbitrator", "teacher", "student"]) {
      const c = await login(t, username);
      for (const path of [...Object.values(STATS_PATHS), statsExportPath("pipeline")])
        expect((await c.get(path)).status, `${username} ${path}`).toBe(403);
    }
    const anon = await new (root.constructor as typeof Client)(t).get(STATS_PATHS.pipeline);
    expect(anon.status).toBe(401);
  });

  it("a write to the works ends the cached figures", async () => {
    const before = (await root.get(STATS_PATHS.pipeline)).body.data as PipelineReply;
    const w = await t.db
      .selectFrom("work")
      .select("id")
      .where("year", "=", YEAR)
      .where("status", "=", "submitted")
      .limit(1)
      .executeTakeFirstOrThrow();
    await t.db.updateTable("work").set({ status: "school_approved" }).where("id", "=", w.id).execute();
    const after = (await root.get(STATS_PATHS.pipeline)).body.data as PipelineReply;
    expect(after.totals.submitted).toBe(before.totals.submitted - 1);
    expect(after.totals.school_approved).toBe(before.totals.school_approved + 1);
    await t.db.updateTable("work").set({ status: "submitted" }).where("id", "=", w.id).execute();
  });

  it("exports every dashboard as .xlsx holding the same figures", async () => {
    for (const name of STATS_DASHBOARDS) {
      const r = await admin.get(statsExportPath(name));
      expect(r.status, name).toBe(200);
      expect(r.res.headers["content-disposition"]).toContain("filename*=UTF-8''");
      const wb = await loadWorkbook(r.res.rawPayload);
      expect(wb.worksheets.length).toBeGreaterThan(0);
    }
    const d = (await admin.get(STATS_PATHS.pipeline)).body.data as PipelineReply;
    const wb = await loadWorkbook((await admin.get(statsExportPath("pipeline"))).res.rawPayload);
    const ws = wb.getWorksheet("各状态作品数")!;
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(["赛事", ...d.states.map((s) => s.name), "合计"]);
    const last = (ws.getRow(ws.rowCount).values as unknown[]).slice(1);
    expect(last).toEqual(["合计", ...d.states.map((s) => d.totals[s.state]), d.total]);
    const c = await loadWorkbook((await root.get(statsExportPath("complaints"))).res.rawPayload);
    const rows = c.getWorksheet("申诉")!;
    expect((rows.getRow(rows.rowCount).values as unknown[]).slice(1)).toEqual(["合计", 5, 3, 2, 1, 2, 4]);
  });
});
