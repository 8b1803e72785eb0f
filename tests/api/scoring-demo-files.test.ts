/**
 * Issue 15: the demo works judges score online carry demo attachments through the blob store
 * (答辩材料 PDF, 源码 ZIP, 文档 PDF, video), added once, downloadable like a real work's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeApp, type TestApp } from "../helpers/app";
import { seedScoringDemo, seedScoringDemoFiles, SCORING_DEMO_WORKS } from "../../src/server/seed/scoring-demo";
import { LocalBlobStore } from "../../src/server/storage/local";
import { login } from "./works-fixtures";

describe("attachments of the online-judging demo works", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp("sqlite");
    expect(await seedScoringDemo(t.db)).toBe(true);
  });
  afterAll(async () => t?.close());

  it("adds each scored demo work its package once; the files download", async () => {
    const store = new LocalBlobStore(t.config.storage.blobDir);
    const added = await seedScoringDemoFiles(t.db, store);
    expect(added).toBeGreaterThanOrEqual(SCORING_DEMO_WORKS.length);
    expect(await seedScoringDemoFiles(t.db, store)).toBe(0);
    const w = await t.db.selectFrom("work").select("id").where("name", "=", SCORING_DEMO_WORKS[0].name).executeTakeFirstOrThrow();
    const files = await t.db
      .selectFrom("work_file")
      .select(["id", "kind", "filename"])
      .where("work_id", "=", w.id)
      .orderBy("id")
      .execute();
    expect(files.map((f) => f.kind)).toEqual(["defense", "source", "docs", "video"]);
    const root = await login(t, "root");
    const got = await root.get(`/Backend/Work/work/${w.id}/files/${files[0].id}/download`);
    expect(got.status).toBe(200);
    expect(got.res.body.startsWith("%PDF-1.4")).toBe(true);
  });
});
