/**
 * The refine resources of master data: the only list of them. Each names its API path
 * under /Backend (the data provider's meta.path) and its policy object, so buttons are
 * shown by the same casbin policy the server enforces.
 */
import type { ResourceProps } from "@refinedev/core";
import type { ApiObject } from "../../shared/access";

export interface ResourceMeta {
  path: string;
  label: string;
  api: ApiObject;
  [key: string]: unknown;
}

const r = (name: string, path: string, label: string, api: ApiObject): ResourceProps & { meta: ResourceMeta } => ({
  name,
  meta: { path, label, api },
});

export const RESOURCES = [
  r("schools", "Admin/school", "学校", "api.schools"),
  r("contests", "Admin/contest", "赛事", "api.contests"),
  r("majors", "Admin/major", "专业", "api.majors"),
  r("workTypes", "Admin/work-type", "作品类别", "api.workTypes"),
  r("awards", "Admin/award", "奖项", "api.awards"),
  r("notices", "Admin/notice", "公告与说明", "api.notices"),
  r("news", "Admin/news", "新闻", "api.news"),
  r("users", "Admin/user", "用户", "api.users"),
  r("entryLocks", "Admin/entry-lock", "字段锁定", "api.entryLocks"),
  r("judgePool", "JudgePool/persons", "评委", "api.judgePool"),
] as const;

export type ResourceName = (typeof RESOURCES)[number]["name"];

export const resourceMeta = (name: string): ResourceMeta | undefined => RESOURCES.find((x) => x.name === name)?.meta;

/** refine's actions → the policy's actions. */
const ACTION: Record<string, "read" | "create" | "update" | "delete"> = {
  list: "read",
  show: "read",
  export: "read",
  create: "create",
  clone: "create",
  import: "create",
  edit: "update",
  delete: "delete",
};

/** The policy rule of a resource action, e.g. ("schools", "edit") → ["api.schools", "update"]. */
export function apiRuleOf(name: string, action: string): readonly [ApiObject, string] | undefined {
  const meta = resourceMeta(name);
  if (!meta) return undefined;
  return [meta.api, ACTION[action] ?? action];
}
