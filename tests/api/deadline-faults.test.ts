/**
 * Faults of a deadline day (issue 30), on both dialects: a double-clicked submit makes one
 * submission; a save that loses a race to a co-author's save is refused with 作品已被他人修改
 * and the newer version, never silently overwritten; an overloaded server answers 503 with a
 * Chinese message and Retry-After (the probes and /metrics still answer) and recovers when
 * the load drops (src/server/plugins/overload.ts).
 */
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, makeApp, ORIGIN, type TestApp } from "../helpers/app";
import { account, catId, contestId, logOf, login, makeWork, statusOf, W } from "./works-fixtures";

const BUSY = "服务器繁忙，请稍后重试";

describe.each(DIALECTS)("deadline faults on %s", (dialect) => {
  let t: TestApp;
  let zjut: number, soft: number;
  beforeAll(async () => {
    t = await makeApp(dialect);
    zjut = await contestId(t, "2026-ZJ-10337");
    soft = await catId(t, "软件应用与开发");
  });
  afterAll(async () => t?.close());

  it("a double-clicked submit: one state change and one log entry, both clicks told the work is submitted", async () => {
    const a = await account(t, "dbl_a", "双击同学");
    const b = await account(t, "dbl_d", "同组同学");
    const id = await makeWork(t, a, { contest: zjut, category: soft, name: "双击提交作品", coAuthors: [b] });
    const { version } = await statusOf(t, id);
    const [one, two] = await Promise.all([a.post(`${W}/${id}/submit`, { version }), a.post(`${W}/${id}/submit`, { version })]);
    for (const r of [one, two]) {
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ error: 0, info: "作品已提交，等待学校审核", data: { id, status: "submitted" } });
    }
    expect(await statusOf(t, id)).toEqual({ status: "submitted", version: version + 1 });
    expect((await logOf(t, id)).filter((e) => e.action === "submit")).toHaveLength(1);
    // A third click later is the same answer, and still nothing changes.
    expect((await a.post(`${W}/${id}/submit`, {})).body).toMatchObject({ error: 0, data: { status: "submitted" } });
    expect((await statusOf(t, id)).version).toBe(version + 1);
    expect((await logOf(t, id)).filter((e) => e.action === "submit")).toHaveLength(1);
  });

  it("a repeated submit is not idempotent for someone else: a co-author is still refused", async () => {
    const a = await account(t, "dbl_b", "提交同学");
    const b = await account(t, "dbl_c", "合作同学");
    const id = await makeWork(t, a, { contest: zjut, category: soft, name: "他人提交作品", coAuthors: [b] });
    expect((await a.post(`${W}/${id}/submit`, {})).status).toBe(200);
    expect((await b.post(`${W}/${id}/submit`, {})).body).toMatchObject({ error: 403, info: "您不能对该作品执行「提交」" });
  });

  it("two saves from the same version: one wins, the other gets 409 作品已被他人修改 with the newer version", async () => {
    const a = await account(t, "race_a", "赛跑同学");
    const id = await makeWork(t, a, { contest: zjut, category: soft, name: "并发保存作品", teachers: ["teacher"] });
    const teacher = await login(t, "teacher");
    const { version } = await statusOf(t, id);
    const [byAuthor, byTeacher] = await Promise.all([
      a.req("PATCH", `${W}/${id}`, { version, summary: "第一作者的新简介" }),
      teacher.req("PATCH", `/Backend/Teacher/work/${id}/review`, { version, teacherReview: "老师的自评" }),
    ]);
    const won = [byAuthor, byTeacher].filter((r) => r.status === 200);
    const lost = [byAuthor, byTeacher].filter((r) => r.status !== 200);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const refused = lost[0];
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(409);
    expect(refused.body.info).toMatch(/^作品已被他人修改/);
    // The newer version, as the refused user may see it: the winner's change is in it.
    expect(refused.body.data.work.version).toBe(version + 1);
    expect(refused.body.data.work.id).toBe(id);
    const row = await t.db
      .selectFrom("work")
      .select(["summary", "teacher_review", "version"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.version).toBe(version + 1);
    if (won[0] === byAuthor) {
      expect(refused.body.data.work.summary).toBe("第一作者的新简介");
      expect(row).toMatchObject({ summary: "第一作者的新简介", teacher_review: null });
    } else {
      expect(row.teacher_review).toBe("老师的自评");
      expect(row.summary).not.toBe("第一作者的新简介");
    }
  });

  it("the first author's two tabs: the stale tab's save is refused with the other tab's text, nothing overwritten", async () => {
    const a = await account(t, "race_b", "两页同学");
    const id = await makeWork(t, a, { contest: zjut, category: soft, name: "两个标签页作品" });
    const { version } = await statusOf(t, id);
    expect((await a.req("PATCH", `${W}/${id}`, { version, designIdea: "标签页一的思路" })).status).toBe(200);
    const stale = await a.req("PATCH", `${W}/${id}`, { version, designIdea: "标签页二的思路" });
    expect(stale.status).toBe(409);
    expect(stale.body.info).toMatch(/^作品已被他人修改/);
    expect(stale.body.data.work).toMatchObject({ id, version: version + 1, designIdea: "标签页一的思路" });
    const row = await t.db.selectFrom("work").select("design_idea").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.design_idea).toBe("标签页一的思路");
  });
});

