import { describe, expect, it } from "vitest";
import { planFromText, planToText } from "../../src/server/crud/plan";

describe("import plan as JSON lines", () => {
  const plan: {
    creates: { username: string; name: string; note: string | null }[];
    updates: { id: number; input: Record<string, string> }[];
  } = {
    creates: Array.from({ length: 2500 }, (_, i) => ({ username: `s${i}`, name: `学生${i}`, note: i % 7 ? null : "含\n换行" })),
    updates: [
      { id: 7, input: { name: "张三" } },
      { id: 9, input: { email: "a@b.cn" } },
    ],
  };

  it("reads back exactly what was written, across several slices", async () => {
    expect(await planFromText(planToText(plan))).toEqual(plan);
  });

  it("reads an empty plan and a plan written before this format", async () => {
    expect(await planFromText(planToText({ creates: [], updates: [] }))).toEqual({ creates: [], updates: [] });
    expect(await planFromText(JSON.stringify(plan))).toEqual(plan);
  });

  it("refuses a cut-off plan instead of importing part of it", async () => {
    const text = planToText(plan);
    await expect(planFromText(text.slice(0, text.lastIndexOf("\n")))).rejects.toThrow("导入计划不完整");
  });

  it("lets other work run while a large plan is read", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const big = planToText({ creates: Array.from({ length: 20000 }, (_, i) => ({ username: `u${i}` })), updates: [] });
    let readDone = false;
    const reading = planFromText(big).then(() => (readDone = true));
    await new Promise((r) => setImmediate(r));
    expect(readDone).toBe(false);
    await reading;
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
  });
});
