/** Every judging route of issue 5 (groups, assignment, judges, results, defence, scores), registered explicitly. */
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db";
import type { BlobStore } from "../../storage";
import { assignRoutes } from "./assign";
import { groupRoutes } from "./groups";
import { judgeRoutes } from "./judge";
import { resultRoutes } from "./results";
import { defenceRoutes } from "./defence";
import { scoreRoutes } from "./score";

export function judgingRoutes(app: FastifyInstance, deps: { db: Db; store: BlobStore }) {
  groupRoutes(app, deps.db);
  assignRoutes(app, deps.db);
  judgeRoutes(app, deps);
  resultRoutes(app, deps.db);
  defenceRoutes(app, deps);
  scoreRoutes(app, deps.db);
}
