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
    expect(sortParams([{ field: "id", order: "desc" }, { field: "title", order: "asc" }])).toEqual({ sort: ["-id", "title"] });
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

describe("refine's messages name resources in Chinese", () => {
  test("a resource's own key becomes its label", () => {
    expect(translate("notices.notices", undefined, "notices")).toBe("公告与说明");
    expect(translate("schools.schools", undefined, "schools")).toBe("学校");
    expect(translate("unknown.unknown", undefined, "unknown")).toBe("unknown");
  });
});
