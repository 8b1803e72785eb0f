/**
 * GET /Backend/Admin/user/:id/phone: a user's phone in full, for the admin who must call them.
 * Lists and forms show phones masked (./view.ts). Allowed by the policy object
 * api.phoneReveal (root, contest admins, school admins) and then only for a user the caller
 * manages (the same scope as the user list: anyone else answers 404 like an unknown id).
 * Every reveal is in the audit log (entity user, action view_phone) and limited per caller.
 */
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { notFound } from "../../shared/errors";
import { PHONE_REVEALS_PER_MINUTE, RevealedPhone } from "../../shared/mask";
import { MAX_ID } from "../../shared/bounds";
import type { Db } from "../db";
import { record } from "../common/audit";
import { ok } from "../common/http";
import { perUser } from "../plugins/limits";
import { actorOf, scoped } from "./scope";

export function userPhoneRoute(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;
  app.get(
    "/Backend/Admin/user/:id/phone",
    {
      schema: {
        tags: ["用户"],
        summary: "查看用户的完整手机号（列表中为脱敏显示）：仅限管理范围内的用户，每次查看记入操作日志",
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "编号" }) }),
        response: { 200: Envelope(RevealedPhone) },
      },
      config: { access: ["api.phoneReveal", "read"], limits: [perUser("phone-reveal", PHONE_REVEALS_PER_MINUTE)] },
    },
    async (req) => {
      const id = (req.params as { id: number }).id;
      const a = await actorOf({ db, user: req.user! });
      const u = await scoped(a, db.selectFrom("app_user").select(["app_user.id", "app_user.phone"]))
        .where("app_user.id", "=", id)
        .executeTakeFirst();
      if (!u) throw notFound("用户不存在或不在您的管理范围内");
      await record(db, a.user.id, { entity: "user", entityId: id, action: "view_phone", changes: {} });
      return ok({ id: u.id, phone: u.phone });
    },
  );
}