/** The value of saiwu_overload_refusals_total for `reason` in the app's /metrics text. */
async function overloadRefusals(t: TestApp, reason: "in_flight" | "event_loop") {
  const res = await t.app.inject({ method: "GET", url: "/metrics" });
  expect(res.statusCode).toBe(200);
  const line = res.body.split("\n").find((l) => l.startsWith(`saiwu_overload_refusals_total{reason="${reason}"} `));
  expect(line, `saiwu_overload_refusals_total{reason="${reason}"}`).toBeDefined();
  return Number(line!.split(" ")[1]);
}

describe.each(DIALECTS)("overload on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp(dialect, {
      seed: false,
      env: { OVERLOAD_MAX_IN_FLIGHT: "2", OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: "0" },
    });
  });
  afterAll(async () => t?.close());

  const news = () => t.app.inject({ method: "GET", url: "/Backend/Public/news" });
  /** A request kept in flight: its body arrives only when `end` is called. */
  function held() {
    const body = new PassThrough();
    const reply = t.app.inject({
      method: "POST",
      url: "/Backend/Common/account/login",
      headers: { "content-type": "application/json", origin: ORIGIN, host: "localhost:80" },
      payload: body,
    });
    body.write('{"username":"nobody",');
    return { reply, end: () => body.end('"password":"Wrong1234","page":"student"}') };
  }

  it("over the in-flight limit: 503 in Chinese with Retry-After; probes and metrics answer; served again once the load drops", async () => {
    expect((await news()).statusCode).toBe(200);
    // Both reasons' series exist from the start, at 0.
    expect(await overloadRefusals(t, "in_flight")).toBe(0);
    expect(await overloadRefusals(t, "event_loop")).toBe(0);
    const first = held();
    const second = held();
    // Let both requests reach the server before the next one.
    await new Promise((r) => setTimeout(r, 50));
    const refused = await news();
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ error: 503, info: BUSY, data: { retryAfter: 5 } });
    expect(refused.headers["retry-after"]).toBe("5");
    expect((await news()).statusCode).toBe(503);
    // Each refusal counted under its reason in /metrics.
    expect(await overloadRefusals(t, "in_flight")).toBe(2);
    expect(await overloadRefusals(t, "event_loop")).toBe(0);
    // The load balancer's probes and the monitoring scrape are never refused.
    for (const url of ["/healthz", "/readyz", "/metrics"])
      expect((await t.app.inject({ method: "GET", url })).statusCode, url).toBe(200);
    first.end();
    second.end();
    for (const r of await Promise.all([first.reply, second.reply])) expect(r.statusCode).toBe(401);
    const again = await news();
    expect(again.statusCode).toBe(200);
    expect(again.json().error).toBe(0);
  });
});

describe("overload: a blocked event loop", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp("sqlite", {
      seed: false,
      env: { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: "300", OVERLOAD_SAMPLE_MS: "250", OVERLOAD_RETRY_AFTER_SECONDS: "3" },
    });
  });
  afterAll(async () => t?.close());

  const news = () => t.app.inject({ method: "GET", url: "/Backend/Public/news" });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  const block = (ms: number) => {
    const until = Date.now() + ms;
    while (Date.now() < until);
  };

  it("one long stall is no overload; a loop that keeps lagging is refused with 503, then served again", async () => {
    block(1_500); // e.g. a start-up or one large synchronous task
    expect((await news()).statusCode).toBe(200);
    await sleep(300);
    expect((await news()).statusCode).toBe(200);
    // The loop kept busy: 400 ms of every 410, as a server over capacity is.
    const burner = setInterval(() => block(400), 10);
    let refused;
    try {
      for (let i = 0; i < 100 && !refused; i++) {
        const r = await news();
        if (r.statusCode === 503) refused = r;
        else await sleep(10);
      }
    } finally {
      clearInterval(burner);
    }
    expect(refused?.json()).toEqual({ error: 503, info: BUSY, data: { retryAfter: 3 } });
    expect(refused?.headers["retry-after"]).toBe("3");
    expect(await overloadRefusals(t, "event_loop")).toBeGreaterThanOrEqual(1);
    expect(await overloadRefusals(t, "in_flight")).toBe(0);
    expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    let served = false;
    for (let i = 0; i < 200 && !served; i++) {
      served = (await news()).statusCode === 200;
      if (!served) await sleep(50);
    }
    expect(served).toBe(true);
  });
});
