// @vitest-environment jsdom
import { afterEach, describe, expect, test } from "vitest";
import { act, cleanup, render, screen } from "@testing-library/react";
import { RouterProvider, createMemoryRouter } from "react-router";
import { useComplaintView } from "../../src/client/layout/complaint-view";

/** Shows which menu the layout would build on the current address. */
function Probe() {
  return <div data-testid="mode">{useComplaintView() ? "complaint-view" : "normal"}</div>;
}

const mount = (path: string) => {
  const router = createMemoryRouter([{ path: "*", element: <Probe /> }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
};
const mode = () => screen.getByTestId("mode").textContent;

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe("complaint-view mode", () => {
  test("a reload outside the area shows the normal menu even after an earlier visit to /complaint", () => {
    sessionStorage.setItem("saiwu.complaint-view", "1"); // what the old sticky mode left behind
    mount("/index");
    expect(mode()).toBe("normal");
    expect(sessionStorage.getItem("saiwu.complaint-view")).toBeNull();
  });

  test("on inside the area, off with the exit entry and with any route outside it", async () => {
    const router = mount("/complaint-view/complaint");
    expect(mode()).toBe("complaint-view");
    await act(() => router.navigate("/complaint-view/view-complaint"));
    expect(mode()).toBe("complaint-view");
    await act(() => router.navigate("/")); // the exit entry
    expect(mode()).toBe("normal");
    await act(() => router.navigate("/Complaint-View/complaint"));
    expect(mode()).toBe("complaint-view");
    await act(() => router.navigate("/author/work-management"));
    expect(mode()).toBe("normal");
    await act(() => router.navigate("/complaint")); // the public entry keeps the normal menu
    expect(mode()).toBe("normal");
  });

  test("a reload inside the area keeps the mode", () => {
    mount("/complaint-view/view-complaint");
    expect(mode()).toBe("complaint-view");
  });
});
