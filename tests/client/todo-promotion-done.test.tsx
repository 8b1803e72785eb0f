// @vitest-environment jsdom
/**
 * 已处理 on the contest admin's 待决定的晋级 to-do (issue 29): only promotion items offer it; after
 * the confirmation one POST names the item, the server's answer is shown, and the list is read
 * again (the item gone); an item that is gone already is refused with the server's text.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router";
import type { TodoItem } from "../../src/shared/todo/schema";
import { setFeedbackSink } from "../../src/client/request";
import { jsonResponse as json, stubFetchPerTest, stubMatchMedia } from "../helpers/jsdom";

vi.mock("../../src/client/providers/use-session", () => ({ useSession: () => ({ loggedIn: true }) }));
const { TodoCard } = await import("../../src/client/usercenter/TodoCard");

stubMatchMedia();
const fetchMock = stubFetchPerTest();
const shown: string[] = [];
beforeEach(() => {
  shown.length = 0;
  setFeedbackSink({
    notifyError: (n) => shown.push(`${n.message}：${n.description}`),
    messageError: (t) => shown.push(t),
    messageSuccess: (t) => shown.push(t),
  });
});
afterEach(() => setFeedbackSink(null));

const KEY = "promotion:3:41:candidate";
const promotion: TodoItem = {
  key: KEY,
  kind: "promotion",
  title: "作品《智慧校园》改获「三等奖」，尚未晋级国赛",
  detail: "2026 省赛 · 本大类获同等奖项的作品均已晋级；晋级名额已用完（共 5 个）。请决定是否晋级",
  count: 1,
  dueAt: null,
  link: "/ContestAdmin/ContestResult",
  menu: "/ContestAdmin/ContestResult",
};
const review: TodoItem = {
  ...promotion,
  key: "formatReview:3",
  kind: "formatReview",
  title: "待形式审查的作品",
  link: "/x",
  menu: "/x",
};
const todo = (items: TodoItem[]) => json(200, { error: 0, info: "成功", data: { items, badges: {}, total: items.length } });

function mount() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <TodoCard />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Clicks the item's 已处理 and confirms. */
async function markDone() {
  const item = (await screen.findAllByTestId("todo-item")).find((i) => i.getAttribute("data-todo-key") === KEY)!;
  fireEvent.click(within(item).getByRole("button", { name: /已处理/ }));
  expect(await screen.findByText("标记为已处理？")).toBeTruthy();
  expect(screen.getByText("标记后此事项不再显示；作品的晋级情况再次变化时会重新提醒。")).toBeTruthy();
  const ok = screen.getAllByRole("button", { name: "已处理" }).find((b) => !item.contains(b))!;
  fireEvent.click(ok);
}

const posts = () => fetchMock.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === "POST");

describe("待决定的晋级: 已处理", () => {
  test("only a promotion item offers it; confirmed, one POST names the item, the answer is shown and the item leaves", async () => {
    let items = [review, promotion];
    fetchMock.mockImplementation(async (_url: string, init?: RequestInit) => {
      if (init?.method === "POST") {
        items = [review];
        return json(200, { error: 0, info: "已标记为已处理" });
      }
      return todo(items);
    });
    mount();
    const rows = await screen.findAllByTestId("todo-item");
    expect(rows).toHaveLength(2);
    const other = rows.find((i) => i.getAttribute("data-todo-key") === review.key)!;
    expect(within(other).queryByRole("button", { name: /已处理/ })).toBeNull();
    await markDone();
    await waitFor(() => expect(screen.getAllByTestId("todo-item")).toHaveLength(1));
    expect(posts()).toHaveLength(1);
    const [url, init] = posts()[0];
    expect(String(url)).toBe("/Backend/UserCenter/todo/promotion/done");
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({ key: KEY });
    expect(shown).toEqual(["已标记为已处理"]);
    expect(screen.queryByText(promotion.title)).toBeNull();
  });

  test("an item gone already: the server's reason is shown and the list read again", async () => {
    let items = [promotion];
    const info = "该待办事项已不存在：可能已有人标记为已处理，或作品的晋级情况已变化，请刷新";
    fetchMock.mockImplementation(async (_url: string, init?: RequestInit) => {
      if (init?.method === "POST") {
        items = [];
        return json(404, { error: 404, info });
      }
      return todo(items);
    });
    mount();
    await markDone();
    expect(await screen.findByText("暂无待办事项，一切都处理好了")).toBeTruthy();
    expect(posts()).toHaveLength(1);
    expect(shown.join()).toContain(info);
  });
});
