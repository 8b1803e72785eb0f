import { describe, expect, test } from "vitest";
import {
  DEFAULT_LIMITS,
  appealPath,
  canAppealWork,
  dueWords,
  evidenceHint,
  evidenceProblem,
  plainLength,
  textProblem,
} from "../../src/client/complaint/logic";
import { parseListParams } from "../../src/client/complaint/use-list-params";
import { DESK_STEPS } from "../../src/client/complaint/StepForms";
import { COMPLAINT_ACTIONS } from "../../src/shared/complaint/states";

describe("complaint screens: pure parts", () => {
  test("申诉 is offered for works with an outcome, and leads to the form for that work", () => {
    expect(canAppealWork("format_rejected")).toBe(true);
    expect(canAppealWork("disqualified")).toBe(true);
    expect(canAppealWork("format_passed")).toBe(true);
    expect(canAppealWork("draft")).toBe(false);
    expect(canAppealWork("submitted")).toBe(false);
    expect(appealPath(2026000123)).toBe("/complaint-view/complaint?type=appeal&workId=2026000123");
  });

  test("evidence is checked for count, type and size before it is sent", () => {
    expect(evidenceProblem({ name: "证据.PDF", size: 1000 }, 0, DEFAULT_LIMITS)).toBeNull();
    expect(evidenceProblem({ name: "a.exe", size: 1000 }, 0, DEFAULT_LIMITS)).toMatch(/类型不支持/);
    expect(evidenceProblem({ name: "noext", size: 1000 }, 0, DEFAULT_LIMITS)).toMatch(/类型不支持/);
    expect(evidenceProblem({ name: "big.zip", size: DEFAULT_LIMITS.maxBytes + 1 }, 0, DEFAULT_LIMITS)).toMatch(/超过 20\.0 MB/);
    expect(evidenceProblem({ name: "empty.png", size: 0 }, 0, DEFAULT_LIMITS)).toMatch(/空文件/);
    expect(evidenceProblem({ name: "a.png", size: 10 }, DEFAULT_LIMITS.maxFiles, DEFAULT_LIMITS)).toMatch(/最多上传 10 个/);
    expect(evidenceHint(DEFAULT_LIMITS)).toContain("单个文件不超过 20.0 MB，最多 10 个");
  });

  test("texts count plain characters like the server: 10 to 5000", () => {
    expect(plainLength("<p>一 二 三</p>")).toBe(3);
    expect(textProblem("太短了", "内容")).toBe("内容至少 10 个字");
    expect(textProblem("这件作品与去年的获奖作品高度相似", "内容")).toBeNull();
    expect(textProblem("字".repeat(5001), "内容")).toBe("内容不能超过 5000 个字");
  });

  test("due words", () => {
    const now = Date.parse("2026-07-20T00:00:00Z");
    expect(dueWords(null, now)).toBeNull();
    expect(dueWords("2026-07-22T03:00:00Z", now)).toBe("剩余 2 天 3 小时");
    expect(dueWords("2026-07-19T19:00:00Z", now)).toBe("已超期 5 小时");
    expect(dueWords("2026-07-20T00:30:00Z", now)).toBe("剩余 不到 1 小时");
  });

  test("list filters from the address: unknown values dropped", () => {
    const f = parseListParams(new URLSearchParams("contestId=3&state=decided&type=appeal&overdue=1&current=2"));
    expect(f).toEqual({ contestId: 3, state: "decided", type: "appeal", overdue: 1, current: 2, pageSize: 20 });
    expect(parseListParams(new URLSearchParams("state=nope&type=x&contestId=-1&overdue=yes"))).toEqual({
      current: 1,
      pageSize: 20,
    });
  });

  test("every step of the state machine has exactly one screen (filer steps excepted)", () => {
    const handled = Object.values(DESK_STEPS).flat();
    expect(new Set(handled).size).toBe(handled.length);
    expect(COMPLAINT_ACTIONS.filter((a) => !handled.includes(a)).sort()).toEqual(["request_arbitration", "withdraw"]);
  });
});
