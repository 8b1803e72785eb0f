/** Routes every page may need: the current user, the role's announcement, school choices. */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { Announcement, CurrentUser, SchoolOption } from "../../shared/account/schema";
import { ROLE_NAMES, type RoleCode } from "../../shared/roles";
import type { Db } from "../db";
import type { User } from "../db/schema";

const tags = ["通用"];

export async function currentUserView(db: Db, user: User | null): Promise<CurrentUser> {
  if (!user) return { needToLogin: true, userType: null, hasComplaintRight: false, isSchoolContestJudge: false };
  const school = user.school_id
    ? await db.selectFrom("school").select(["id", "name"]).where("id", "=", user.school_id).executeTakeFirst()
    : undefined;
  return {
    needToLogin: false,
    userType: user.user_type,
    hasComplaintRight: !!user.has_complaint_right,
    isSchoolContestJudge: !!user.is_school_contest_judge,
    id: user.id,
    username: user.username,
    name: user.name,
    email: user.email,
    emailVerified: !!user.email_verified,
    school: school ?? null,
  };
}

export function commonRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    "/Backend/Common/user/get-current",
    {
      schema: { tags, summary: "当前用户；未登录时 needToLogin 为 true", response: { 200: Envelope(CurrentUser) } },
      config: { access: "public" },
    },
    async (req) => ({ error: 0, info: "成功", data: await currentUserView(db, req.user) }),
  );

  r.get(
    "/Backend/Common/notice/announcement",
    {
      schema: { tags, summary: "当前用户身份的公告（用户中心）", response: { 200: Envelope(Announcement) } },
      config: { access: ["api.announcement", "read"] },
    },
    async (req) => {
      const type = req.user!.user_type as RoleCode;
      const row = await db
        .selectFrom("notice")
        .select(["title", "content", "updated_at"])
        .where("section", "=", `role_${type}`)
        .where("contest_id", "is", null)
        .orderBy("id", "desc")
        .executeTakeFirst();
      return {
        error: 0,
        info: "成功",
        data: row
          ? { title: row.title, content: row.content, updatedAt: row.updated_at }
          : { title: `${ROLE_NAMES[type] ?? ""}公告`, content: "暂无公告", updatedAt: null },
      };
    },
  );

  r.get(
    "/Backend/Common/school/options",
    {
      schema: {
        tags,
        summary: "学校选项（注册时选择学校）",
        querystring: Type.Object({
          keyword: Type.Optional(Type.String({ maxLength: 50 })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 30 })),
        }),
        response: { 200: Envelope(Type.Array(SchoolOption)) },
      },
      config: { access: "public" },
    },
    async (req) => {
      let q = db.selectFrom("school").select(["id", "name", "province"]).where("archived", "=", 0);
      const kw = req.query.keyword?.trim();
      if (kw)
        q = q.where((eb) => eb.or([eb("name", "like", `%${kw}%`), eb("former_names", "like", `%${kw}%`), eb("code", "=", kw)]));
      const rows = await q
        .orderBy("province")
        .orderBy("name")
        .limit(req.query.limit ?? 30)
        .execute();
      return { error: 0, info: "成功", data: rows };
    },
  );
}
