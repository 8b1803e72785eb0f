// @vitest-environment jsdom
/**
 * 自动分配: the outcome stays on screen after a run. The run saves its parameters as the contest's
 * settings and refreshes the judging queries; the settings that come back (or arrive late, on a
 * slow page) must not put the dialog back to its form.
 */
import { beforeEach, describe, expect, test } from "vitest";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { AutoAssignModal } from "../../src/client/judging/admin/AutoAssignModal";
import { jsonResponse as json, stubFetchPerTest, stubMatchMedia } from "../helpers/jsdom";
import type { AssignOutcome, JudgingSettings } from "../../src/shared/judging/schema";

const fetchMock = stubFetchPerTest();
const ok = (data: unknown) => json(200, { error: 0, info: "成功", data });

const OUTCOME: AssignOutcome = {
  applied: true,
  complete: true,
  added: 4,
  proposed: 4,
  issues: [],
  shortfalls: [],
  works: 2,
  judges: 4,
  maxLoad: 1,
  minLoad: 1,
  loadSpread: 0,
};

/** The server: settings as last saved, the assignment saving its parameters, no check report. */
function server(settings: { current: JudgingSettings }, settingsGate?: Promise<void>) {
  fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
    const u = String(url);
    if (u.includes("/settings")) {
      await settingsGate;
      return ok({ ...settings.current });
    }
    if (u.includes("/assign") && init?.method === "POST") {
      const body = JSON.parse(String(init.body)) as JudgingSettings;
      settings.current = {
        reviewsPerWork: body.reviewsPerWork,
        judgeCapacity: body.judgeCapacity,
        avoidProvince: body.avoidProvince,
      };
      return ok(OUTCOME);
    }
    return json(500, { error: 1, info: "无" });
  });
}

const mount = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AutoAssignModal contestId={3} open onClose={() => {}} />
    </QueryClientProvider>,
  );

beforeEach(() => stubMatchMedia());

describe("the auto-assign dialog", () => {
  test("after a run with a changed N, the outcome stays while the saved settings come back", async () => {
    const settings = { current: { reviewsPerWork: 3, judgeCapacity: null, avoidProvince: false } };
    server(settings);
    mount();
    const n = await screen.findByTestId("auto-assign-n");
    await waitFor(() => expect((n as HTMLInputElement).value).toBe("3"));
    fireEvent.change(n, { target: { value: "2" } });
    fireEvent.click(screen.getByTestId("auto-assign-run"));
    await screen.findByTestId("auto-assign-result");
    // The refresh refetches the settings, now N = 2.
    await waitFor(() => expect(fetchMock.mock.calls.filter(([u]) => String(u).includes("/settings")).length).toBe(2));
    expect(settings.current.reviewsPerWork).toBe(2);
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(screen.getByTestId("auto-assign-result").textContent).toContain("新增分配");
    expect(screen.queryByTestId("auto-assign-n")).toBeNull();
  });

  test("开始分配 waits for the contest's settings, so a run uses them and not the defaults", async () => {
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const settings = { current: { reviewsPerWork: 5, judgeCapacity: 20, avoidProvince: true } };
    server(settings, gate);
    mount();
    const run = await screen.findByTestId("auto-assign-run");
    fireEvent.click(run);
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes("/assign"))).toBe(false);
    release();
    await waitFor(() => expect((screen.getByTestId("auto-assign-n") as HTMLInputElement).value).toBe("5"));
    fireEvent.click(screen.getByTestId("auto-assign-run"));
    await screen.findByTestId("auto-assign-result");
    const assign = fetchMock.mock.calls.find(([u]) => String(u).includes("/assign"));
    expect(JSON.parse(String(assign?.[1]?.body))).toMatchObject({ reviewsPerWork: 5, judgeCapacity: 20, avoidProvince: true });
  });
});
