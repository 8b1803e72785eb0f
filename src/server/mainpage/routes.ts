/**
 * The public main page's API (/Backend/Public/mainpage/…, anonymous: config.access "public")
 * with ETag/Last-Modified revalidation (./http-cache.ts), and the root's /admin/BestWork API
 * (/Backend/Admin/best-work…, casbin api.bestWork).
 *
 * This plugin only registers the route groups: public-routes.ts (articles; results, best
 * works and editions) and best-work-routes.ts (the root's best-work admin); their shared
 * constants and helpers are in route-kit.ts.
 */
import type { FastifyInstance } from "fastify";
import { mainpageRouteKit, type MainpageDeps } from "./route-kit";
import { mainpageArticleRoutes, mainpageResultRoutes } from "./public-routes";
import { bestWorkAdminRoutes } from "./best-work-routes";

export function mainpageRoutes(app: FastifyInstance, deps: MainpageDeps) {
  const kit = mainpageRouteKit(app, deps);
  mainpageArticleRoutes(kit);
  mainpageResultRoutes(kit);
  bestWorkAdminRoutes(kit);
}
