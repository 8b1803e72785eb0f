/** The change log of master data as the API returns it. */
import { Type, type Static } from "typebox";
import { MAX_ID, MAX_PAGE } from "../bounds";

export const AuditView = Type.Object({
  id: Type.Integer(),
  at: Type.String(),
  userId: Type.Union([Type.Integer(), Type.Null()]),
  userName: Type.Union([Type.String(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  entity: Type.String(),
  entityId: Type.String(),
  /** create | update | delete | archive | restore | import */
  action: Type.String(),
  /** field → [old, new] */
  changes: Type.Record(Type.String(), Type.Any()),
  /** the API token the change was made with (issue 16); null: in the browser */
  tokenName: Type.Union([Type.String(), Type.Null()]),
});
export type AuditView = Static<typeof AuditView>;

export const AuditQuery = Type.Object({
  entity: Type.Optional(Type.String({ maxLength: 40, title: "对象" })),
  entityId: Type.Optional(Type.String({ maxLength: 40, title: "对象编号" })),
  userId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "操作人" })),
  action: Type.Optional(Type.String({ maxLength: 20, title: "操作" })),
  current: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, title: "页码" })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20, title: "每页条数" })),
});

export const AUDIT_ACTION_NAMES: Record<string, string> = {
  create: "新建",
  update: "修改",
  delete: "删除",
  archive: "归档",
  restore: "恢复",
  import: "导入",
};
