/**
 * What a resource supplies to registerResource (resource.ts): its queries, schemas and
 * .xlsx columns; and what the parts of its routes share (deps, the request's Ctx, the id
 * parameter, sorting).
 */
import type { FastifyInstance } from "fastify";
import type { Transaction } from "kysely";
import { Type, type TObject, type TSchema } from "typebox";
import type { ApiObject } from "../../shared/access";
import type { PageOf } from "../../shared/crud/list";
import { DomainError } from "../../shared/errors";
import { MAX_ID } from "../../shared/bounds";
import type { Db } from "../db";
import type { DB, User } from "../db/schema";
import type { Jobs } from "../jobs/user-jobs";
import type { RestColumns } from "./rest";

export type Trx = Transaction<DB>;
export interface Ctx {
  db: Db;
  user: User;
}

export interface ListQuery {
  filters: Record<string, unknown>;
  sort: [string, "asc" | "desc"][];
  offset: number;
  limit: number;
}

export interface ExcelColumn<V> {
  /** the create/update input field */
  key: string;
  header: string;
  width?: number;
  /** the exported cell of a row */
  get: (v: V) => string | number | null;
  /** cell text → input value; throw an Error with a Chinese reason. Default: the text. */
  parse?: (text: string, prep: any) => unknown;
  /** a column that is exported but never imported (ids, computed values) */
  readOnly?: boolean;
}

export interface ExcelDef<V, C, U> {
  sheet: string;
  columns: ExcelColumn<V>[];
  /** the input field that identifies a row (e.g. code, username) */
  keyField: string;
  /** loaded once per import, handed to every parse (lookups such as school name → id) */
  prepare?: (ctx: Ctx) => Promise<unknown>;
  /** existing rows by key; null: it exists but is outside the user's scope */
  findByKeys(ctx: Ctx, keys: string[]): Promise<Map<string, V | null>>;
  /** a check across the cells of one row, in the dry run; a Chinese reason refuses the row */
  checkRow?(
    ctx: Ctx,
    row: { input: Partial<C> & Partial<U>; before: V | undefined },
    prep: any,
  ): { column?: string; reason: string } | null;
  /** applies an import inside one transaction; the default calls create/update per row */
  apply?(ctx: Ctx, trx: Trx, creates: C[], updates: { before: V; input: U }[], progress: (done: number) => void): Promise<void>;
}

export interface ResourceDef<V extends { id: number }, C, U> {
  /** policy object: "api.<name>" */
  object: ApiObject;
  /** audit entity name */
  entity: string;
  label: string;
  path: string;
  tags: string[];
  view: TSchema;
  createSchema: TObject;
  updateSchema: TObject;
  filters: TObject;
  /** API sort field → allowed */
  sortable: readonly string[];
  /** fields refine's simple-rest filters (`<field>_like`/`_gte`/`_lte`/`_ne`, `<field>=`) may name, and their columns (./rest.ts) */
  rest?: RestColumns;
  list(ctx: Ctx, q: ListQuery): Promise<PageOf<V>>;
  get(ctx: Ctx, id: number): Promise<V | undefined>;
  create(ctx: Ctx, trx: Trx, input: C): Promise<V>;
  update(ctx: Ctx, trx: Trx, before: V, input: U): Promise<V>;
  /** deletes, or archives when others reference it; throws a clear message when neither */
  remove?(ctx: Ctx, trx: Trx, before: V): Promise<"deleted" | "archived">;
  excel?: ExcelDef<V, C, U>;
}

/**
 * Inside a transaction every query of a use case must go through it: on the embedded
 * SQLite one connection serves all, so a query outside would wait for the transaction.
 */
export const inTrx = (ctx: Ctx, trx: Trx): Ctx => ({ ...ctx, db: trx as unknown as Db });

/** What each part of a resource's routes (read, write, export, import) is given. */
export interface ResourceParts<V extends { id: number }, C, U> {
  app: FastifyInstance;
  db: Db;
  jobs: Jobs;
  def: ResourceDef<V, C, U>;
  /** the request's user and the database */
  ctxOf: (req: { user: User | null }) => Ctx;
}

export const IdParam = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "编号" }) });

export function parseSort(sort: string[] | undefined, allowed: readonly string[]): [string, "asc" | "desc"][] {
  return (sort ?? []).map((s) => {
    const field = s.replace(/^-/, "");
    if (!allowed.includes(field)) throw new DomainError(422, `不能按 ${field} 排序`, "sort");
    return [field, s.startsWith("-") ? "desc" : "asc"] as [string, "asc" | "desc"];
  });
}
