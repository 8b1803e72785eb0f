/** The to-do centre: GET /Backend/UserCenter/todo, and the daily digest preference of /account/security. */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { Policy } from "../../shared/access";
import { EmptyEnvelope, Envelope } from "../../shared/envelope";
import { DigestPreference, PromotionDone, TodoReply } from "../../shared/todo/schema";
import type { Db } from "../db";
import { summarise, todoItems } from "./items";
import { markPromotionDone } from "./promotion";
import { ok } from "../common/http";

export function todoRoutes(app: FastifyInstance, db: Db, policy: Policy) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ["用户中心"];

  r.get(
    "/Backend/UserCenter/todo",
    {
      schema: {
        tags,
        summary: "我的待办：等待我处理的事项（数量、截止时间和处理页面），以及菜单角标",
        response: { 200: Envelope(TodoReply) },
      },
      config: { access: ["api.todo", "read"] },
    },
    async (req) => ok(summarise(await todoItems(db, policy, req.user!))),
  );

  r.post(
    "/Backend/UserCenter/todo/promotion/done",
    {
      schema: {
        tags,
        summary: "把一条「待决定的晋级」待办标记为已处理（记录处理人和时间；作品的晋级情况再次变化时重新出现）",
        body: PromotionDone,
        response: { 200: EmptyEnvelope },
      },
      config: { access: ["api.todo", "update"] },
    },
    async (req) => {
      await markPromotionDone(db, req.user!, req.body.key);
      return { error: 0, info: "已标记为已处理" };
    },
  );

  r.get(
    "/Backend/UserCenter/digest",
    {
      schema: { tags, summary: "每日待办邮件是否开启", response: { 200: Envelope(DigestPreference) } },
      config: { access: ["api.security", "read"] },
    },
    async (req) => {
      const u = await db.selectFrom("app_user").select("todo_digest").where("id", "=", req.user!.id).executeTakeFirstOrThrow();
      return ok({ todoDigest: !!Number(u.todo_digest) });
    },
  );

  r.put(
    "/Backend/UserCenter/digest",
    {
      schema: { tags, summary: "开启或关闭每日待办邮件", body: DigestPreference, response: { 200: Envelope(DigestPreference) } },
      config: { access: ["api.security", "update"] },
    },
    async (req) => {
      await db
        .updateTable("app_user")
        .set({ todo_digest: req.body.todoDigest ? 1 : 0 })
        .where("id", "=", req.user!.id)
        .execute();
      return ok({ todoDigest: req.body.todoDigest }, req.body.todoDigest ? "已开启每日待办邮件" : "已关闭每日待办邮件");
    },
  );
}
