// @vitest-environment jsdom
/**
 * Issue 15 (heavy pages): a page whose script is in renders in the same pass as the layout
 * (routing/lazy-page.ts), the root loader waits for the opened page's script for at most
 * PAGE_WAIT_MS (layout/router.tsx), and the side menu's to-do badges wait until the page has
 * shown its first data (todo/todo-api.ts useIdleAfterPage).
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { Suspense, useState, type ReactNode } from "react";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { LoaderFunctionArgs } from "react-router";
import { PAGE_WAIT_MS, lazyPage } from "../../src/client/routing/lazy-page";
import { rootLoader } from "../../src/client/layout/router";
import type { RouteEntry } from "../../src/client/routing/model";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A promise with its resolve function. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function Counter() {
  const [n, setN] = useState(0);
  return <button onClick={() => setN(n + 1)}>页面 {n}</button>;
}

describe("a lazily loaded page", () => {
  test("whose script is in renders in the first pass: the loading fallback never shows", async () => {
    const Page = lazyPage(async () => ({ default: Counter }));
    await Page.preload();
    const fallbacks: string[] = [];
    function Fallback() {
      fallbacks.push("shown");
      return <div>加载中</div>;
    }
    render(
      <Suspense fallback={<Fallback />}>
        <Page />
      </Suspense>,
    );
    // No await: the page is there right after the first render.
    expect(screen.getByRole("button").textContent).toBe("页面 0");
    expect(fallbacks).toEqual([]);
  });

  test("mounted before its script came: the fallback, then the page, which keeps its state when the layout renders again", async () => {
    const load = deferred<{ default: typeof Counter }>();
    const Page = lazyPage(() => load.promise);
    const Layout = ({ title }: { title: string }): ReactNode => (
      <div>
        <h1>{title}</h1>
        <Suspense fallback={<div>加载中</div>}>
          <Page />
        </Suspense>
      </div>
    );
    const view = render(<Layout title="一" />);
    expect(screen.getByText("加载中")).toBeTruthy();
    await act(async () => load.resolve({ default: Counter }));
    fireEvent.click(screen.getByRole("button"));
    expect(screen.getByRole("button").textContent).toBe("页面 1");
    // The script is now in: a second render of the layout must not swap the page's component (a remount would lose the 1).
    view.rerender(<Layout title="二" />);
    expect(screen.getByText("二")).toBeTruthy();
    expect(screen.getByRole("button").textContent).toBe("页面 1");
  });
});

describe("the root loader and the opened page's script", () => {
  const visitor = { needToLogin: true, userType: null, hasComplaintRight: false, isSchoolContestJudge: false };
  beforeEach(() => {
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: 0, info: "", data: visitor }), {
            status: 200,
            headers: { "content-type": "application/json" },
          }),
      ),
    );
  });
  const args = (path: string) =>
    ({ request: new Request(`http://localhost${path}`), params: {} }) as unknown as LoaderFunctionArgs;

  test("returns once the page's script is in, so the first render has the page", async () => {
    const load = deferred<{ default: () => null }>();
    const table: RouteEntry[] = [{ label: "新闻", path: "/news", element: lazyPage(() => load.promise) }];
    let done = false;
    const loading = rootLoader(args("/news"), table).then(() => (done = true));
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 5));
    expect(done).toBe(false);
    load.resolve({ default: () => null });
    await loading;
    expect(done).toBe(true);
  });

  test(`a script that does not come within ${PAGE_WAIT_MS} ms does not hold the layout back longer`, async () => {
    const table: RouteEntry[] = [{ label: "新闻", path: "/news", element: lazyPage(() => new Promise(() => {})) }];
    const started = Date.now();
    await rootLoader(args("/news"), table);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(PAGE_WAIT_MS - 50);
    expect(waited).toBeLessThan(PAGE_WAIT_MS + 2000);
  });

  test("a page this user may not open is not waited for", async () => {
    const load = vi.fn(() => new Promise<{ default: () => null }>(() => {}));
    const table: RouteEntry[] = [
      { label: "用户", path: "/admin/users", authority: ["page.admin", "view"], element: lazyPage(load) },
    ];
    const started = Date.now();
    await rootLoader(args("/admin/users"), table);
    expect(Date.now() - started).toBeLessThan(PAGE_WAIT_MS);
    expect(load).not.toHaveBeenCalled();
  });
});

describe("what waits for the page (the menu's to-do badges)", () => {
  let idleCallbacks: (() => void)[];
  beforeEach(() => {
    vi.resetModules();
    idleCallbacks = [];
    vi.stubGlobal("requestIdleCallback", (f: () => void) => idleCallbacks.push(f));
    vi.stubGlobal("cancelIdleCallback", () => {});
  });
  const runIdle = () => act(() => idleCallbacks.splice(0).forEach((f) => f()));

  async function mount() {
    const { useIdleAfterPage } = await import("../../src/client/todo/todo-api");
    const { markPageShown } = await import("../../src/client/routing/page-shown");
    const client = new QueryClient();
    function Badges() {
      return <span data-testid="badges">{useIdleAfterPage() ? "可以" : "等待"}</span>;
    }
    render(
      <QueryClientProvider client={client}>
        <Badges />
      </QueryClientProvider>,
    );
    return { client, markPageShown, state: () => screen.getByTestId("badges").textContent };
  }

  test("come once the page has shown, its first data is in and the browser is idle", async () => {
    const { client, markPageShown, state } = await mount();
    runIdle();
    expect(state()).toBe("等待"); // idle, but no page yet
    const data = deferred<number>();
    let fetching!: Promise<number>;
    act(() => void (fetching = client.fetchQuery({ queryKey: ["page-list"], queryFn: () => data.promise })));
    act(() => markPageShown());
    runIdle();
    expect(state()).toBe("等待"); // the page's first request is still under way
    await act(async () => {
      data.resolve(1);
      await fetching;
    });
    expect(state()).toBe("等待"); // its answer is in; now the browser's next idle moment
    runIdle();
    expect(state()).toBe("可以");
  });

  test("come after 3 s at the latest, when no page shows", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { state } = await mount();
    act(() => void vi.advanceTimersByTime(2900));
    expect(state()).toBe("等待");
    act(() => void vi.advanceTimersByTime(200));
    expect(state()).toBe("可以");
  });
});
