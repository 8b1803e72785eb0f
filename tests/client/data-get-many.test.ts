/** The data provider's getMany (issue 31): the rows of several ids, each asked once, in the order asked. */
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { dataProvider } from "../../src/client/providers/data";

const fetchMock = vi.fn();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const paths = () => fetchMock.mock.calls.map(([url]) => new URL(url as string, "http://localhost").pathname);

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

test("getMany answers the rows of the ids in the order asked, asking each id once under the resource's path", async () => {
  fetchMock.mockImplementation(async (url: string) => {
    const id = Number(new URL(url, "http://localhost").pathname.split("/").pop());
    return json(200, { error: 0, info: "成功", data: { id, name: `专业${id}` } });
  });
  expect(dataProvider.getMany).toBeTypeOf("function");
  const r = await dataProvider.getMany!({ resource: "majors", ids: [9, 3, 9] });
  expect(r.data).toEqual([
    { id: 9, name: "专业9" },
    { id: 3, name: "专业3" },
    { id: 9, name: "专业9" },
  ]);
  expect(paths().sort()).toEqual(["/Backend/Admin/major/3", "/Backend/Admin/major/9"]);
  await dataProvider.getMany!({ resource: "workLogs", ids: ["a/b"], meta: { path: "Admin/work-log" } });
  expect(paths()[2]).toBe("/Backend/Admin/work-log/a%2Fb");
});

test("getMany fails with refine's HttpError when one of the rows is refused", async () => {
  fetchMock.mockImplementation(async (url: string) =>
    url.includes("/4") ? json(404, { error: 404, info: "专业不存在" }) : json(200, { error: 0, info: "成功", data: { id: 1 } }),
  );
  await expect(dataProvider.getMany!({ resource: "majors", ids: [1, 4] })).rejects.toMatchObject({
    message: "专业不存在",
    statusCode: 404,
  });
});
