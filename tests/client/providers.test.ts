import { describe, expect, test } from "vitest";
import { translate } from "../../src/client/providers/i18n";
import { filterParams, sortParams, toHttpError } from "../../src/client/providers/data";

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
  test("filters: eq as the field, other operators as field_operator; arrays repeat", () => {
    expect(
      filterParams([
        { field: "state", operator: "eq", value: "draft" },
        { field: "title", operator: "contains", value: "AI" },
        { field: "id", operator: "in", value: [1, 2] },
      ]),
    ).toEqual({ state: "draft", title_contains: "AI", id_in: [1, 2] });
  });
  test("sorters become sort/order lists", () => {
    expect(sortParams([{ field: "id", order: "desc" }, { field: "title", order: "asc" }])).toEqual({ sort: ["id", "title"], order: ["desc", "asc"] });
    expect(sortParams(undefined)).toEqual({});
  });
  test("a failed reply becomes an HttpError, with the 422 field as a form error", () => {
    expect(toHttpError({ error: 422, info: "邮箱不是有效的邮箱地址", data: { field: "email" }, status: 422 })).toEqual({
      message: "邮箱不是有效的邮箱地址",
      statusCode: 422,
      errors: { email: "邮箱不是有效的邮箱地址" },
    });
    expect(toHttpError({ error: 403, info: "您没有权限进行此操作", status: 403 })).toEqual({ message: "您没有权限进行此操作", statusCode: 403 });
  });
});
