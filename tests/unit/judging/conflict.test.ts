import { describe, expect, it } from "vitest";
import {
  conflictsFor,
  CONFLICT_REASON_NAMES,
  declaredByJudge,
  formatConflictReasons,
  formatDeclaredConflictsCsv,
  isConflicted,
  parseConflictReason,
  parseConflictReasons,
  parseDeclaredConflictsCsv,
  type JudgeFacts,
  type WorkFacts,
} from "../../../src/server/judging/conflict";

const work: WorkFacts = { id: 2026000123, schoolId: 7, province: "浙江省", advisorIds: [501, 502], authorIds: [901] };
const judge = (extra: Partial<JudgeFacts> = {}): JudgeFacts => ({ id: 600, schoolId: 8, province: "江苏省", ...extra });
const off = { avoidProvince: false };
const on = { avoidProvince: true };

describe("conflictsFor", () => {
  it("finds no conflict for a judge of another school and province", () => {
    expect(conflictsFor(judge(), work, on)).toEqual([]);
    expect(isConflicted([])).toBe(false);
  });

  it("finds each reason on its own", () => {
    expect(conflictsFor(judge({ schoolId: 7 }), work, off)).toEqual(["same_school"]);
    expect(conflictsFor(judge({ id: 502 }), work, off)).toEqual(["advisor"]);
    expect(conflictsFor(judge({ id: 901 }), work, off)).toEqual(["advisor"]);
    expect(conflictsFor(judge({ declared: { workIds: [2026000123] } }), work, off)).toEqual(["declared"]);
    expect(conflictsFor(judge({ declared: { schoolIds: [7] } }), work, off)).toEqual(["declared"]);
    expect(conflictsFor(judge({ province: "浙江省" }), work, on)).toEqual(["same_province"]);
  });

  it("a declared student excludes the works the student authors, and only those", () => {
    expect(conflictsFor(judge({ declared: { userIds: [901] } }), work, off)).toEqual(["declared"]);
    expect(conflictsFor(judge({ declared: { userIds: [902] } }), work, off)).toEqual([]);
    expect(conflictsFor(judge({ declared: { userIds: [901] } }), { ...work, authorIds: undefined }, off)).toEqual([]);
  });

  it("checks the province only for the national option", () => {
    expect(conflictsFor(judge({ province: "浙江省" }), work, off)).toEqual([]);
  });

  it("lists several reasons once each, in a fixed order", () => {
    const j = judge({ id: 501, schoolId: 7, province: "浙江省", declared: { workIds: [2026000123], schoolIds: [7] } });
    expect(conflictsFor(j, work, on)).toEqual(["same_school", "advisor", "declared", "same_province"]);
    expect(isConflicted(conflictsFor(j, work, on))).toBe(true);
  });

  it("never matches a judge without a school or province on those grounds", () => {
    const j = judge({ schoolId: null, province: null });
    expect(conflictsFor(j, { ...work, province: null }, on)).toEqual([]);
  });
});

describe("reason names", () => {
  it("has a Chinese name per reason and reads codes and names back", () => {
    expect(formatConflictReasons(["same_school", "same_province"])).toBe("同校、同省");
    for (const [code, name] of Object.entries(CONFLICT_REASON_NAMES)) {
      expect(name).toMatch(/^[\u4e00-\u9fa5]+$/);
      expect(parseConflictReason(code)).toBe(code);
      expect(parseConflictReason(` ${name} `)).toBe(code);
    }
    expect(parseConflictReason("亲属")).toBeNull();
    expect(parseConflictReasons("同省、同校，亲属")).toEqual({ reasons: ["same_school", "same_province"], unknown: ["亲属"] });
  });
});

describe("declared conflicts CSV", () => {
  const text =
    '\ufeff评委,作品编号,学校代码,说明\r\nzhangsan,2026000123,,曾指导该团队\r\nlisi,,10001,"原工作单位, 2019 年前"\r\n\r\n';

  it("parses rows with a work or a school, quoted fields and a BOM", () => {
    const { rows, errors } = parseDeclaredConflictsCsv(text);
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      { line: 2, judge: "zhangsan", target: { kind: "work", workId: 2026000123 }, note: "曾指导该团队" },
      { line: 3, judge: "lisi", target: { kind: "school", schoolCode: "10001" }, note: "原工作单位, 2019 年前" },
    ]);
  });

  it("formats what it parses back to the same rows", () => {
    const { rows } = parseDeclaredConflictsCsv(text);
    const again = parseDeclaredConflictsCsv(formatDeclaredConflictsCsv(rows));
    expect(again).toEqual({ rows, errors: [] });
  });

  it("reports every bad row with its line", () => {
    const bad = [
      "评委,作品编号,学校代码",
      ",2026000123,",
      "a,2026000123,10001",
      "b,,",
      "c,123,",
      "d,,学校",
      "e,2026000001,",
      "e,2026000001,",
    ].join("\n");
    expect(parseDeclaredConflictsCsv(bad)).toEqual({
      rows: [{ line: 7, judge: "e", target: { kind: "work", workId: 2026000001 }, note: "" }],
      errors: [
        { line: 2, message: "缺少评委" },
        { line: 3, message: "作品编号与学校代码只能填写一项" },
        { line: 4, message: "请填写作品编号或学校代码" },
        { line: 5, message: "作品编号“123”应为 10 位数字" },
        { line: 6, message: "学校代码“学校”格式不正确" },
        { line: 8, message: "与前面的行重复" },
      ],
    });
  });

  it("rejects a file without the header", () => {
    expect(parseDeclaredConflictsCsv("").errors).toEqual([{ line: 1, message: "文件为空，缺少表头" }]);
    expect(parseDeclaredConflictsCsv("a,b\n1,2").errors[0].line).toBe(1);
  });

  it("resolves judges and school codes into each judge's declared conflicts", () => {
    const { rows } = parseDeclaredConflictsCsv(text + "zhangsan,,10001,\nwangwu,2026000001,\nlisi,,99999,\n");
    const users: Record<string, number> = { zhangsan: 11, lisi: 12 };
    const { declared, errors } = declaredByJudge(rows, {
      judgeId: (n) => users[n],
      schoolId: (c) => (c === "10001" ? 5 : undefined),
    });
    expect(Object.fromEntries(declared)).toEqual({
      11: { workIds: [2026000123], schoolIds: [5] },
      12: { workIds: [], schoolIds: [5] },
    });
    expect(errors).toEqual([
      { line: 6, message: "找不到评委“wangwu”" },
      { line: 7, message: "找不到学校代码“99999”" },
    ]);
  });
});
