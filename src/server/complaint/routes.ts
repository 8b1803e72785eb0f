/**
 * Complaints and arbitration on the server; the route list is in
 * src/shared/complaint/schema.ts. Visitors (/Backend/Public/complaint/…) prove their email
 * with a mailed code whose token they send along; everything else needs a login and the
 * policy object of its area; rows are checked in scope.ts (404 out of scope).
 *
 * This plugin only registers the route groups, one module per audience/job:
 * public-entry-routes.ts (rules, work lookup, email check), visitor-routes.ts (visitors'
 * complaints), filer-routes.ts (logged-in filers), handling-routes.ts (review and decision),
 * settings-routes.ts (per-contest settings and handlers), arbitration-routes.ts (arbitration
 * and its review); their shared helpers are in route-kit.ts.
 */
import type { FastifyInstance } from "fastify";
import { complaintRouteKit, type ComplaintDeps } from "./route-kit";
import { publicEntryRoutes } from "./public-entry-routes";
import { visitorComplaintRoutes } from "./visitor-routes";
import { filerRoutes } from "./filer-routes";
import { handlingRoutes } from "./handling-routes";
import { complaintSettingsRoutes } from "./settings-routes";
import { arbitrationRoutes } from "./arbitration-routes";
import { complaintContactRoutes } from "./contact-routes";

export type { ComplaintDeps } from "./route-kit";

export function complaintRoutes(app: FastifyInstance, deps: ComplaintDeps) {
  const kit = complaintRouteKit(app, deps);
  publicEntryRoutes(kit);
  visitorComplaintRoutes(kit);
  filerRoutes(kit);
  handlingRoutes(kit);
  complaintSettingsRoutes(kit);
  arbitrationRoutes(kit);
  complaintContactRoutes(kit);
}
