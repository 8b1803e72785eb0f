// @vitest-environment jsdom
/**
 * The 「显示」 link next to a masked phone (issue 28): only for a role that may reveal, named
 * for screen readers, one request to the reveal route on click, then the full number in place.
 */
import { describe, expect, test, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RevealPhone } from "../../src/client/components/RevealPhone";
import { jsonResponse as json, stubFetchPerTest } from "../helpers/jsdom";

const fetchMock = stubFetchPerTest();

const mount = (props: Partial<Parameters<typeof RevealPhone>[0]> = {}) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RevealPhone phone="138****5678" url="/Backend/Admin/user/7/phone" canReveal owner="申诉人的" {...props} />
    </QueryClientProvider>,
  );

describe("RevealPhone", () => {
  test("a masked phone with 「显示」 shows the full number from the reveal route after one click", async () => {
    fetchMock.mockResolvedValue(json(200, { error: 0, info: "成功", data: { id: 7, phone: "13812345678" } }));
    const onRevealed = vi.fn();
    mount({ onRevealed });
    expect(screen.getByText("138****5678")).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    const link = screen.getByRole("button", { name: "显示申诉人的完整手机号" });
    expect(link.textContent).toBe("显示");
    fireEvent.click(link);
    expect((await screen.findByTestId("phone-full")).textContent).toBe("13812345678");
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0][0])).toBe("/Backend/Admin/user/7/phone");
    expect(onRevealed).toHaveBeenCalledWith("13812345678");
    expect(screen.queryByText("138****5678")).toBeNull();
  });

  test("no link for a role that may not reveal, nor for an unmasked or missing phone", () => {
    mount({ canReveal: false });
    expect(screen.getByText("138****5678")).toBeTruthy();
    expect(screen.queryByRole("button")).toBeNull();
    cleanup();
    mount({ phone: "13812345678" });
    expect(screen.queryByRole("button")).toBeNull();
    cleanup();
    mount({ phone: null });
    expect(screen.getByText("—")).toBeTruthy();
  });

  test("a refused reveal shows the server's text", async () => {
    fetchMock.mockResolvedValue(json(404, { error: 404, info: "用户不存在或不在您的管理范围内" }));
    mount();
    fireEvent.click(screen.getByRole("button", { name: "显示申诉人的完整手机号" }));
    expect(await screen.findByText("用户不存在或不在您的管理范围内")).toBeTruthy();
  });
});
