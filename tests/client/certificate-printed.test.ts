/** Reading typed printed facts on /verify-cert, and the messages of a failed lookup. */
import { describe, expect, it } from "vitest";
import { parseCodeInput, parsePrintedDate, parsePrintedNumber, parsePrintedTitle } from "../../src/client/certificate/printed";
import { verifyFailure } from "../../src/client/certificate/api";
import { chineseDate, verifyUrl } from "../../src/shared/certificate/layout";

describe("printed facts", () => {
  it("dates as printed or typed", () => {
    expect(parsePrintedDate(chineseDate("2026-07-20"))).toBe("2026-07-20");
    expect(parsePrintedDate("2026年7月5日")).toBe("2026-07-05");
    expect(parsePrintedDate("２０２６ 年 ７ 月 ５ 日")).toBe("2026-07-05");
    expect(parsePrintedDate("2026/7/5")).toBe("2026-07-05");
    expect(parsePrintedDate("2026-02-30")).toBeNull();
    expect(parsePrintedDate("七月五日")).toBeNull();
  });

  it("the title without 《》, empty as none", () => {
    expect(parsePrintedTitle("《智慧校园》")).toBe("智慧校园");
    expect(parsePrintedTitle(" ")).toBeNull();
    expect(parsePrintedTitle(undefined)).toBeNull();
  });

  it("the number line with its version", () => {
    expect(parsePrintedNumber("证书编号：2026-ZJ-1-000123（第 2 版）")).toEqual({ number: "2026-ZJ-1-000123", version: 2 });
    expect(parsePrintedNumber("证书编号：2026-ZJ-1-000123")).toEqual({ number: "2026-ZJ-1-000123" });
    expect(parsePrintedNumber(" 2026-ZJ-1-000123 ")).toEqual({ number: "2026-ZJ-1-000123" });
  });

  it("a code, or the QR code's address", () => {
    const code = `0123456789ab.${"A".repeat(86)}`;
    expect(parseCodeInput(verifyUrl("https://saiwu.example.edu.cn/", "2026-ZJ-1-000123", code))).toEqual({
      code,
      number: "2026-ZJ-1-000123",
    });
    expect(parseCodeInput(` ${code.slice(0, 40)}\n${code.slice(40)} `)).toEqual({ code });
  });
});

describe("lookup failures", () => {
  it("rate limiting and network errors in Chinese", () => {
    expect(verifyFailure(429, "操作过于频繁，请稍后再试")).toBe(
      "查询过于频繁：同一网络短时间内查询次数过多，请稍等一分钟后再试。",
    );
    expect(verifyFailure(0, "")).toMatch(/^网络异常：无法连接服务器/);
    expect(verifyFailure(400, "请填写持证人姓名，或使用证书二维码中的验证码")).toBe(
      "请填写持证人姓名，或使用证书二维码中的验证码",
    );
  });
});
