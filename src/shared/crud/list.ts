/** List conventions of every resource: server pagination, sorting and filters as query params. */
import { Type, type Static } from "typebox";
import { PageNumber } from "../bounds";

/** ?current=1&pageSize=20&sort=name&sort=-createdAt&<filter>=… */
export const ListParams = Type.Object({
  current: Type.Optional(PageNumber({ default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20, title: "每页条数" })),
  sort: Type.Optional(Type.Array(Type.String({ pattern: "^-?[A-Za-z_]+$", maxLength: 60 }), { maxItems: 3, title: "排序" })),
});
export type ListParams = Static<typeof ListParams>;

export const Page = <T extends import("typebox").TSchema>(item: T) =>
  Type.Object({ list: Type.Array(item), total: Type.Integer() });

export interface PageOf<T> {
  list: T[];
  total: number;
}

/** Progress of an import or export. */
export const JobView = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  resource: Type.String(),
  status: Type.Union([
    Type.Literal("running"),
    Type.Literal("ready"),
    Type.Literal("applying"),
    Type.Literal("done"),
    Type.Literal("failed"),
    Type.Literal("cancelled"),
  ]),
  processed: Type.Integer(),
  total: Type.Integer(),
  message: Type.Union([Type.String(), Type.Null()]),
  result: Type.Union([Type.Any(), Type.Null()]),
  downloadUrl: Type.Union([Type.String(), Type.Null()]),
});
export type JobView = Static<typeof JobView>;

export interface ImportRowError {
  row: number;
  column: string;
  reason: string;
}
export interface ImportChange {
  row: number;
  key: string;
  /** field label → [old, new] */
  changes: Record<string, [unknown, unknown]>;
}
export interface ImportReport {
  total: number;
  created: number;
  changed: number;
  unchanged: number;
  errors: ImportRowError[];
  /** rows that will be created (first ones) */
  newRows: { row: number; key: string }[];
  changedRows: ImportChange[];
}
