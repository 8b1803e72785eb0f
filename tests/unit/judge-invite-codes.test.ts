/** The small rules of invitation links: codes, the answer-by date, the computed state, the masked address. */
import { describe, expect, it } from "vitest";
import { maskEmail } from "../../src/server/common/email";
import { answerByIso, codeHash, newCode, stateOf } from "../../src/server/judge-invite/codes";
import { CODE_PATTERN } from "../../src/shared/judge-invite/schema";

describe("invitation codes and dates", () => {
  it("makes 192-bit base64url codes the route accepts, stored only as their SHA-256", () => {
    const a = newCode();
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(new RegExp(CODE_PATTERN).test(a)).toBe(true);
    expect(new Set(Array.from({ length: 200 }, newCode)).size).toBe(200);
    expect(codeHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(codeHash(a)).not.toContain(a);
  });

  it("ends the answer-by day at midnight Beijing time and refuses past, invalid and far dates", () => {
    const now = new Date("2026-06-10T04:00:00Z");
    expect(answerByIso("2026-06-30", now)).toBe("2026-06-30T15:59:59.999Z");
    expect(() => answerByIso("2026-06-09", now)).toThrow("答复截止日期须晚于今天");
    expect(() => answerByIso("2026-02-30", now)).toThrow("不是有效的日期");
    expect(() => answerByIso("2027-12-31", now)).toThrow("最多在 365 天之后");
  });

  it("computes expired from the answer-by date and masks the address", () => {
    const at = Date.parse("2026-06-30T16:00:00Z");
    expect(stateOf({ status: "sent", answer_by: "2026-06-30T15:59:59.999Z" }, at)).toBe("expired");
    expect(stateOf({ status: "sent", answer_by: "2026-06-30T15:59:59.999Z" }, at - 1000)).toBe("sent");
    expect(stateOf({ status: "accepted", answer_by: "2026-06-30T15:59:59.999Z" }, at)).toBe("accepted");
    expect(maskEmail("zhangsan@example.com")).toBe("zh***@example.com");
    expect(maskEmail("ab@x.cn")).toBe("a***@x.cn");
  });
});
