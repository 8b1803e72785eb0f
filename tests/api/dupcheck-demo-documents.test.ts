/**
 * Issue 29: the demo works' attachments hold Chinese documents (设计与开发文档, 答辩材料) that
 * the duplicate check reads, so the demo's side by side view shows document text and its
 * common fragments are Chinese template sentences, not English pieces of placeholder text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeApp, type TestApp } from "../helpers/app";
import { seedScoringDemo, seedScoringDemoFiles, SCORING_DEMO_WORKS } from "../../src/server/seed/scoring-demo";
import { LocalBlobStore } from "../../src/server/storage/local";
import { login } from "./works-fixtures";

const han = (s: string) => (s.match(/\p{Script=Han}/gu) ?? []).length;

describe("the demo attachments' text", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp("sqlite");
    expect(await seedScoringDemo(t.db)).toBe(true);
    await seedScoringDemoFiles(t.db, new LocalBlobStore(t.config.storage.blobDir));
  });
  afterAll(async () => t?.close());

  it("is Chinese project writing that the duplicate check reads", async () => {
    const root = await login(t, "root");
    const [a, b] = await Promise.all(
      SCORING_DEMO_WORKS.slice(0, 2).map((w) =>
        t.db.selectFrom("work").select("id").where("name", "=", w.name).executeTakeFirstOrThrow(),
      ),
    );
    const r = await root.get(`/Backend/DupCheck/pair/${a.id}/${b.id}`);
    expect(r.status, r.body.info).toBe(200);
    for (const side of [r.body.data.a, r.body.data.b] as {
      text: string;
      sections: { key: string; label: string; start: number; end: number }[];
      skipped: { filename: string | null; message: string }[];
    }[]) {
      const docs = side.sections.filter((s) => s.label.includes("设计与开发文档") || s.label.includes("答辩材料"));
      expect(docs.map((s) => s.label)).toEqual([expect.stringContaining("答辩材料"), expect.stringContaining("设计与开发文档")]);
      for (const s of docs) {
        const text = side.text.slice(s.start, s.end);
        expect(han(text)).toBeGreaterThan(s.label.includes("设计") ? 400 : 100);
        expect(text).not.toMatch(/Design document|Defence slides|work \d/);
      }
      const design = side.text.slice(docs[1].start, docs[1].end);
      expect(design).toContain("二、需求分析");
      expect(design).toContain("本作品严格遵守大赛章程和参赛规则");
    }
    // Both carry the same boilerplate: the side by side view shows it as shared, in Chinese.
    const passages = r.body.data.passages as { aStart: number; aEnd: number }[];
    expect(passages.some((p) => r.body.data.a.text.slice(p.aStart, p.aEnd).includes("所有内容均由参赛团队独立完成"))).toBe(true);
  });
});
