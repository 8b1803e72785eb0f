// @vitest-environment jsdom
/** The on-demand row button (components/on-demand.tsx): nothing of antd's Tooltip or Popconfirm until used, then the same confirmation. */
import { afterEach, describe, expect, test, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { Button } from "antd";
import { OnDemand } from "../../src/client/components/on-demand";

afterEach(cleanup);

const row = (onConfirm: () => void) => (
  <OnDemand tip="锁定" confirm={{ title: "锁定该账号？", okText: "锁定", onConfirm }}>
    <Button size="small" data-testid="lock">
      L
    </Button>
  </OnDemand>
);

describe("OnDemand", () => {
  test("renders only the button until the pointer comes; then the tooltip shows and a click opens the confirmation, whose OK confirms", async () => {
    const onConfirm = vi.fn();
    render(row(onConfirm));
    expect(screen.getByTestId("lock").textContent).toBe("L");
    expect(document.querySelector(".ant-tooltip, .ant-popover")).toBeNull();
    fireEvent.pointerEnter(screen.getByTestId("lock"));
    await waitFor(() => expect(screen.getByText("锁定", { selector: ".ant-tooltip-inner" })).toBeTruthy());
    expect(screen.queryByText("锁定该账号？")).toBeNull();
    fireEvent.click(screen.getByTestId("lock"));
    await waitFor(() => expect(screen.getByText("锁定该账号？")).toBeTruthy());
    fireEvent.click(screen.getByRole("button", { name: /^锁\s*定$/ }));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
  });

  test("a click without a pointer first opens the confirmation at once", async () => {
    const onConfirm = vi.fn();
    render(row(onConfirm));
    fireEvent.click(screen.getByTestId("lock"));
    await waitFor(() => expect(screen.getByText("锁定该账号？")).toBeTruthy());
    expect(onConfirm).not.toHaveBeenCalled();
  });

  test("keyboard focus mounts the real button and keeps the focus on it", async () => {
    render(row(() => {}));
    const before = screen.getByTestId("lock");
    before.focus();
    fireEvent.focus(before);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("lock")));
  });

  test("with `real`, a click on the look-alike reaches the real button", async () => {
    const clicked = vi.fn();
    render(
      <OnDemand
        real={
          <Button data-testid="real" onClick={clicked}>
            删除
          </Button>
        }
      >
        <Button data-testid="light">删除</Button>
      </OnDemand>,
    );
    expect(screen.queryByTestId("real")).toBeNull();
    fireEvent.click(screen.getByTestId("light"));
    await waitFor(() => expect(clicked).toHaveBeenCalledTimes(1));
    expect(screen.queryByTestId("light")).toBeNull();
  });
});
