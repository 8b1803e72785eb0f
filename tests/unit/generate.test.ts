import { describe, expect, it } from "vitest";
import { personName, rng, schools, workTitle } from "../../src/server/seed/generate";

describe("large data set generators", () => {
  it("give the same rows for the same seed and different rows for another", () => {
    const a = Array.from(
      { length: 50 },
      (
        (r) => () =>
          personName(r)
      )(rng(7)),
    );
    const b = Array.from(
      { length: 50 },
      (
        (r) => () =>
          personName(r)
      )(rng(7)),
    );
    const c = Array.from(
      { length: 50 },
      (
        (r) => () =>
          personName(r)
      )(rng(8)),
    );
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it("make Chinese names of two to four characters", () => {
    const r = rng(1);
    for (let i = 0; i < 1000; i++) expect(personName(r)).toMatch(/^[\u4e00-\u9fa5]{2,4}$/);
  });

  it("make 700 schools with distinct names and codes across provinces", () => {
    const s = schools(rng(42), 700);
    expect(s).toHaveLength(700);
    expect(new Set(s.map((x) => x.name)).size).toBe(700);
    expect(new Set(s.map((x) => x.code)).size).toBe(700);
    expect(new Set(s.map((x) => x.province)).size).toBeGreaterThan(10);
  });

  it("make work titles in Chinese", () => {
    const r = rng(3);
    expect(workTitle(r)).toMatch(/^[\u4e00-\u9fa5A-Z]+$/);
  });
});
