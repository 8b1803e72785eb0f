/**
 * The own profile of students and teachers (/author/info, /teacher/info): name, 学号/工号,
 * major and phone. The school is set by the school admin; the email is changed (and
 * verified) through account security. Changes go to the change log.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { badRequest, invalid } from "../../shared/errors";
import { Envelope } from "../../shared/envelope";
import { ProfileUpdate, ProfileView } from "../../shared/profile/schema";
import { ROLE_NAMES, type RoleCode } from "../../shared/roles";
import { record } from "../common/audit";
import type { Db } from "../db";
import type { User } from "../db/schema";
import { refreshNamesOfUser } from "../work/repository";

const tags = ["个人信息"];

async function profileOf(db: Db, id: number): Promise<ProfileView> {
  const u = await db
    .selectFrom("app_user")
    .leftJoin("school", "school.id", "app_user.school_id")
    .leftJoin("major", "major.code", "app_user.major_code")
    .select([
      "app_user.id",
      "app_user.username",
      "app_user.name",
      "app_user.user_type",
      "app_user.member_no",
      "app_user.major_code",
      "major.name as major_name",
      "app_user.phone",
      "app_user.email",
      "app_user.email_verified",
      "school.id as school_id",
      "school.name as school_name",
      "school.province as school_province",
    ])
    .where("app_user.id", "=", id)
    .executeTakeFirstOrThrow();
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    userType: u.user_type,
    roleName: ROLE_NAMES[u.user_type as RoleCode] ?? "",
    memberNo: u.member_no,
    majorCode: u.major_code,
    majorName: u.major_name,
    phone: u.phone,
    email: u.email,
    emailVerified: !!u.email_verified,
    school: u.school_id !== null ? { id: u.school_id, name: u.school_name ?? "", province: u.school_province ?? "" } : null,
  };
}

const blank = (s: string | null | undefined) => (s && s.trim() ? s.trim() : null);

async function updateProfile(db: Db, user: User, input: ProfileUpdate): Promise<ProfileView> {
  if (input.email !== undefined && input.email !== user.email) throw badRequest("邮箱请在「账号安全」中修改，修改后需重新验证");
  if (input.schoolId !== undefined && input.schoolId !== user.school_id)
    throw badRequest("所属学校不能自行修改，请联系学校管理员");
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("app_user")
      .select(["name", "member_no", "major_code", "phone"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    const set: Partial<typeof before> = {};
    if (input.name !== undefined && input.name.trim() !== before.name) {
      if (input.name.trim().length < 2) throw invalid("name", "姓名（name）长度不能少于 2 个字符");
      // A signed certificate carries the name: a holder's name is corrected by an admin,
      // whose change reissues the certificates, never by the holder alone.
      const certified = await trx
        .selectFrom("certificate")
        .select("id")
        .where("holder_user_id", "=", user.id)
        .limit(1)
        .executeTakeFirst();
      if (certified)
        throw badRequest("您已获得证书，姓名不能自行修改；如需更正，请联系学校管理员或赛事管理员（证书将以原编号重新签发）");
      set.name = input.name.trim();
    }
    if (input.memberNo !== undefined && blank(input.memberNo) !== before.member_no) set.member_no = blank(input.memberNo);
    if (input.phone !== undefined && blank(input.phone) !== before.phone) set.phone = blank(input.phone);
    if (input.majorCode !== undefined && blank(input.majorCode) !== before.major_code) {
      const code = blank(input.majorCode);
      if (code) {
        const m = await trx.selectFrom("major").select(["code", "archived"]).where("code", "=", code).executeTakeFirst();
        if (!m) throw invalid("majorCode", `专业代码 ${code} 不存在`);
        if (m.archived) throw invalid("majorCode", `专业代码 ${code} 已停用`);
      }
      set.major_code = code;
    }
    if (!Object.keys(set).length) return profileOf(trx as unknown as Db, user.id);
    await trx
      .updateTable("app_user")
      .set({ ...set, updated_at: new Date().toISOString() })
      .where("id", "=", user.id)
      .execute();
    // Names shown in works lists follow the author's or teacher's name.
    if (set.name) await refreshNamesOfUser(trx, user.id);
    const changes = Object.fromEntries(Object.entries(set).map(([k, v]) => [k, [before[k as keyof typeof before], v]])) as Record<
      string,
      [unknown, unknown]
    >;
    await record(trx, user.id, { entity: "user", entityId: user.id, action: "update", changes });
    return profileOf(trx as unknown as Db, user.id);
  });
}

export function profileRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    "/Backend/Common/profile",
    {
      schema: { tags, summary: "我的个人信息（学生、教师）", response: { 200: Envelope(ProfileView) } },
      config: { access: ["api.profile", "read"] },
    },
    async (req) => ({ error: 0, info: "成功", data: await profileOf(db, req.user!.id) }),
  );

  r.patch(
    "/Backend/Common/profile",
    {
      schema: {
        tags,
        summary: "修改我的个人信息：姓名、学号/工号、专业、手机号（学校和邮箱不在此修改）",
        body: ProfileUpdate,
        response: { 200: Envelope(ProfileView) },
      },
      config: { access: ["api.profile", "update"] },
    },
    async (req) => ({ error: 0, info: "个人信息已保存", data: await updateProfile(db, req.user!, req.body) }),
  );
}
