/**
 * Who manages which users: root all; a contest admin the judges and reviewers who are
 * members of the own contests (and their children); a school admin the students and
 * teachers of the own school. Every read and write of a user goes through scoped().
 */
import { sql, type SelectQueryBuilder } from "kysely";
import { ROLE, ROLE_CODES, ROLE_NAMES } from "../../shared/roles";
import { forbidden } from "../../shared/errors";
import type { DB, User } from "../db/schema";
import type { Ctx } from "../crud/resource";
import { adminContestIds } from "../scope";

export interface Actor {
  user: User;
  /** contests in the actor's scope: the own ones and their descendants */
  contestIds: number[] | "all";
  /** contests the actor administers directly (imported judges and reviewers join these) */
  ownContestIds: number[];
}

/** Per request (each request has its own user object): a long import asks once, not per row. */
const actors = new WeakMap<User, Promise<Actor>>();

export function actorOf(ctx: Ctx): Promise<Actor> {
  let a = actors.get(ctx.user);
  if (!a) {
    a = loadActor(ctx);
    actors.set(ctx.user, a);
    a.catch(() => actors.delete(ctx.user));
  }
  return a;
}

async function loadActor(ctx: Ctx): Promise<Actor> {
  const user = ctx.user;
  const contestIds = await adminContestIds(ctx.db, user);
  const ownContestIds =
    user.user_type === ROLE.contestAdmin
      ? (
          await ctx.db
            .selectFrom("contest_member")
            .select("contest_id")
            .where("user_id", "=", user.id)
            .where("role", "=", "admin")
            .orderBy("contest_id")
            .execute()
        ).map((r) => r.contest_id)
      : [];
  return { user, contestIds, ownContestIds };
}

export const isRoot = (a: Actor) => a.user.user_type === ROLE.root;
export const isContestAdmin = (a: Actor) => a.user.user_type === ROLE.contestAdmin;
export const isSchoolAdmin = (a: Actor) => a.user.user_type === ROLE.schoolAdmin;

/** Roles an actor may give to the users it manages. */
export function assignableRoles(a: Actor): readonly number[] {
  if (isRoot(a)) return ROLE_CODES;
  if (isContestAdmin(a)) return [ROLE.contestReviewer, ROLE.judge];
  if (isSchoolAdmin(a)) return [ROLE.teacher, ROLE.author];
  return [];
}

export function roleRefusal(a: Actor, role: number) {
  const name = ROLE_NAMES[role as keyof typeof ROLE_NAMES] ?? String(role);
  if (isContestAdmin(a)) return forbidden(`赛事管理员只能管理评委和赛事审核员，不能创建或设为“${name}”`);
  if (isSchoolAdmin(a)) return forbidden(`学校管理员只能管理本校的学生和教师，不能创建或设为“${name}”`);
  return forbidden("您没有权限管理用户");
}

/** Restricts a query over app_user to the users the actor manages. */
export function scoped<O>(a: Actor, q: SelectQueryBuilder<DB, any, O>): SelectQueryBuilder<DB, any, O> {
  if (isRoot(a)) return q;
  if (isSchoolAdmin(a)) {
    return q
      .where("app_user.school_id", "=", a.user.school_id ?? -1)
      .where("app_user.user_type", "in", [ROLE.teacher, ROLE.author]);
  }
  if (isContestAdmin(a) && a.contestIds !== "all" && a.contestIds.length) {
    const ids = a.contestIds;
    // The members' ids first (a contest has hundreds, the table hundreds of thousands of users):
    // as a correlated EXISTS the newest-first page walked every account checking each.
    return q
      .where("app_user.user_type", "in", [ROLE.contestReviewer, ROLE.judge])
      .where((eb) =>
        eb(
          "app_user.id",
          "in",
          eb
            .selectFrom("contest_member")
            .select("contest_member.user_id")
            .where("contest_member.role", "in", ["judge", "reviewer"])
            .where("contest_member.contest_id", "in", ids),
        ),
      );
  }
  return q.where(sql<boolean>`1 = 0`);
}

/** Contests an actor may put members into. */
export const contestInScope = (a: Actor, contestId: number) => a.contestIds === "all" || a.contestIds.includes(contestId);
