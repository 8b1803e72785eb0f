/**
 * Every works route, registered explicitly. HTTP only: schema, access rule, then the
 * use case in service/. Row rules (own work, own school, contest scope) live in rules.ts.
 */
import type { FastifyInstance } from "fastify";
import type { Db } from "../db";
import { authorRoutes } from "./routes/author";
import { manageRoutes } from "./routes/manage";
import { readRoutes } from "./routes/read";

export interface WorkDeps {
  db: Db;
}

export function workRoutes(app: FastifyInstance, deps: WorkDeps) {
  readRoutes(app, deps.db);
  authorRoutes(app, deps.db);
  manageRoutes(app, deps.db);
}
