import { afterEach, beforeEach, vi } from "vitest";
import { cleanup } from "@testing-library/react";
import { clearRequestCache } from "../../src/client/request";

/** jsdom has no matchMedia; antd's breakpoints ask it. `matches` answers every query (true: a wide screen). */
export function stubMatchMedia(matches = false) {
  window.matchMedia ??= ((q: string) => ({
    matches,
    media: q,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
}

/** A JSON reply as fetch returns it. */
export const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * fetch replaced by a mock for each test of the file (reset, the request layer's cache cleared),
 * and the rendered tree and globals put back after it. Returns the mock.
 */
export function stubFetchPerTest() {
  const fetchMock = vi.fn();
  beforeEach(() => {
    fetchMock.mockReset();
    clearRequestCache();
    vi.stubGlobal("fetch", fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
  return fetchMock;
}
