/** Every review and judging route of issue 5, registered explicitly. */
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db";
import type { BlobStore } from "../../storage";
import { reviewRoutes } from "../../review/routes";
import { assignRoutes } from "./assign";
import { groupRoutes } from "./groups";
import { judgeRoutes } from "./judge";
import { resultRoutes } from "./results";
import { defenceRoutes } from "./defence";
import { scoreRoutes } from "./score";
import { nationalRoutes } from "../../national/routes";

export function judgingRoutes(app: FastifyInstance, deps: { db: Db; store: BlobStore }) {
  reviewRoutes(app, deps.db);
  groupRoutes(app, deps.db);
  assignRoutes(app, deps.db);
  judgeRoutes(app, deps);
  resultRoutes(app, deps.db);
  defenceRoutes(app, deps);
  scoreRoutes(app, deps.db);
  nationalRoutes(app, deps.db);
}
