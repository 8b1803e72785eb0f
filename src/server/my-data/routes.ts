/**
 * GET /Backend/Common/account/my-data: the signed-in person's data as a JSON download
 * (collect.ts), for every role. Audited (action "export" on the user) and rate limited per user.
 */
import type { FastifyInstance } from "fastify";
import type { Db } from "../db";
import { record } from "../common/audit";
import { contentDisposition } from "../common/http";
import { MINUTE, perUser } from "../plugins/limits";
import { formatBeijing } from "../../shared/time";
import { collectMyData } from "./collect";

export const MY_DATA_PATH = "/Backend/Common/account/my-data";
/** Downloads per user in ten minutes. */
export const MY_DATA_MAX = 5;

export function myDataRoutes(app: FastifyInstance, db: Db) {
  app.get(
    MY_DATA_PATH,
    {
      schema: {
        tags: ["账号"],
        summary: "下载我的个人数据（JSON 文件）：资料、登录记录、作品、评分、申诉、评委库记录、证书、API 令牌",
      },
      config: { access: ["api.myData", "read"], limits: [perUser("my-data", MY_DATA_MAX, 10 * MINUTE)] },
    },
    async (req, reply) => {
      const user = req.user!;
      const now = new Date();
      const data = await collectMyData(db, user, now);
      await record(db, user.id, {
        entity: "user",
        entityId: user.id,
        action: "export",
        changes: { myData: [null, "下载个人数据"] },
      });
      const filename = `my-data-${user.username}-${formatBeijing(now.getTime(), "YYYY-MM-DD")}.json`;
      return reply
        .header("content-type", "application/json; charset=utf-8")
        .header("content-disposition", contentDisposition(filename))
        .header("cache-control", "private, no-store")
        .send(JSON.stringify(data, null, 2));
    },
  );
}
