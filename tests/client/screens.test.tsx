// @vitest-environment jsdom
import { afterEach, describe, expect, test, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { RouterProvider, createMemoryRouter } from "react-router";
import { ErrorScreen } from "../../src/client/components/ErrorScreen";
import { LoadingLogo } from "../../src/client/components/LoadingLogo";
import { loadingOpacity, nextLoadingPhase } from "../../src/client/components/loading-phase";
import {
  NOT_FOUND_HEADLINE,
  OTHER_ERROR_HEADLINE,
  REFUSED_HEADLINE,
  describeRouteError,
  truncateStack,
} from "../../src/client/components/route-error";
import { notFoundLoader } from "../../src/client/layout/router";
import { LoaderError } from "../../src/client/request";
import {
  ERROR_REDIRECT_SECONDS,
  ERROR_STACK_MAX_CHARS,
  LOADING_BOX_HEIGHT_PX,
  LOADING_BOX_PADDING_PX,
  LOADING_PHASE_STEP,
  LOADING_TICK_MS,
} from "../../src/shared/constants";
import { STATUS_TEXT } from "../../src/shared/errors";

/** Lets the router's loader promises and React's renders finish (timers stay faked). */
const settle = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  });

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("loading logo", () => {
  test("the phase steps by 0.1 and restarts at 0 once past π", () => {
    expect(LOADING_PHASE_STEP).toBe(0.1);
    expect(LOADING_TICK_MS).toBe(50);
    expect(nextLoadingPhase(0)).toBeCloseTo(0.1);
    expect(nextLoadingPhase(3.1)).toBe(0);
    expect(nextLoadingPhase(3.0)).toBeCloseTo(3.1);
    expect(loadingOpacity(Math.PI / 2)).toBe(1);
  });

  test("renders a 150px box with 20px padding whose opacity follows sin(phase) every 50 ms", () => {
    vi.useFakeTimers();
    render(<LoadingLogo />);
    const box = screen.getByTestId("loading-logo");
    expect(box.style.height).toBe(`${LOADING_BOX_HEIGHT_PX}px`);
    expect(box.style.padding).toBe(`${LOADING_BOX_PADDING_PX}px`);
    const svg = box.querySelector("svg")!;
    expect(Number(svg.style.opacity)).toBe(0);
    act(() => void vi.advanceTimersByTime(LOADING_TICK_MS * 5));
    expect(Number(svg.style.opacity)).toBeCloseTo(Math.sin(0.5), 5);
  });
});

describe("route errors", () => {
  test("404 is the wasteland, others ask to refresh; the stack is cut to 300 characters", () => {
    expect(ERROR_STACK_MAX_CHARS).toBe(300);
    const e = new LoaderError("作品不存在", 500);
    e.stack = "x".repeat(1000);
    const v = describeRouteError(e);
    expect(v).toMatchObject({ headline: OTHER_ERROR_HEADLINE, message: "作品不存在", status: 500, statusText: "LoaderError" });
    expect(v.stack).toBe(truncateStack("x".repeat(1000)));
    expect(v.stack.length).toBe(301);
  });

  test("a server refusal (4xx from a loader) shows the server's Chinese message without a stack", () => {
    const e = new LoaderError("您无权打印该作品的报名表", 403);
    e.stack = "Error: at loader (x.js:1:1)";
    expect(describeRouteError(e)).toEqual({
      headline: REFUSED_HEADLINE,
      message: "您无权打印该作品的报名表",
      status: 403,
      statusText: STATUS_TEXT[403],
      stack: "",
    });
    const gone = describeRouteError(new LoaderError("作品不存在或您无权查看", 404));
    expect(gone).toMatchObject({ headline: NOT_FOUND_HEADLINE, message: "作品不存在或您无权查看", stack: "" });
  });

  test("an unknown path shows the 404 screen and counts down to home unless the logo is clicked", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    const router = createMemoryRouter(
      [
        { path: "/", element: <div>首页内容</div> },
        { path: "*", loader: notFoundLoader, Component: () => null, errorElement: <ErrorScreen /> },
      ],
      { initialEntries: ["/no/such/page"] },
    );
    render(<RouterProvider router={router} />);
    await settle();
    expect(screen.getByText(NOT_FOUND_HEADLINE)).toBeTruthy();
    expect(screen.getByTestId("error-status").textContent).toContain("404");
    expect(screen.getByTestId("error-countdown").textContent).toContain(`${ERROR_REDIRECT_SECONDS} 秒`);
    await act(async () => void vi.advanceTimersByTime(1000));
    expect(screen.getByTestId("error-countdown").textContent).toContain(`${ERROR_REDIRECT_SECONDS - 1} 秒`);
    fireEvent.click(screen.getByTestId("error-logo"));
    await act(async () => void vi.advanceTimersByTime(10_000));
    expect(router.state.location.pathname).toBe("/no/such/page");
    expect(screen.getByTestId("error-countdown").textContent).toContain("已取消");
  });

  test("without a click the screen goes home after the countdown", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    const router = createMemoryRouter(
      [
        { path: "/", element: <div>首页内容</div> },
        { path: "*", loader: notFoundLoader, Component: () => null, errorElement: <ErrorScreen /> },
      ],
      { initialEntries: ["/gone"] },
    );
    render(<RouterProvider router={router} />);
    await settle();
    expect(screen.getByText(NOT_FOUND_HEADLINE)).toBeTruthy();
    for (let i = 0; i < ERROR_REDIRECT_SECONDS; i++) await act(async () => void vi.advanceTimersByTime(1000));
    await settle();
    expect(screen.getByText("首页内容")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/");
  });
});
