/**
 * The duplicate check's routes (contract and scope rules: src/shared/dupcheck/api.ts), in
 * groups: checks, side by side views and the review sheet's matches (./check-routes.ts), the
 * batch report job (./report-routes.ts), the admin page (/admin/ElasticSearch,
 * ./admin-routes.ts). Registers the background indexing, the report's and the rebuild's job
 * runners.
 */
import type { FastifyInstance } from "fastify";
import { registerRebuild } from "./admin";
import { adminRoutes } from "./admin-routes";
import { checkRoutes, pairRoutes, sheetRoutes } from "./check-routes";
import { startIndexing } from "./indexing";
import { registerReport } from "./report";
import { reportRoutes } from "./report-routes";
import type { DupDeps } from "./route-kit";

export type { DupDeps } from "./route-kit";

export async function dupcheckRoutes(app: FastifyInstance, deps: DupDeps) {
  const { db, store, jobs, queue } = deps;
  registerReport(db, store, jobs);
  registerRebuild(db, store, jobs);
  const stopIndexing = await startIndexing({ db, store, queue, log: deps.log });
  app.addHook("onClose", async () => stopIndexing());

  checkRoutes(app, deps);
  pairRoutes(app, deps);
  sheetRoutes(app, deps);
  reportRoutes(app, deps);
  adminRoutes(app, deps);
}
