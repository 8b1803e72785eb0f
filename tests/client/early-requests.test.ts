// @vitest-environment jsdom
/**
 * Issue 15 (heavy pages): the entry starts the session check and the page's remembered first GETs
 * before the admin bundle has loaded (src/client/early-requests.ts); the request client answers
 * the page's identical GET from that response once — never after a write, a login or logout,
 * another address or the user's first input, and never with another user's list of requests.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";

const SESSION = "/Backend/Common/user/get-current";
const LIST = "/Backend/Admin/user?current=1&pageSize=20&sort=-id";
const SCHOOLS = "/Backend/Admin/school?archived=false&current=1&pageSize=30";

let calls: string[];
let userId: number;
let listVersion: number;

function reply(data: unknown) {
  return new Response(JSON.stringify({ error: 0, info: "", data }), {
    status: 200,
    headers: { "content-type": "application/json" },
  });
}

beforeEach(() => {
  calls = [];
  userId = 7;
  listVersion = 1;
  localStorage.clear();
  history.replaceState(null, "", "/admin/UserManagement");
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      calls.push(url);
      if (url === SESSION)
        return reply({ needToLogin: false, userType: 0, id: userId, hasComplaintRight: false, isSchoolContestJudge: false });
      if (url === LIST) return reply({ list: [{ id: 1, name: `v${listVersion}` }], total: 1 });
      return reply({ list: [], total: 0 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

/** A fresh page load: the entry's modules anew (localStorage stays, as in the browser). */
async function pageLoad() {
  vi.resetModules();
  const early = await import("../../src/client/early-requests");
  const request = await import("../../src/client/request");
  const session = await import("../../src/client/providers/session");
  early.startEarlyRequests();
  return { early, request, session };
}

/** What the page does: who is signed in, then its list and the schools select. */
async function openPage(p: Awaited<ReturnType<typeof pageLoad>>) {
  const user = await p.session.getCurrentUser();
  const list = await p.request.get<{ list: { name: string }[] }>("/Backend/Admin/user", {
    current: 1,
    pageSize: 20,
    sort: "-id",
  });
  await p.request.get("/Backend/Admin/school", { archived: false, current: 1, pageSize: 30 });
  return { user, rows: list.data?.list.map((r) => r.name) };
}

const count = (url: string) => calls.filter((c) => c === url).length;

describe("the page's first requests start with the session check", () => {
  test("the first visit only asks early for the session; the next one also for the page's GETs, each answered once", async () => {
    const first = await pageLoad();
    expect(calls).toEqual([SESSION]);
    const seen = await openPage(first);
    expect(seen.user.id).toBe(7);
    expect(seen.rows).toEqual(["v1"]);
    expect(count(SESSION)).toBe(1); // the page's session check used the early answer

    calls = [];
    const second = await pageLoad();
    // Before any page code ran: the session check and the remembered GETs are already out.
    expect(calls).toEqual([SESSION, LIST, SCHOOLS]);
    expect((await openPage(second)).rows).toEqual(["v1"]);
    expect(calls).toEqual([SESSION, LIST, SCHOOLS]); // nothing asked twice
    // A later read of the same list is a new request (the early answer served once).
    listVersion = 2;
    expect(
      (await second.request.get<{ list: { name: string }[] }>("/Backend/Admin/user", { current: 1, pageSize: 20, sort: "-id" }))
        .data?.list[0].name,
    ).toBe("v2");
    expect(count(LIST)).toBe(2);
  });

  test("after a write, a login or logout, the first input or on another address, an early answer is not used", async () => {
    await openPage(await pageLoad());

    const afterWrite = await pageLoad();
    listVersion = 2; // the early answer holds v1 …
    await afterWrite.request.post("/Backend/Admin/user/5/lock");
    listVersion = 3;
    expect((await openPage(afterWrite)).rows).toEqual(["v3"]); // … the page reads after its write

    const afterLogout = await pageLoad();
    await afterLogout.session.setCurrentUser(afterLogout.session.ANONYMOUS);
    listVersion = 4;
    const list = await afterLogout.request.get<{ list: { name: string }[] }>("/Backend/Admin/user", {
      current: 1,
      pageSize: 20,
      sort: "-id",
    });
    expect(list.data?.list[0].name).toBe("v4");

    const afterInput = await pageLoad();
    dispatchEvent(new KeyboardEvent("keydown"));
    listVersion = 5;
    expect((await openPage(afterInput)).rows).toEqual(["v5"]);

    const moved = await pageLoad();
    history.pushState(null, "", "/admin/SchoolManagement");
    listVersion = 6;
    const other = await moved.request.get<{ list: { name: string }[] }>("/Backend/Admin/user", {
      current: 1,
      pageSize: 20,
      sort: "-id",
    });
    expect(other.data?.list[0].name).toBe("v6");
  });

  test("the GETs started are those of the browser's last signed-in user; a visitor's load starts only the session check", async () => {
    await openPage(await pageLoad()); // user 7 recorded the page's GETs

    // User 8 signs in on this browser and opens another page.
    userId = 8;
    history.replaceState(null, "", "/admin/SchoolManagement");
    const other = await pageLoad();
    await other.session.getCurrentUser();
    history.replaceState(null, "", "/admin/UserManagement");
    calls = [];
    await pageLoad();
    expect(calls).toEqual([SESSION]); // user 7's list is not asked for user 8

    // Signed out: nothing but the session check.
    vi.mocked(fetch).mockImplementation(async (url) => {
      calls.push(String(url));
      return reply({ needToLogin: true, userType: null, hasComplaintRight: false, isSchoolContestJudge: false });
    });
    const visitor = await pageLoad();
    await visitor.session.getCurrentUser();
    // … and nothing of what the signed-in users asked for stays in the browser.
    expect(Object.keys(localStorage).filter((k) => k.startsWith("saiwu-early:"))).toEqual([]);
    calls = [];
    await pageLoad();
    expect(calls).toEqual([SESSION]);
  });
});
