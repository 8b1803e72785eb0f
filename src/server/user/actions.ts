/**
 * Actions on one user next to the resource: lock (ends the user's sessions), unlock, and
 * reset password (mails the account-recovery link). Same scope as the resource: a user
 * outside it answers 404 and nothing changes.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { badRequest, conflict, notFound } from "../../shared/errors";
import { UserView } from "../../shared/user/schema";
import type { Config } from "../config";
import type { Db } from "../db";
import type { Mailer } from "../mail/mailer";
import { requestRecovery } from "../account/service";
import { record } from "../common/audit";
import { inTrx, type Ctx } from "../crud/resource";
import { actorOf } from "./scope";
import { loadUsers } from "./view";
import { MAX_ID } from "../../shared/bounds";

const tags = ["用户"];
const IdParam = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "编号" }) });
const access = ["api.users", "update"] as const;

async function inScope(ctx: Ctx, id: number) {
  const a = await actorOf(ctx);
  const v = (await loadUsers(ctx, a, [id]))[0];
  if (!v) throw notFound("用户不存在或不在您的管理范围内");
  return { a, v };
}

export function userActionRoutes(app: FastifyInstance, deps: { db: Db; config: Config; mailer: Mailer }) {
  const { db } = deps;

  const setLocked = (req: FastifyRequest, lock: boolean) =>
    db.transaction().execute(async (trx) => {
      const ctx = inTrx({ db, user: req.user! }, trx);
      const id = (req.params as { id: number }).id;
      const { a, v } = await inScope(ctx, id);
      if (v.id === a.user.id) throw badRequest(lock ? "不能锁定自己的账号" : "不能解锁自己的账号");
      if (!lock && v.archived) throw badRequest("该账号已归档，不能解锁");
      if (v.locked === lock) return v;
      await trx
        .updateTable("app_user")
        .set({ locked: lock ? 1 : 0, updated_at: new Date().toISOString() })
        .where("id", "=", id)
        .execute();
      // A locked user is signed out everywhere at once.
      if (lock) await trx.deleteFrom("user_session").where("user_id", "=", id).execute();
      await record(trx, a.user.id, {
        entity: "user",
        entityId: id,
        action: lock ? "lock" : "unlock",
        changes: { locked: [v.locked, lock] },
      });
      return (await loadUsers(ctx, a, [id]))[0];
    });

  app.post(
    "/Backend/Admin/user/:id/lock",
    {
      schema: {
        tags,
        summary: "锁定用户：不能再登录，已登录的会话全部结束",
        params: IdParam,
        response: { 200: Envelope(UserView) },
      },
      config: { access },
    },
    async (req) => ({ error: 0, info: "账号已锁定，该用户已在所有设备上退出登录", data: await setLocked(req, true) }),
  );

  app.post(
    "/Backend/Admin/user/:id/unlock",
    {
      schema: { tags, summary: "解锁用户", params: IdParam, response: { 200: Envelope(UserView) } },
      config: { access },
    },
    async (req) => ({ error: 0, info: "账号已解锁", data: await setLocked(req, false) }),
  );

  app.post(
    "/Backend/Admin/user/:id/reset-password",
    {
      schema: {
        tags,
        summary: "重置密码：向用户邮箱发送找回密码（认领账号）链接",
        params: IdParam,
        response: { 200: Envelope(Type.Object({ email: Type.String() })) },
      },
      config: { access },
    },
    async (req) => {
      const ctx: Ctx = { db, user: req.user! };
      const { a, v } = await inScope(ctx, (req.params as { id: number }).id);
      if (!v.email) throw badRequest("该用户没有邮箱，无法发送重置密码链接，请先为其填写邮箱");
      if (v.locked) throw badRequest("该账号已锁定，请先解锁再重置密码");
      // The recovery service finds the account by username or email: it must find this one.
      const found = await db
        .selectFrom("app_user")
        .select("id")
        .where((eb) => eb.or([eb("username", "=", v.username), eb("email", "=", v.username.toLowerCase())]))
        .orderBy("id")
        .executeTakeFirst();
      if (found?.id !== v.id) throw conflict("该用户名与另一账号的邮箱相同，无法安全发送链接，请联系超级管理员处理");
      await requestRecovery(deps, v.username);
      await record(db, a.user.id, {
        entity: "user",
        entityId: v.id,
        action: "reset-password",
        changes: { resetMailTo: [null, v.email] },
      });
      return { error: 0, info: `已向 ${v.email} 发送重置密码链接，30 分钟内有效`, data: { email: v.email } };
    },
  );
}
