import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { translate } from "../../src/client/providers/i18n";
import { dataProvider, filterParams, projectParams, sortParams, toHttpError } from "../../src/client/providers/data";

describe("i18n", () => {
  test("refine's own labels are Chinese, with interpolation", () => {
    expect(translate("buttons.save", "Save")).toBe("保存");
    expect(translate("buttons.logout")).toBe("退出登录");
    expect(translate("table.actions")).toBe("操作");
    expect(translate("notifications.createSuccess", { resource: "作品" }, "Successfully created")).toBe("作品创建成功");
    expect(translate("notifications.error", { statusCode: 500 })).toBe("错误（状态码：500）");
  });
  test("unknown keys fall back to the default text", () => {
    expect(translate("works.works", {}, "作品")).toBe("作品");
    expect(translate("x.y", "默认")).toBe("默认");
    expect(translate("x.y")).toBe("x.y");
  });
});

describe("data provider", () => {
  test("filters: eq, contains and in as the field (arrays repeat), other operators as field_operator, empty ones left out", () => {
    expect(
      filterParams([
        { field: "state", operator: "eq", value: "draft" },
        { field: "keyword", operator: "contains", value: "AI" },
        { field: "userType", operator: "in", value: [99, 100] },
        { field: "createdAt", operator: "gte", value: "2026-01-01" },
        { field: "province", operator: "eq", value: "" },
        { field: "schoolId", operator: "eq", value: undefined },
      ]),
    ).toEqual({ state: "draft", keyword: "AI", userType: [99, 100], createdAt_gte: "2026-01-01" });
  });
  test("sorters become repeated sort keys, descending ones with a minus", () => {
    expect(
      sortParams([
        { field: "id", order: "desc" },
        { field: "title", order: "asc" },
      ]),
    ).toEqual({ sort: ["-id", "title"] });
    expect(sortParams(undefined)).toEqual({});
  });
  test("a failed reply becomes an HttpError, with the 422 field as a form error", () => {
    expect(toHttpError({ error: 422, info: "邮箱不是有效的邮箱地址", data: { field: "email" }, status: 422 })).toEqual({
      message: "邮箱不是有效的邮箱地址",
      statusCode: 422,
      errors: { email: "邮箱不是有效的邮箱地址" },
    });
    expect(toHttpError({ error: 403, info: "您没有权限进行此操作", status: 403 })).toEqual({
      message: "您没有权限进行此操作",
      statusCode: 403,
    });
  });
});

describe("refine's messages name resources in Chinese", () => {
  test("a resource's own key becomes its label", () => {
    expect(translate("notices.notices", undefined, "notices")).toBe("公告与说明");
    expect(translate("schools.schools", undefined, "schools")).toBe("学校");
    expect(translate("unknown.unknown", undefined, "unknown")).toBe("unknown");
  });
});

describe("the data provider built on @refinedev/simple-rest over the seed's request client", () => {
  const fetchMock = vi.fn();
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const sent = (i = 0) => {
    const [url, init] = fetchMock.mock.calls[i] as [string, RequestInit & { headers: Record<string, string> }];
    const u = new URL(url, "http://localhost");
    return { path: u.pathname, query: u.searchParams, init };
  };
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal("fetch", fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  test("a list goes out in the project's own parameters through fetch with same-origin credentials; total from the envelope", async () => {
    fetchMock.mockResolvedValue(json(200, { error: 0, info: "成功", data: { list: [{ id: 3 }, { id: 4 }], total: 12 } }));
    const r = await dataProvider.getList({
      resource: "schools",
      pagination: { currentPage: 2, pageSize: 2 },
      sorters: [
        { field: "name", order: "asc" },
        { field: "id", order: "desc" },
      ],
      filters: [
        { field: "keyword", operator: "contains", value: "大学" },
        { field: "userType", operator: "in", value: [99, 100] },
        { field: "id", operator: "gte", value: 3 },
        { field: "province", operator: "eq", value: "" },
      ],
    });
    expect(r).toEqual({ data: [{ id: 3 }, { id: 4 }], total: 12 });
    const { path, query, init } = sent();
    expect(path).toBe("/Backend/Admin/school");
    expect(init.credentials).toBe("same-origin");
    expect(query.get("current")).toBe("2");
    expect(query.get("pageSize")).toBe("2");
    expect(query.getAll("sort")).toEqual(["name", "-id"]);
    expect(query.get("keyword")).toBe("大学");
    expect(query.getAll("userType")).toEqual(["99", "100"]);
    expect(query.get("id_gte")).toBe("3");
    expect(query.has("province")).toBe(false);
    expect([...query.keys()].some((k) => k.startsWith("_"))).toBe(false);
  });

  test("pagination off asks for the largest page; one, create, update and delete use the resource's path", async () => {
    fetchMock.mockImplementation(async () => json(200, { error: 0, info: "成功", data: { id: 7, name: "x" } }));
    fetchMock.mockResolvedValueOnce(json(200, { error: 0, info: "成功", data: { list: [], total: 0 } }));
    expect(await dataProvider.getList({ resource: "majors", pagination: { mode: "off" } })).toEqual({ data: [], total: 0 });
    expect(sent(0).query.get("pageSize")).toBe("500");
    expect((await dataProvider.getOne({ resource: "majors", id: 7 })).data).toEqual({ id: 7, name: "x" });
    expect(sent(1).path).toBe("/Backend/Admin/major/7");
    await dataProvider.create({ resource: "majors", variables: { name: "x" } });
    expect([sent(2).path, sent(2).init.method, sent(2).init.body]).toEqual([
      "/Backend/Admin/major",
      "POST",
      JSON.stringify({ name: "x" }),
    ]);
    await dataProvider.update({ resource: "majors", id: 7, variables: { name: "y" } });
    expect([sent(3).path, sent(3).init.method]).toEqual(["/Backend/Admin/major/7", "PATCH"]);
    await dataProvider.deleteOne({ resource: "majors", id: 7 });
    expect([sent(4).path, sent(4).init.method]).toEqual(["/Backend/Admin/major/7", "DELETE"]);
    await dataProvider.getList({ resource: "workLogs", meta: { path: "Admin/work-log" } });
    expect(sent(5).path).toBe("/Backend/Admin/work-log");
  });

  test("a refusal becomes refine's HttpError with the server's text and the field", async () => {
    fetchMock.mockResolvedValue(
      json(422, { error: 422, info: "专业名称（name）长度不能少于 2 个字符", data: { field: "name" } }),
    );
    await expect(dataProvider.create({ resource: "majors", variables: { name: "x" } })).rejects.toEqual({
      message: "专业名称（name）长度不能少于 2 个字符",
      statusCode: 422,
      errors: { name: "专业名称（name）长度不能少于 2 个字符" },
    });
  });

  test("simple-rest's paging parameters translate back to the project's", () => {
    expect(
      projectParams(new URLSearchParams("_start=20&_end=30&_sort=name,id&_order=asc,desc&keyword=a&status=x&status=y")),
    ).toEqual({
      current: "3",
      pageSize: "10",
      sort: ["name", "-id"],
      keyword: "a",
      status: ["x", "y"],
    });
  });
});
