/**
 * Complaints and arbitration through the API, on a published Jiangsu result (fixtures):
 * filing (visitor with the mailed code, logged-in 申诉 and 投诉) and its refusals, the state
 * machine row by row with forged steps refused and nothing changed, the decision actions
 * and their effect on the published result, arbitration and root's confirmation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { multipart } from "../helpers/multipart";
import { COMPLAINT_TRANSITIONS } from "../../src/shared/complaint/states";
import { insertUser, joinContest } from "./judging-fixtures";
import { contestId, login } from "./works-fixtures";
import { submitScores } from "./results-fixtures";
import { sendReminders } from "../../src/server/complaint/reminders";
import { A, authorOf, F, M, PUB, publishedContest, TEXT, verifiedVisitor, type Fixture } from "./complaints-fixtures";

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40, 3)]);

describe.each(DIALECTS)("complaints on %s", (dialect) => {
  let t: TestApp;
  let f: Fixture;
  const state = async (id: number) =>
    t.db.selectFrom("complaint").select(["state", "version"]).where("id", "=", id).executeTakeFirstOrThrow();
  const historyCount = async (id: number) =>
    Number(
      (
        await t.db
          .selectFrom("complaint_history")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("complaint_id", "=", id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const lookup = async (workId: number) => {
    const a = await t.db
      .selectFrom("work_author")
      .innerJoin("app_user", "app_user.id", "work_author.user_id")
      .select("app_user.name")
      .where("work_author.work_id", "=", workId)
      .where("work_author.rank", "=", 1)
      .executeTakeFirstOrThrow();
    return (await new Client(t).post("/Backend/Public/query-work", { workId, authorName: a.name })).body.data;
  };
  /** A logged-in student of another school files a 投诉 about the work. */
  let complainantN = 0;
  const fileAsStudent = async (workId: number) => {
    const n = ++complainantN;
    await insertUser(t, { username: `cp${n}`, name: `投诉人${n}`, role: 100, school: "苏州大学" });
    const c = await login(t, `cp${n}`);
    const r = await c.post(`${F}/mine`, { type: "complaint", workId, category: "plagiarism", text: TEXT });
    expect(r.body.error, r.body.info).toBe(0);
    return { c, id: r.body.data.id as number };
  };

  beforeAll(async () => {
    t = await makeApp(dialect);
    f = await publishedContest(t);
  });
  afterAll(async () => t?.close());

  it("a visitor files a 投诉 with the mailed code and evidence; a second open one on the work is refused", async () => {
    const { client, token } = await verifiedVisitor(t, "visitor@example.com");
    // The code is used up.
    const again = await client.post(`${PUB}/verify`, { email: "visitor@example.com", code: "000000" });
    expect(again.body.error).toBe(400);
    const m = multipart([
      { name: "token", value: token },
      { name: "file", filename: "截图.png", content: PNG },
    ]);
    const ev = await client.req("POST", `${PUB}/evidence`, m.body, m.headers);
    expect(ev.status, ev.body.info).toBe(201);
    const bad = multipart([
      { name: "token", value: token },
      { name: "file", filename: "run.exe", content: PNG },
    ]);
    expect((await client.req("POST", `${PUB}/evidence`, bad.body, bad.headers)).status).toBe(422);
    const filed = await client.post(PUB, {
      token,
      workId: f.w[0],
      category: "plagiarism",
      text: `${TEXT}<script>alert(1)</script>`,
      name: "王公众",
      phone: "13912345678",
      evidence: [ev.body.data.id],
    });
    expect(filed.status, filed.body.info).toBe(201);
    expect(filed.body.data).toMatchObject({ state: "submitted", type: "complaint", relation: "filer", workId: f.w[0] });
    expect(filed.body.data.text).not.toContain("script");
    expect(filed.body.data.evidence).toHaveLength(1);
    const dup = await client.post(PUB, {
      token,
      workId: f.w[0],
      category: "repeat_entry",
      text: TEXT,
      name: "王公众",
      phone: "13912345678",
    });
    expect(dup.body).toMatchObject({ error: 400 });
    expect(dup.body.info).toContain("未结案");
    const mine = await client.post(`${PUB}/mine`, { token });
    expect(mine.body.data.map((x: { id: number }) => x.id)).toEqual([filed.body.data.id]);
    // A visitor may not file a 申诉 (the schema has no type; a forged token is refused).
    expect((await client.post(`${PUB}/mine`, { token: "x".repeat(43) })).status).toBe(401);
  });

  it("refuses a 投诉 about a work not in a published result, one's own work, and outside the window (with its dates)", async () => {
    const other = await t.db
      .selectFrom("work")
      .select("id")
      .where("status", "!=", "draft")
      .where("contest_id", "!=", f.js)
      .executeTakeFirstOrThrow();
    const s = await login(t, "student");
    const notPublished = await s.post(`${F}/mine`, {
      type: "complaint",
      workId: Number(other.id),
      category: "plagiarism",
      text: TEXT,
    });
    expect(notPublished.body.error).toBeGreaterThan(0);
    const author = await authorOf(t, f.w[1]);
    const own = await author.client.post(`${F}/mine`, { type: "complaint", workId: f.w[1], category: "plagiarism", text: TEXT });
    expect(own.body).toMatchObject({ error: 400 });
    expect(own.body.info).toContain("不能投诉自己");
    // Someone else's work as 申诉: only the work's authors and teachers.
    expect((await s.post(`${F}/mine`, { type: "appeal", workId: f.w[1], category: "score", text: TEXT })).body.error).toBe(403);
    // Outside the window: refused with the dates, nothing written.
    const before = Number(
      (
        await t.db
          .selectFrom("complaint")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const stage = await t.db
      .selectFrom("contest_stage")
      .selectAll()
      .where("contest_id", "=", f.js)
      .where("stage", "=", "publicity")
      .executeTakeFirstOrThrow();
    const past = {
      starts_at: new Date(Date.now() - 20 * 86_400_000).toISOString(),
      ends_at: new Date(Date.now() - 10 * 86_400_000).toISOString(),
    };
    await t.db.updateTable("contest_stage").set(past).where("id", "=", stage.id).execute();
    const closed = await author.client.post(`${F}/mine`, { type: "appeal", workId: f.w[1], category: "score", text: TEXT });
    await t.db
      .updateTable("contest_stage")
      .set({ starts_at: stage.starts_at, ends_at: stage.ends_at })
      .where("id", "=", stage.id)
      .execute();
    expect(closed.body.error).toBe(400);
    expect(closed.body.info).toMatch(/公示期 \d{4}-\d\d-\d\d \d\d:\d\d 至 \d{4}-\d\d-\d\d \d\d:\d\d/);
    expect(
      Number(
        (
          await t.db
            .selectFrom("complaint")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(before);
    // Inside the window the author's 申诉 is accepted.
    const appeal = await author.client.post(`${F}/mine`, { type: "appeal", workId: f.w[1], category: "score", text: TEXT });
    expect(appeal.status, appeal.body.info).toBe(201);
  });

  it("walks the state machine row by row: every step by its actor, wrong actors 403, forged steps 400 with nothing changed", async () => {
    const { id } = await fileAsStudent(f.w[2]);
    const tried = new Set<string>();
    const forged = async (who: Client, path: string, body: object = {}) => {
      const before = await state(id);
      const n = await historyCount(id);
      const r = await who.post(`${M}/complaints/${id}/${path}`, body);
      expect(await state(id)).toEqual(before);
      expect(await historyCount(id)).toBe(n);
      return r;
    };
    // submitted: decide / opinion / close are forged steps.
    expect(
      (await forged(f.admin, "decision", { outcome: "rejected", action: "no_change", text: "<p>不成立的理由说明</p>" })).body
        .info,
    ).toContain("不能「作出决定」");
    expect(
      (await forged(f.reviewer, "opinion", { outcome: "rejected", action: "no_change", text: "<p>审核意见正文</p>" })).body.error,
    ).toBe(400);
    expect((await forged(f.admin, "close")).body.error).toBe(400);
    // The arbitrator is nothing to it before arbitration: 404.
    expect((await forged(f.arbitrator, "accept")).status).toBe(403);
    // accept (reviewer)
    expect((await f.reviewer.post(`${M}/complaints/${id}/accept`, { version: 1 })).body).toMatchObject({
      error: 0,
      data: { state: "accepted", version: 2 },
    });
    tried.add("accept");
    // A stale version changes nothing.
    expect(
      (
        await forged(f.reviewer, "opinion", {
          outcome: "upheld",
          action: "change_award",
          text: "<p>审核意见正文</p>",
          version: 1,
        })
      ).status,
    ).toBe(409);
    // opinion: the complaint admin may not give it (403); the reviewer does.
    expect(
      (await forged(f.admin, "opinion", { outcome: "upheld", action: "change_award", text: "<p>审核意见正文</p>" })).status,
    ).toBe(403);
    expect(
      (
        await f.reviewer.post(`${M}/complaints/${id}/opinion`, {
          outcome: "upheld",
          action: "change_award",
          text: "<p>建议变更奖项为三等奖</p>",
        })
      ).body,
    ).toMatchObject({ error: 0, data: { state: "reviewed" } });
    tried.add("opinion");
    // decide: the reviewer may not (403); rejected with an action is refused (422); the admin decides.
    expect(
      (await forged(f.reviewer, "decision", { outcome: "upheld", action: "no_change", text: "<p>决定理由正文</p>" })).status,
    ).toBe(403);
    expect(
      (await forged(f.admin, "decision", { outcome: "rejected", action: "disqualify", text: "<p>决定理由正文</p>" })).status,
    ).toBe(422);
    const decided = await f.admin.post(`${M}/complaints/${id}/decision`, {
      outcome: "partly_upheld",
      action: "change_award",
      awardLevelId: f.award.get("三等奖"),
      text: "<p>部分成立，奖项调整为三等奖</p>",
    });
    expect(decided.body, decided.body.info).toMatchObject({ error: 0, data: { state: "decided" } });
    expect(decided.body.data.effect).toContain("三等奖");
    const awardOf = async (workId: number) =>
      (
        await t.db
          .selectFrom("contest_result")
          .select("award_level_id")
          .where("contest_id", "=", f.js)
          .where("work_id", "=", workId)
          .executeTakeFirstOrThrow()
      ).award_level_id;
    expect(await awardOf(f.w[2])).toBe(f.award.get("三等奖"));
    tried.add("decide");
    // close before the arbitration deadline: refused with the deadline.
    expect((await forged(f.admin, "close")).body.info).toContain("截止后才能结案");
    // request_arbitration by the work's author (party).
    const author = await authorOf(t, f.w[2]);
    expect(
      (await author.client.post(`${F}/mine/${id}/arbitration`, { reason: "<p>我们不认可该决定，申请仲裁</p>" })).body,
    ).toMatchObject({ error: 0, data: { state: "arbitration_requested" } });
    tried.add("request_arbitration");
    // arbitrate: handlers may not (403 through the policy); the arbitrator does.
    expect(
      (
        await f.admin.post(`/Backend/Arbitrate/complaints/${id}/decision`, {
          outcome: "maintain",
          text: "<p>维持原决定的理由</p>",
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await f.arbitrator.post(`/Backend/Arbitrate/complaints/${id}/decision`, {
          outcome: "maintain",
          text: "<p>维持原决定的理由</p>",
        })
      ).body,
    ).toMatchObject({ error: 0, data: { state: "arbitrated" } });
    tried.add("arbitrate");
    // return (root) and arbitrate again, then confirm (root).
    expect(
      (await f.root.post(`/Backend/ArbitrateManagement/complaints/${id}/return`, { reason: "<p>请补充裁决理由</p>" })).body,
    ).toMatchObject({ error: 0, data: { state: "arbitration_requested" } });
    tried.add("return");
    expect(
      (
        await f.arbitrator.post(`/Backend/Arbitrate/complaints/${id}/decision`, {
          outcome: "revise",
          revisedOutcome: "rejected",
          revisedAction: "no_change",
          text: "<p>经复核，投诉不成立</p>",
        })
      ).body.error,
    ).toBe(0);
    expect((await f.arbitrator.post(`/Backend/ArbitrateManagement/complaints/${id}/confirm`, {})).status).toBe(403);
    const confirmed = await f.root.post(`/Backend/ArbitrateManagement/complaints/${id}/confirm`, {});
    expect(confirmed.body).toMatchObject({ error: 0, data: { state: "closed" } });
    // The revised decision took effect on confirmation: the award change is taken back.
    expect(confirmed.body.data.effect).toContain("恢复原奖项「无奖项」");
    expect(await awardOf(f.w[2])).toBeNull();
    tried.add("confirm");
    // Closed: every step is refused.
    for (const path of ["accept", "refuse", "close"])
      expect((await forged(f.root, path, { reason: "<p>说明</p>" })).body.error).toBe(400);
    const detail = (await f.root.get(`${M}/complaints/${id}`)).body.data;
    expect(detail.history.map((h: { action: string }) => h.action)).toEqual([
      "submit",
      "accept",
      "opinion",
      "decide",
      "request_arbitration",
      "arbitrate",
      "return",
      "arbitrate",
      "confirm",
    ]);
    expect(detail.arbitration).toMatchObject({ requestedBy: "作品方", outcome: "revise", confirmedAt: expect.any(String) });

    // refuse (admin), withdraw (filer), close after the deadline: the remaining rows.
    const r2 = await fileAsStudent(f.w[3]);
    expect((await f.admin.post(`${M}/complaints/${r2.id}/refuse`, {})).status).toBe(422);
    expect((await f.admin.post(`${M}/complaints/${r2.id}/refuse`, { reason: "<p>不属于受理范围</p>" })).body).toMatchObject({
      error: 0,
      data: { state: "refused" },
    });
    tried.add("refuse");
    const r3 = await fileAsStudent(f.w[3]);
    // A handler is not the filer: 403.
    expect((await f.reviewer.post(`${F}/mine/${r3.id}/withdraw`, {})).status).toBe(403);
    expect((await r3.c.post(`${F}/mine/${r3.id}/withdraw`, {})).body).toMatchObject({ error: 0, data: { state: "withdrawn" } });
    tried.add("withdraw");
    const r4 = await fileAsStudent(f.w[3]);
    await f.reviewer.post(`${M}/complaints/${r4.id}/accept`, {});
    await f.reviewer.post(`${M}/complaints/${r4.id}/opinion`, {
      outcome: "rejected",
      action: "no_change",
      text: "<p>证据不足，建议不成立</p>",
    });
    expect(
      (
        await f.admin.post(`${M}/complaints/${r4.id}/decision`, {
          outcome: "rejected",
          action: "no_change",
          text: "<p>证据不足，投诉不成立</p>",
        })
      ).body.error,
    ).toBe(0);
    await t.db
      .updateTable("complaint")
      .set({ arbitration_due_at: new Date(Date.now() - 60_000).toISOString() })
      .where("id", "=", r4.id)
      .execute();
    const late = await r4.c.post(`${F}/mine/${r4.id}/arbitration`, { reason: "<p>逾期的仲裁申请</p>" });
    expect(late.body.error).toBe(400);
    expect(late.body.info).toContain("仲裁申请期限已于");
    expect((await state(r4.id)).state).toBe("decided");
    expect((await f.admin.post(`${M}/complaints/${r4.id}/close`, {})).body).toMatchObject({
      error: 0,
      data: { state: "closed" },
    });
    tried.add("close");
    expect([...tried].sort()).toEqual(Object.keys(COMPLAINT_TRANSITIONS).sort());
  });

  it("upheld with disqualification: the work is disqualified, the award withdrawn, a new result version; the public lookup no longer shows the award", async () => {
    expect((await lookup(f.w[0])).award).toContain("一等奖");
    const head = Math.max(
      0,
      ...(await f.cadmin.get(`${A}/${f.js}/results/versions`)).body.data.map((v: { version: number }) => v.version),
    );
    const c = await t.db
      .selectFrom("complaint")
      .select("id")
      .where("work_id", "=", f.w[0])
      .where("filer_user_id", "is", null)
      .executeTakeFirstOrThrow();
    await f.reviewer.post(`${M}/complaints/${c.id}/accept`, {});
    await f.reviewer.post(`${M}/complaints/${c.id}/opinion`, {
      outcome: "upheld",
      action: "disqualify",
      text: "<p>代码与开源项目雷同，建议取消资格</p>",
    });
    const d = await f.admin.post(`${M}/complaints/${c.id}/decision`, {
      outcome: "upheld",
      action: "disqualify",
      text: "<p>抄袭属实，取消作品资格</p>",
    });
    expect(d.body, d.body.info).toMatchObject({ error: 0, data: { state: "decided" } });
    expect(d.body.data.effect).toContain(`第 ${head + 1} 版`);
    const work = await t.db
      .selectFrom("work")
      .select(["status", "disqualify_reason"])
      .where("id", "=", f.w[0])
      .executeTakeFirstOrThrow();
    expect(work.status).toBe("disqualified");
    expect(work.disqualify_reason).toContain(`#${c.id}`);
    expect((await lookup(f.w[0])).award ?? null).toBeNull();
    const versions = (await f.cadmin.get(`${A}/${f.js}/results/versions`)).body.data;
    expect(
      versions.map((v: { version: number; current: boolean; complaintId: number | null }) => [
        v.version,
        v.current,
        v.complaintId,
      ]),
    ).toEqual([
      [head + 1, true, c.id],
      ...Array.from({ length: head - 1 }, (_, i) => [head - i, false, expect.any(Number)]),
      [1, false, null],
    ]);
    const v1 = (await f.cadmin.get(`${A}/${f.js}/results/versions/${versions.at(-1).id}`)).body.data;
    expect(v1.rows.find((r: { workId: number }) => r.workId === f.w[0]).award).toBe("一等奖");
    const v3 = (await f.cadmin.get(`${A}/${f.js}/results/versions/${versions[0].id}`)).body.data;
    expect(v1.rows.find((r: { workId: number }) => r.workId === f.w[2]).award).toBeNull();
    expect(v3.rows.find((r: { workId: number }) => r.workId === f.w[0])).toMatchObject({ award: null, disqualified: true });
    expect(v3.reason).toContain("取消作品");
    // The filer (visitor) and the first author got the decision by mail.
    const mails = t.mails().filter((m) => m.subject.includes(`#${c.id}`));
    expect(mails.map((m) => m.to).join()).toContain("visitor@example.com");
    expect(mails.length).toBe(2);
    for (const m of mails) expect(m.text).not.toContain("王公众");
  });

  it("re-judge assigns new conflict-free judges, excluding every earlier judge of the work", async () => {
    const author = await authorOf(t, f.w[1]);
    const appeal = (await author.client.get(`${F}/mine`)).body.data.find(
      (x: { type: string; workId: number }) => x.type === "appeal" && x.workId === f.w[1],
    );
    await f.reviewer.post(`${M}/complaints/${appeal.id}/accept`, {});
    await f.reviewer.post(`${M}/complaints/${appeal.id}/opinion`, {
      outcome: "upheld",
      action: "rejudge",
      text: "<p>严评委评分明显偏低，建议重评</p>",
    });
    // Naming an earlier judge is refused, nothing changed.
    const named = await f.admin.post(`${M}/complaints/${appeal.id}/decision`, {
      outcome: "upheld",
      action: "rejudge",
      judgeIds: [f.J.yan],
      text: "<p>重新评审该作品</p>",
    });
    expect(named.body.error).toBe(400);
    expect((await state(appeal.id)).state).toBe("reviewed");
    const d = await f.admin.post(`${M}/complaints/${appeal.id}/decision`, {
      outcome: "upheld",
      action: "rejudge",
      text: "<p>重新评审该作品</p>",
    });
    expect(d.body, d.body.info).toMatchObject({ error: 0, data: { state: "decided" } });
    const judges = (
      await t.db.selectFrom("judge_assignment").select("judge_id").where("work_id", "=", f.w[1]).orderBy("id").execute()
    ).map((r) => r.judge_id);
    const fresh = judges.slice(2);
    expect(fresh.length).toBeGreaterThan(0);
    for (const j of fresh) expect([f.J.jia, f.J.yan]).not.toContain(j);
    expect(new Set(fresh)).toEqual(new Set([f.J.ding, f.J.wu].slice(0, fresh.length)));

    // The new scores replace the old ones only once all are in.
    const apply = () => f.admin.post(`${M}/complaints/${appeal.id}/rejudge-result`, {});
    const early = await apply();
    expect(early.body.error).toBe(400);
    expect(early.body.info).toContain("尚未提交评分");
    expect((await f.reviewer.post(`${M}/complaints/${appeal.id}/rejudge-result`, {})).status).toBe(403);
    await submitScores(
      t,
      f.js,
      fresh.map((j, i) => [f.w[1], j, 90 + i] as [number, number, number]),
    );
    const head = Math.max(
      0,
      ...(await f.cadmin.get(`${A}/${f.js}/results/versions`)).body.data.map((v: { version: number }) => v.version),
    );
    const applied = await apply();
    expect(applied.body, applied.body.info).toMatchObject({ error: 0, data: { state: "decided" } });
    expect(applied.body.data.effect).toContain(`第 ${head + 1} 版`);
    const row = await t.db
      .selectFrom("contest_result")
      .select(["raw_mean", "judge_count"])
      .where("contest_id", "=", f.js)
      .where("work_id", "=", f.w[1])
      .executeTakeFirstOrThrow();
    expect(Number(row.judge_count)).toBe(fresh.length);
    expect(Number(row.raw_mean)).toBeCloseTo(fresh.reduce((s, _j, i) => s + 90 + i, 0) / fresh.length, 6);
    const old = await t.db
      .selectFrom("judge_score")
      .select(["judge_id", "superseded_at"])
      .where("work_id", "=", f.w[1])
      .execute();
    for (const s of old) expect(s.superseded_at === null).toBe(fresh.includes(s.judge_id));
    expect((await apply()).body.info).toContain("已经替换过");
    const view = (await f.admin.get(`${M}/complaints/${appeal.id}`)).body.data;
    expect(view.decision.rejudge).toMatchObject({ judgeIds: fresh, appliedAt: expect.any(String) });
    expect(view.history.at(-1).action).toBe("rejudge_result");
  });

  it("scope: a complaint handler of another contest gets 404 and an empty list; the arbitrator sees only arbitration", async () => {
    const zj = await contestId(t, "2026-ZJ");
    const otherId = await insertUser(t, { username: "zj_handler", name: "浙申管", role: 6 });
    await t.db.updateTable("app_user").set({ has_complaint_right: 1 }).where("id", "=", otherId).execute();
    await joinContest(t, otherId, zj, "complaint" as never);
    const other = await login(t, "zj_handler");
    const any = await t.db.selectFrom("complaint").select("id").where("contest_id", "=", f.js).executeTakeFirstOrThrow();
    expect((await other.get(`${M}/complaints/${any.id}`)).status).toBe(404);
    expect((await other.post(`${M}/complaints/${any.id}/accept`, {})).status).toBe(404);
    expect((await other.get(`${M}/complaints`)).body.data).toEqual({ list: [], total: 0 });
    // The demo handlers see the contest's complaints, overdue first, with counts.
    const list = (await f.admin.get(`${M}/complaints?contestId=${f.js}`)).body.data;
    expect(list.total).toBeGreaterThan(3);
    const counts = (await f.admin.get(`${M}/counts?contestId=${f.js}`)).body.data;
    expect(counts.total).toBe(list.total);
    // The arbitrator: only complaints that went to arbitration.
    const arb = (await f.arbitrator.get("/Backend/Arbitrate/complaints")).body.data;
    expect(arb.list.every((x: { state: string }) => ["arbitration_requested", "arbitrated", "closed"].includes(x.state))).toBe(
      true,
    );
    const notSent = await t.db
      .selectFrom("complaint")
      .select("id")
      .where("contest_id", "=", f.js)
      .where("arb_requested_at", "is", null)
      .executeTakeFirstOrThrow();
    expect((await f.arbitrator.get(`/Backend/Arbitrate/complaints/${notSent.id}`)).status).toBe(404);
    // A non-handler with the page policy but no right: 403.
    expect((await f.cadmin.get(`${M}/complaints`)).status).toBe(403);
  });

  it("due times: overdue first in the list, and one reminder mail to the next step's handlers when a due time nears", async () => {
    const { id } = await fileAsStudent(f.w[3]);
    await f.reviewer.post(`${M}/complaints/${id}/accept`, {});
    // The accepted complaint's opinion is due in 5 days (the default); move it to one hour from now, another to the past.
    await t.db
      .updateTable("complaint")
      .set({ due_at: new Date(Date.now() + 3600_000).toISOString() })
      .where("id", "=", id)
      .execute();
    const other = await fileAsStudent(f.w[3]);
    await t.db
      .updateTable("complaint")
      .set({ due_at: new Date(Date.now() - 3600_000).toISOString() })
      .where("id", "=", other.id)
      .execute();
    const list = (await f.admin.get(`${M}/complaints?contestId=${f.js}`)).body.data.list;
    expect(list[0]).toMatchObject({ id: other.id, overdue: true });
    expect((await f.admin.get(`${M}/complaints?overdue=1`)).body.data.list.map((c: { id: number }) => c.id)).toEqual([other.id]);
    expect((await f.admin.get(`${M}/counts?contestId=${f.js}`)).body.data.overdue).toBe(1);
    const sent: { to: string; subject: string }[] = [];
    const mailer = {
      send: async (m: { to: string; subject: string; text: string }) => void sent.push(m),
      describe: () => "test",
    };
    await sendReminders(t.db, mailer, "http://localhost:8080");
    const reviewerEmail = (
      await t.db.selectFrom("app_user").select("email").where("username", "=", "complaint_reviewer").executeTakeFirstOrThrow()
    ).email;
    expect(sent.filter((m) => m.subject.includes(`#${id} `)).map((m) => m.to)).toEqual([reviewerEmail]);
    // The submitted, overdue one goes to the reviewer and the admin; nothing is sent twice.
    expect(sent.filter((m) => m.subject.includes(`#${other.id} `)).length).toBe(2);
    const n = sent.length;
    await sendReminders(t.db, mailer, "http://localhost:8080");
    expect(sent.length).toBe(n);
    // Per-contest due times: a contest admin sets them; the arbitration deadline defaults to 3 days.
    expect((await f.cadmin.get(`${M}/contests/${f.js}/settings`)).body.data.dueDays.arbitration).toBe(3);
    const put = await f.cadmin.req("PUT", `${M}/contests/${f.js}/settings`, {
      dueDays: { accept: 1, opinion: 2, decide: 2, arbitration: 5, arbitrate: 3, confirm: 1 },
      remindHours: 12,
    });
    expect(put.body).toMatchObject({ error: 0, data: { dueDays: { arbitration: 5 }, remindHours: 12 } });
    expect((await (await login(t, "contest_admin")).req("PUT", `${M}/contests/${f.js}/settings`, put.body.data)).status).toBe(
      404,
    );
  });

  it("identity: the work's author sees the complaint without the filer, the evidence or names; the work log has no filer", async () => {
    const author = await authorOf(t, f.w[0]);
    const mine = (await author.client.get(`${F}/mine`)).body.data;
    const c = mine.find((x: { workId: number; type: string }) => x.workId === f.w[0] && x.type === "complaint");
    expect(c).toMatchObject({ relation: "party", evidence: [] });
    const text = JSON.stringify(mine);
    for (const secret of ["王公众", "13912345678", "visitor@example.com"]) expect(text).not.toContain(secret);
    expect(c.history.map((h: { by: string }) => h.by)).toContain("投诉人"); // a 投诉: its filer is 投诉人 (issue 29)
    expect(text).not.toContain("吴申管");
    // The filer's evidence is not the author's to download.
    const ev = await t.db
      .selectFrom("complaint_evidence")
      .select("id")
      .where("complaint_id", "=", c.id)
      .executeTakeFirstOrThrow();
    expect((await author.client.get(`${F}/evidence/${ev.id}`)).status).toBe(404);
    expect((await f.admin.get(`${F}/evidence/${ev.id}`)).status).toBe(200);
    const logs = await t.db
      .selectFrom("work_log")
      .select(["action", "user_id"])
      .where("work_id", "=", f.w[0])
      .where("action", "like", "complaint_%")
      .execute();
    expect(logs.find((l) => l.action === "complaint_submit")!.user_id).toBeNull();
    const workLog = await author.client.get(`/Backend/Work/work/${f.w[0]}/log`);
    expect(workLog.status, workLog.body.info).toBe(200);
    expect(workLog.body.data.map((e: { action: string }) => e.action)).toContain("complaint_submit");
    for (const secret of ["王公众", "visitor@example.com"]) expect(JSON.stringify(workLog.body)).not.toContain(secret);
    // Handlers see the filer, the phone masked; the full number is one audited request away.
    const h = (await f.admin.get(`${M}/complaints/${c.id}`)).body.data;
    expect(h.filer).toMatchObject({ name: "王公众", phone: "139****5678", email: "visitor@example.com" });
    const full = await f.admin.get(`${M}/complaints/${c.id}/filer-phone`);
    expect(full.body).toMatchObject({ error: 0, data: { phone: "13912345678" } });
  });
  it("arbitration: the visitor requests it; an arbitrator of the work's school never sees it; a disqualification cannot be revised away", async () => {
    const c = await t.db
      .selectFrom("complaint")
      .select(["id", "version"])
      .where("work_id", "=", f.w[0])
      .where("filer_user_id", "is", null)
      .executeTakeFirstOrThrow();
    const { token } = await verifiedVisitor(t, "visitor@example.com");
    const req = await new Client(t).post(`${PUB}/mine/${c.id}/arbitration`, { token, reason: "<p>申请仲裁，要求同时通报</p>" });
    expect(req.body, req.body.info).toMatchObject({ error: 0, data: { state: "arbitration_requested" } });
    const sameSchool = await insertUser(t, { username: "arb_njust", name: "同校仲裁员", role: 7, school: "南京理工大学" });
    await joinContest(t, sameSchool, f.js, "arbitrator" as never);
    const a2 = await login(t, "arb_njust");
    expect((await a2.get("/Backend/Arbitrate/complaints")).body.data.list.map((x: { id: number }) => x.id)).not.toContain(c.id);
    expect((await a2.get(`/Backend/Arbitrate/complaints/${c.id}`)).status).toBe(404);
    expect(
      (await a2.post(`/Backend/Arbitrate/complaints/${c.id}/decision`, { outcome: "maintain", text: "<p>维持原决定的理由</p>" }))
        .status,
    ).toBe(404);
    expect((await f.arbitrator.get("/Backend/Arbitrate/complaints")).body.data.list.map((x: { id: number }) => x.id)).toContain(
      c.id,
    );
    const revise = await f.arbitrator.post(`/Backend/Arbitrate/complaints/${c.id}/decision`, {
      outcome: "revise",
      revisedOutcome: "rejected",
      revisedAction: "no_change",
      text: "<p>撤销取消资格的决定</p>",
    });
    expect(revise.body.error).toBe(400);
    expect(revise.body.info).toContain("不能通过仲裁恢复");
    expect((await state(c.id)).state).toBe("arbitration_requested");
  });

  it("holds one open complaint per person per work, logged in or as a visitor with the same e-mail", async () => {
    const visitorFile = (token: string, workId: number) =>
      new Client(t).post(PUB, { token, workId, category: "plagiarism", text: TEXT, name: "同一人", phone: "13912345678" });
    const count = async (workId: number) =>
      (await t.db.selectFrom("complaint").select("id").where("work_id", "=", workId).where("open_key", "is not", null).execute())
        .length;

    // Logged in first, then as a visitor with the account's e-mail.
    await insertUser(t, { username: "cp_twice", name: "两次投诉人", role: 100, school: "苏州大学" });
    const first = await (
      await login(t, "cp_twice")
    ).post(`${F}/mine`, { type: "complaint", workId: f.w[2], category: "plagiarism", text: TEXT });
    expect(first.body.error, first.body.info).toBe(0);
    const before = await count(f.w[2]);
    const { token } = await verifiedVisitor(t, "cp_twice@test.local");
    const again = await visitorFile(token, f.w[2]);
    expect(again.body).toMatchObject({ error: 400 });
    expect(again.body.info).toContain("未结案");
    expect(await count(f.w[2])).toBe(before);

    // A visitor first, then the account holding that e-mail.
    const v = await visitorFile((await verifiedVisitor(t, "cp_later@test.local")).token, f.w[3]);
    expect(v.status, v.body.info).toBe(201);
    await insertUser(t, { username: "cp_later", name: "后注册的投诉人", role: 100, school: "苏州大学" });
    const mine = await (
      await login(t, "cp_later")
    ).post(`${F}/mine`, { type: "complaint", workId: f.w[3], category: "plagiarism", text: TEXT });
    expect(mine.body).toMatchObject({ error: 400 });
    expect(mine.body.info).toContain("未结案");
  });
});
