// @vitest-environment jsdom
/**
 * The contest's stage dates, one source shown one way (issue 29): the home timeline lists the stages
 * in the contest's order (报名 … 公示, 申诉) with years, even when a publication moved the publicity
 * stage to start before the others; the complaint entry lists each contest's 公示期 before its 申诉期
 * with years.
 */
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { cleanup, render, within } from "@testing-library/react";
import { Timeline } from "../../src/client/public/home";
import { Windows } from "../../src/client/complaint/windows";
import { inStageOrder, stageDates } from "../../src/shared/contest/stage-dates";
import type { Edition } from "../../src/shared/mainpage/schema";
import type { ComplaintWindow } from "../../src/shared/complaint/schema";
import { stubMatchMedia } from "../helpers/jsdom";

beforeAll(() => {
  stubMatchMedia(true);
});
afterEach(cleanup);

const bj = (d: string) => new Date(`${d}T00:00:00+08:00`).toISOString();
// As the server sends them: by start time, the publicity moved forward to the publication (2026-11-29).
const edition: Edition = {
  id: 1,
  name: "2027 年（第 20 届）中国大学生计算机设计大赛",
  year: 2027,
  level: "national",
  description: null,
  currentStage: "publicity",
  stages: [
    { stage: "publicity", name: "公示", startsAt: bj("2026-11-29"), endsAt: bj("2027-05-16") },
    { stage: "registration", name: "报名", startsAt: bj("2027-01-01"), endsAt: bj("2027-05-01") },
    { stage: "online_judging", name: "网络评审", startsAt: bj("2027-01-20"), endsAt: bj("2027-03-01") },
    { stage: "school_review", name: "校内审核", startsAt: bj("2027-05-01"), endsAt: bj("2027-05-16") },
    { stage: "complaint", name: "申诉", startsAt: bj("2027-05-01"), endsAt: bj("2027-06-01") },
  ],
} as Edition;

describe("stage dates", () => {
  test("the home timeline lists the stages in the contest's order, each with the years of its dates", () => {
    const { getByTestId } = render(<Timeline edition={edition} />);
    const items = within(getByTestId("timeline"))
      .getAllByRole("listitem")
      .filter((li) => li.getAttribute("data-testid") !== "timeline-today");
    expect(items.map((li) => li.querySelector(".mp-tl-name")!.textContent!.replace("进行中", ""))).toEqual([
      "报名",
      "校内审核",
      "网络评审",
      "公示",
      "申诉",
    ]);
    expect(items.map((li) => li.querySelector(".mp-tl-date")!.textContent)).toEqual([
      "2027-01-01 至 2027-04-30",
      "2027-05-01 至 2027-05-15",
      "2027-01-20 至 2027-02-28",
      "2026-11-29 至 2027-05-15",
      "2027-05-01 至 2027-05-31",
    ]);
  });

  test("the complaint entry lists each contest's 公示期 before its 申诉期, with years", () => {
    const w = (contestId: number, stage: string, from: string, to: string, open: boolean): ComplaintWindow => ({
      contestId,
      contestName: `赛事${contestId}`,
      stage,
      startsAt: bj(from),
      endsAt: bj(to),
      open,
    });
    // The server's order: open first.
    const { getByTestId } = render(
      <Windows
        windows={[
          w(2, "complaint", "2026-11-01", "2026-12-31", true),
          w(1, "complaint", "2026-11-20", "2026-12-20", true),
          w(1, "publicity", "2026-11-29", "2026-12-06", true),
          w(2, "publicity", "2026-10-01", "2026-10-08", false),
        ]}
      />,
    );
    const rows = [...getByTestId("complaint-windows").querySelectorAll("tbody tr")].map((tr) =>
      [...tr.querySelectorAll("td")].slice(0, 3).map((td) => td.textContent),
    );
    expect(rows).toEqual([
      ["赛事2", "公示期", "2026-10-01 00:00 至 2026-10-08 00:00"],
      ["赛事2", "申诉期", "2026-11-01 00:00 至 2026-12-31 00:00"],
      ["赛事1", "公示期", "2026-11-29 00:00 至 2026-12-06 00:00"],
      ["赛事1", "申诉期", "2026-11-20 00:00 至 2026-12-20 00:00"],
    ]);
  });

  test("inStageOrder and stageDates", () => {
    expect(inStageOrder([{ stage: "complaint" }, { stage: "registration" }, { stage: "publicity" }]).map((s) => s.stage)).toEqual(
      ["registration", "publicity", "complaint"],
    );
    expect(stageDates(bj("2026-09-01"), bj("2026-09-16"))).toBe("2026-09-01 至 2026-09-15");
    expect(stageDates("2026-11-29T06:23:00.000Z", "2026-12-06T06:23:00.000Z")).toBe("2026-11-29 至 2026-12-06");
  });
});
