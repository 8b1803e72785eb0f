/**
 * Judge invitations over HTTP; the route list is in src/shared/judge-invite/schema.ts.
 * Admin routes need api.judgeInvitations (rows scoped to the contests the admin manages,
 * 404 outside); a judge's own invitations api.myJudgeInvitations; the link's routes are
 * public and limited per address (plugins/limits.ts), mail to one mailbox shares the account
 * module's "mail" bucket.
 *
 * This plugin only registers the route groups: admin-routes.ts (contest admins and root),
 * my-routes.ts (a judge's own invitations), link-routes.ts (the public link); their shared
 * helpers are in route-kit.ts.
 */
import type { FastifyInstance } from "fastify";
import { inviteRouteKit, type InviteRouteDeps } from "./route-kit";
import { inviteAdminRoutes } from "./admin-routes";
import { myInvitationRoutes } from "./my-routes";
import { invitationLinkRoutes } from "./link-routes";

export { JI, PUB, type InviteRouteDeps } from "./route-kit";

export function judgeInviteRoutes(app: FastifyInstance, deps: InviteRouteDeps) {
  const kit = inviteRouteKit(app, deps);
  inviteAdminRoutes(kit);
  myInvitationRoutes(kit);
  invitationLinkRoutes(kit);
}
