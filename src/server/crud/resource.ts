/**
 * One generic resource router for master data: list (server pagination, sorting,
 * filters), one, create, update, delete/archive, .xlsx export and two-step import
 * (dry run with per-row errors and a diff, then confirm: all rows or none), each change
 * recorded in the audit log. A resource supplies only its queries and columns
 * (resource-def.ts); the parts are resource-read.ts, resource-write.ts, resource-export.ts
 * and resource-import.ts (its job runner in resource-import-run.ts).
 */
import type { FastifyInstance } from "fastify";
import "@fastify/multipart";
import type { Db } from "../db";
import type { User } from "../db/schema";
import type { Jobs } from "../jobs/user-jobs";
import type { Ctx, ResourceDef, ResourceParts } from "./resource-def";
import { registerExportRoutes } from "./resource-export";
import { registerImportRoutes } from "./resource-import";
import { registerReadRoutes } from "./resource-read";
import { registerWriteRoutes } from "./resource-write";

export { inTrx } from "./resource-def";
export type { Ctx, ExcelColumn, ExcelDef, ListQuery, ResourceDef, Trx } from "./resource-def";

/** Registers a resource's routes (and, with .xlsx columns, its export and import jobs) in the order clients see them. */
export function registerResource<V extends { id: number }, C, U>(
  app: FastifyInstance,
  deps: { db: Db; jobs: Jobs },
  def: ResourceDef<V, C, U>,
) {
  const { db, jobs } = deps;
  const parts: ResourceParts<V, C, U> = {
    app,
    db,
    jobs,
    def,
    ctxOf: (req: { user: User | null }): Ctx => ({ db, user: req.user! }),
  };
  registerReadRoutes(parts);
  registerWriteRoutes(parts);
  if (!def.excel) return;
  registerExportRoutes(parts, def.excel);
  registerImportRoutes(parts, def.excel);
}
