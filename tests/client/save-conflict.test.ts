/**
 * The client's side of deadline-day faults (issue 30): a save refused by a co-author's newer
 * version keeps the typing (mergeEdits), and a 503 tells the user the server is busy and
 * when to try again (busyInfo).
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { mergeEdits, newerOf } from "../../src/client/work/components/save-conflict";
import { BUSY_TEXT, busyInfo, post, setFeedbackSink, type Notice } from "../../src/client/request";

describe("a save that lost a race", () => {
  const base = { name: "作品", summary: "旧简介", designIdea: "旧思路", keyPoints: "旧难点", ai: { used: false, tools: [] } };

  test("fields only the others changed take theirs, the student's own changes stay, clashes are named", () => {
    const mine = { ...base, summary: "我的简介", keyPoints: "我们都改了" };
    const theirs = { ...base, designIdea: "他人的思路", keyPoints: "他人的难点", ai: { used: true, tools: ["X"] } };
    const r = mergeEdits(base, mine, theirs);
    expect(r.merged).toEqual({
      ...base,
      summary: "我的简介",
      designIdea: "他人的思路",
      keyPoints: "我们都改了",
      ai: { used: true, tools: ["X"] },
    });
    expect(r.theirsChanged).toEqual(["designIdea", "keyPoints", "ai"]);
    expect(r.clashes).toEqual(["keyPoints"]);
  });

  test("the same change on both sides is no clash; nothing changed by others keeps everything typed", () => {
    expect(mergeEdits(base, { ...base, summary: "同" }, { ...base, summary: "同" }).clashes).toEqual([]);
    const mine = { ...base, summary: "我的" };
    expect(mergeEdits(base, mine, base)).toEqual({ merged: mine, theirsChanged: [], clashes: [] });
  });

  test("the newer version is read from a 409 reply only", () => {
    const work = { id: 1, version: 3 };
    expect(newerOf({ status: 409, error: 409, info: "作品已被他人修改", data: { work } } as never)).toBe(work);
    expect(newerOf({ status: 409, error: 409, info: "作品已被他人修改" } as never)).toBeUndefined();
    expect(newerOf({ status: 200, error: 0, info: "", data: { work } } as never)).toBeUndefined();
  });
});

describe("503: the server is busy", () => {
  test("the server's text, or 服务器繁忙，请稍后重试, with the Retry-After hint", () => {
    expect(busyInfo("服务器繁忙，请稍后重试", "5")).toBe("服务器繁忙，请稍后重试（请约 5 秒后再试）");
    expect(busyInfo("", "10")).toBe(`${BUSY_TEXT}（请约 10 秒后再试）`);
    expect(busyInfo("", null)).toBe(BUSY_TEXT);
    const now = Date.parse("2026-12-02T08:00:00Z");
    expect(busyInfo("", "Wed, 02 Dec 2026 08:00:30 GMT", now)).toBe(`${BUSY_TEXT}（请约 30 秒后再试）`);
    expect(busyInfo("", "soon")).toBe(BUSY_TEXT);
  });
});

describe("503 through the request client", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setFeedbackSink(null);
  });

  test("the notification says the server is busy and when to retry", async () => {
    const shown: Notice[] = [];
    setFeedbackSink({ notifyError: (n) => shown.push(n), messageError: () => {}, messageSuccess: () => {} });
    const body = JSON.stringify({ error: 503, info: BUSY_TEXT, data: { retryAfter: 5 } });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(body, { status: 503, headers: { "content-type": "application/json", "retry-after": "5" } })),
    );
    const r = await post("/Backend/Work/work/1/submit", {});
    expect(r).toMatchObject({ status: 503, error: 503, info: "服务器繁忙，请稍后重试（请约 5 秒后再试）" });
    expect(shown.map((n) => n.description)).toEqual(["服务器繁忙，请稍后重试（请约 5 秒后再试）"]);
  });

  test("a proxy's 503 without our envelope reads the same", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("<html>503</html>", { status: 503, headers: { "retry-after": "20" } })),
    );
    expect((await post("/Backend/Work/work/1/submit", {}, { notify: false })).info).toBe(`${BUSY_TEXT}（请约 20 秒后再试）`);
  });
});
