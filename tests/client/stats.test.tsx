// @vitest-environment jsdom
/**
 * The statistics page (issue 32) in jsdom: the numbers of a chart are in the table beside it (with
 * column headers), and a click on a pipeline bar — or on the state's link in the table — opens the
 * works list filtered to that state and contest (a school admin: the school's works list).
 * jsdom has no canvas, so the ECharts wrapper is replaced by a stand-in that renders the chart's
 * accessible label and one button per bar, each calling the chart's click handler as ECharts would.
 */
import { describe, expect, test, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider, createMemoryRouter, useLocation } from "react-router";
import type { ChartClick } from "../../src/client/stats/chart";
import type { ChartOption } from "../../src/client/stats/echarts";
import type { PipelineReply, StatsScope } from "../../src/shared/stats/schema";
import { WORK_STATES, WORK_STATE_NAMES } from "../../src/shared/work/states";
import { jsonResponse, stubFetchPerTest, stubMatchMedia } from "../helpers/jsdom";

vi.mock("../../src/client/stats/chart", () => ({
  Chart({ option, label, onClick }: { option: ChartOption; label: string; onClick?: (p: ChartClick) => void }) {
    const xs = (option.xAxis as { data?: string[] }).data ?? [];
    const series = (option.series as { name: string; data: number[] }[]) ?? [];
    return (
      <div role="img" aria-label={label}>
        {series.flatMap((s, si) =>
          xs.map((x, di) => (
            <button
              key={`${si}-${di}`}
              onClick={() => onClick?.({ name: x, seriesName: s.name, seriesIndex: si, dataIndex: di, value: s.data[di] })}
            >
              {`bar ${s.name} ${x} ${s.data[di]}`}
            </button>
          )),
        )}
      </div>
    );
  },
}));

const { default: StatsPage } = await import("../../src/client/stats/page");

stubMatchMedia(true);
const fetchMock = stubFetchPerTest();

const scope = (role: number): StatsScope => ({
  role,
  year: 2026,
  years: [2026, 2025],
  contestId: null,
  contests: [
    { id: 2, name: "2026 浙江省赛", level: "province", year: 2026, parentId: null },
    { id: 5, name: "2026 杭州一中校赛", level: "school", year: 2026, parentId: 2 },
  ],
  schoolId: role === 2 ? 7 : null,
  schoolName: role === 2 ? "杭州一中" : null,
  province: null,
  computedAt: "2026-12-02T05:00:00.000Z",
});

/** Two contests; province: 1,200 submitted, 30 accepted; school contest: 45 submitted, 5 drafts. */
function pipeline(role: number): PipelineReply {
  const zero = Object.fromEntries(WORK_STATES.map((s) => [s, 0]));
  const a = { ...zero, submitted: 1200, accepted: 30 };
  const b = { ...zero, submitted: 45, draft: 5 };
  return {
    scope: scope(role),
    states: WORK_STATES.map((s) => ({ state: s, name: WORK_STATE_NAMES[s] })),
    contests: [
      { contestId: 2, contestName: "2026 浙江省赛", level: "province", parentId: null, counts: a, total: 1230 },
      { contestId: 5, contestName: "2026 杭州一中校赛", level: "school", parentId: 2, counts: b, total: 50 },
    ],
    totals: { ...zero, submitted: 1245, accepted: 30, draft: 5 },
    total: 1280,
  };
}

function Where() {
  const loc = useLocation();
  return <div data-testid="where">{loc.pathname + loc.search}</div>;
}

function mount(path: string) {
  const route = { label: "统计", path: "/statistics" };
  const router = createMemoryRouter(
    [
      { path: "/statistics", element: <StatsPage route={route} /> },
      { path: "*", element: <Where /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const reply = (data: unknown) => jsonResponse(200, { error: 0, info: "", data });

describe("作品状态 (pipeline)", () => {
  test("the table beside the chart holds the chart's numbers under column headers", async () => {
    fetchMock.mockResolvedValue(reply(pipeline(0)));
    mount("/statistics?tab=pipeline");
    const card = await screen.findByTestId("pipeline-card");
    expect(String(fetchMock.mock.calls[0][0])).toContain("/Backend/Stats/pipeline");

    const table = within(card).getByRole("table");
    const headers = within(table)
      .getAllByRole("columnheader")
      .map((h) => h.textContent);
    expect(headers).toEqual(["状态", "作品数", "占比", "2026 浙江省赛", "2026 杭州一中校赛"]);
    const row = within(table).getByText("已提交").closest("tr")!;
    expect([...row.querySelectorAll("td")].map((td) => td.textContent)).toEqual(["已提交", "1,245", "97.3%", "1,200", "45"]);
    // The chart draws the same numbers, and says so to a screen reader.
    expect(within(card).getByRole("button", { name: "bar 2026 浙江省赛 已提交 1200" })).toBeTruthy();
    expect(within(card).getByRole("img", { name: /^各状态作品数：已提交 1245，省赛已接收 30，草稿 5/ })).toBeTruthy();
    // Every state of the state machine has its row, in its order.
    expect(within(table).getAllByRole("row").length).toBe(WORK_STATES.length + 1);
  });

  test("a click on a bar opens the works list filtered to that state and that bar's contest", async () => {
    fetchMock.mockResolvedValue(reply(pipeline(0)));
    mount("/statistics?tab=pipeline");
    fireEvent.click(await screen.findByRole("button", { name: "bar 2026 杭州一中校赛 已提交 45" }));
    expect((await screen.findByTestId("where")).textContent).toBe("/WorkManagement?status=submitted&contestId=5");
  });

  test("with one contest chosen, the table's state link carries it", async () => {
    fetchMock.mockResolvedValue(reply(pipeline(1)));
    mount("/statistics?tab=pipeline&contestId=2");
    const link = await screen.findByTestId("pipeline-link-accepted");
    expect(link.getAttribute("href")).toBe("/WorkManagement?status=accepted&contestId=2");
    expect(String(fetchMock.mock.calls[0][0])).toContain("contestId=2");
  });

  test("a school admin's bar opens the school's works list", async () => {
    fetchMock.mockResolvedValue(reply(pipeline(2)));
    mount("/statistics?tab=pipeline");
    fireEvent.click(await screen.findByRole("button", { name: "bar 2026 浙江省赛 已提交 1200" }));
    expect((await screen.findByTestId("where")).textContent).toBe("/school/WorkManagement?status=submitted");
  });
});

describe("the page", () => {
  test("the .xlsx button asks the open tab's export with the page's query", async () => {
    fetchMock.mockResolvedValue(reply(pipeline(0)));
    mount("/statistics?tab=pipeline&year=2026&contestId=2");
    await screen.findByTestId("pipeline-card");
    expect(screen.getByTestId("stats-xlsx").getAttribute("href")).toBe("/Backend/Stats/pipeline/export?year=2026&contestId=2");
  });

  test("a refused figure shows the server's message", async () => {
    fetchMock.mockResolvedValue(jsonResponse(403, { error: 403, info: "只能查看您管理的赛事的统计" }));
    mount("/statistics?tab=pipeline&contestId=9");
    await waitFor(() => expect(screen.getByTestId("stats-error").textContent).toContain("只能查看您管理的赛事的统计"));
  });
});
