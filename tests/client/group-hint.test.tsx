// @vitest-environment jsdom
/**
 * Issue 29: the work form's 专业组 hint shows the server's check (the rule submit applies):
 * which author's major triggers 专业组, a one-click fix, and the majors that count.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { GroupHint } from "../../src/client/work/components/GroupHint";
import type { GroupCheckReply } from "../../src/shared/work/group-check";

afterEach(cleanup);

const CHECK: GroupCheckReply = {
  categoryName: "(AI+)数媒静态设计",
  hasProfessionalGroup: true,
  majors: [
    { code: "080906", name: "数字媒体技术" },
    { code: "130508", name: "数字媒体艺术" },
  ],
  authors: [{ name: "黄嘉怡", majorName: "数字媒体艺术", professional: true }],
  required: "professional",
  problem: "作者「黄嘉怡（数字媒体艺术）」的专业属于本大类的专业组专业，应报专业组",
};

describe("the 专业组 hint", () => {
  test("names the author, offers the fix and lists the majors", () => {
    const pick = vi.fn();
    render(<GroupHint check={CHECK} onPick={pick} />);
    expect(screen.getByTestId("group-problem").textContent).toContain(
      "作者「黄嘉怡（数字媒体艺术）」的专业属于本大类的专业组专业",
    );
    expect(screen.getByTestId("group-majors").textContent).toBe(
      "任一作者的专业属于以下专业组专业的，须报专业组：数字媒体技术（080906）、数字媒体艺术（130508）",
    );
    fireEvent.click(screen.getByRole("button", { name: /改报专业组/ }));
    expect(pick).toHaveBeenCalledWith("professional");
  });

  test("a fitting group says so; a 大类 without 专业组 shows the plain rule", () => {
    render(<GroupHint check={{ ...CHECK, problem: null }} onPick={() => {}} />);
    expect(screen.getByTestId("group-hint").textContent).toContain("按当前作者的专业，应报专业组");
    cleanup();
    render(<GroupHint check={{ ...CHECK, hasProfessionalGroup: false, majors: [] }} onPick={() => {}} />);
    expect(screen.queryByTestId("group-problem")).toBeNull();
  });
});
