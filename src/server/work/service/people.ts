/**
 * Finding people for a work's team (the first author adding co-authors or teachers):
 * students or teachers of the work's school — of the caller's own school for a work not yet
 * created — whose name contains the text, or whose 学号/工号 or username starts with it.
 * Never another school's people, never another role, never archived or locked accounts,
 * at most PEOPLE_LIMIT people, and no email or phone.
 */
import { sql } from "kysely";
import { badRequest } from "../../../shared/errors";
import { ROLE } from "../../../shared/roles";
import { PEOPLE_LIMIT, type PeopleQuery, type PeopleReply } from "../../../shared/work/people";
import { requireFirstAuthor } from "./edit";
import { loadVisible, type WorkCtx } from "./context";

/** LIKE pattern text with its wildcards escaped (escape character "\"). */
const likeText = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function searchPeople(ctx: WorkCtx, query: PeopleQuery): Promise<PeopleReply> {
  const q = query.q.trim();
  if (!q) throw badRequest("请输入姓名、学号/工号或用户名");
  let schoolId: number | null;
  let team = new Set<number>();
  if (query.workId !== undefined) {
    const l = await loadVisible(ctx, query.workId);
    requireFirstAuthor(l, query.role === "author" ? "添加作者" : "添加指导教师");
    schoolId = l.work.school_id;
    team = new Set(query.role === "author" ? l.authors.map((a) => a.user_id) : l.teachers.map((t) => t.user_id));
  } else {
    schoolId = ctx.user.school_id;
  }
  if (schoolId === null) throw badRequest("您的账号未设置学校，无法查找同校人员，请先在个人信息中设置学校");
  const school = await ctx.db.selectFrom("school").select("name").where("id", "=", schoolId).executeTakeFirst();
  const contains = `%${likeText(q)}%`;
  const starts = `${likeText(q.toLowerCase())}%`;
  const rows = await ctx.db
    .selectFrom("app_user")
    .leftJoin("major", "major.code", "app_user.major_code")
    .select(["app_user.id", "app_user.username", "app_user.name", "app_user.member_no", "major.name as major_name"])
    .where("app_user.school_id", "=", schoolId)
    .where("app_user.user_type", "=", query.role === "author" ? ROLE.author : ROLE.teacher)
    .where("app_user.archived", "=", 0)
    .where("app_user.locked", "=", 0)
    .where("app_user.id", "!=", ctx.user.id)
    .where((eb) =>
      eb.or([
        eb("app_user.name", "like", sql<string>`${contains} escape '\\'`),
        eb(sql`lower(app_user.member_no)`, "like", sql<string>`${starts} escape '\\'`),
        eb(sql`lower(app_user.username)`, "like", sql<string>`${starts} escape '\\'`),
      ]),
    )
    // Exact 学号/工号 or username first, then by name.
    .orderBy(
      sql`case when lower(app_user.member_no) = ${q.toLowerCase()} or lower(app_user.username) = ${q.toLowerCase()} then 0 else 1 end`,
    )
    .orderBy("app_user.name")
    .orderBy("app_user.id")
    .limit(PEOPLE_LIMIT + 1)
    .execute();
  return {
    items: rows.slice(0, PEOPLE_LIMIT).map((r) => ({
      userId: r.id,
      username: r.username,
      name: r.name,
      memberNo: r.member_no,
      majorName: r.major_name ?? null,
      onTeam: team.has(r.id),
    })),
    more: rows.length > PEOPLE_LIMIT,
    schoolName: school?.name ?? "",
  };
}
