/**
 * The complaints demo (`npm start`): the Zhejiang results published with an open publicity
 * period and three complaints — accepted (waiting for the opinion), decided (arbitration may
 * be requested), closed — that the demo accounts can work with through the API; teacher and
 * school honours certified with the publication.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { DEMO_VISITOR, seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { login } from "./works-fixtures";
import { F, M } from "./complaints-fixtures";

describe.each(DIALECTS)("complaints demo on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp(dialect);
    expect(await seedResultsDemo(t.db)).toBe(true);
    expect(await seedComplaintsDemo(t.db)).toBe(true);
  });
  afterAll(async () => t?.close());

  it("publishes the Zhejiang results with an open publicity period and three complaints in different states", async () => {
    expect(await seedComplaintsDemo(t.db)).toBe(false);
    const admin = await login(t, "complaint_admin");
    const list = (await admin.get(`${M}/complaints`)).body.data;
    expect(list.list.map((c: { state: string }) => c.state).sort()).toEqual(["accepted", "closed", "decided"]);
    const info = (await admin.get("/Backend/Public/complaint/info")).body.data;
    expect(info.windows.some((w: { open: boolean; stage: string }) => w.open && w.stage === "publicity")).toBe(true);
    const visitorOne = list.list.find((c: { state: string }) => c.state === "accepted");
    expect((await admin.get(`${M}/complaints/${visitorOne.id}`)).body.data.filer).toMatchObject({
      name: DEMO_VISITOR.name,
      userId: null,
    });
  });

  it("the published result includes 优秀指导教师 and 优秀组织奖 with valid teacher and school certificates", async () => {
    const certs = await t.db
      .selectFrom("certificate")
      .select(["holder_kind", "award_name", "status"])
      .where("holder_kind", "in", ["teacher", "school"])
      .execute();
    expect(
      certs.filter((c) => c.holder_kind === "teacher" && c.award_name === "优秀指导教师" && c.status === "valid").length,
    ).toBeGreaterThan(0);
    expect(
      certs.filter((c) => c.holder_kind === "school" && c.award_name === "优秀组织奖" && c.status === "valid").length,
    ).toBeGreaterThan(0);
  });

  it("the appealing author can request arbitration of the decided one; the arbitrator then sees it", async () => {
    const decided = await t.db
      .selectFrom("complaint")
      .select(["id", "work_id"])
      .where("state", "=", "decided")
      .executeTakeFirstOrThrow();
    const author = await t.db
      .selectFrom("work_author")
      .innerJoin("app_user", "app_user.id", "work_author.user_id")
      .select("app_user.username")
      .where("work_id", "=", decided.work_id)
      .where("rank", "=", 1)
      .executeTakeFirstOrThrow();
    const a = await login(t, author.username);
    const mine = (await a.get(`${F}/mine/${decided.id}`)).body.data;
    expect(mine.actions).toContain("request_arbitration");
    expect((await a.post(`${F}/mine/${decided.id}/arbitration`, { reason: "<p>对决定不服，申请仲裁</p>" })).body.error).toBe(0);
    const arb = await login(t, "arbitrator");
    expect((await arb.get("/Backend/Arbitrate/complaints")).body.data.list.map((c: { id: number }) => c.id)).toEqual([
      decided.id,
    ]);
  });
});
