/**
 * The judge's own profile (/judge/Info): name, school and its province (shown, kept by the
 * admins), expertise (the judge's own text), the contests and groups the judge is in; the
 * declared conflicts have their own endpoints (routes/judge.ts).
 *
 * Earlier years' works (/judge/yearWorkQuery), to spot a work entered again: works of
 * years before the current one that were submitted (not drafts), by name or id keyword,
 * category and year; blind — id, year, name, category and the published awards only, no
 * authors, teachers or school.
 */
import { ROLE } from "../../../shared/roles";
import type { JudgeProfile, JudgeProfileBody, PastWork, PastWorkFilters } from "../../../shared/judging/defence-schema";
import type { Db } from "../../db";
import type { User } from "../../db/schema";
import { record } from "../../common/audit";
import { keywordFilter } from "../../scope";
import { resultsPublished } from "./results/publish";

const LEVEL_NAMES: Record<string, string> = { national: "国赛", provincial: "省级赛", school: "校级赛" };

export async function judgeProfile(db: Db, user: User): Promise<JudgeProfile> {
  const u = await db
    .selectFrom("app_user")
    .leftJoin("school", "school.id", "app_user.school_id")
    .select([
      "app_user.id",
      "app_user.username",
      "app_user.name",
      "app_user.email",
      "app_user.phone",
      "app_user.expertise",
      "app_user.school_id",
      "school.name as school_name",
      "school.province",
    ])
    .where("app_user.id", "=", user.id)
    .executeTakeFirstOrThrow();
  const contests =
    user.user_type === ROLE.judge
      ? await db
          .selectFrom("contest_member as m")
          .innerJoin("contest", "contest.id", "m.contest_id")
          .select(["contest.id", "contest.name"])
          .where("m.user_id", "=", user.id)
          .where("m.role", "=", "judge")
          .where("contest.archived", "=", 0)
          .orderBy("contest.year", "desc")
          .orderBy("contest.id")
          .execute()
      : [];
  const groups = contests.length
    ? await db
        .selectFrom("judge_group_member as gm")
        .innerJoin("judge_group as g", "g.id", "gm.group_id")
        .select(["g.contest_id", "g.name"])
        .where("gm.user_id", "=", user.id)
        .where(
          "g.contest_id",
          "in",
          contests.map((c) => c.id),
        )
        .orderBy("g.id")
        .execute()
    : [];
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    school: u.school_id !== null ? { id: u.school_id, name: u.school_name ?? "" } : null,
    province: u.province ?? null,
    email: u.email,
    phone: u.phone,
    expertise: u.expertise ?? null,
    contests: contests.map((c) => ({
      id: c.id,
      name: c.name,
      groups: groups.filter((g) => g.contest_id === c.id).map((g) => g.name),
    })),
  };
}

export async function updateJudgeProfile(db: Db, user: User, body: JudgeProfileBody): Promise<JudgeProfile> {
  const expertise = body.expertise?.trim() || null;
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("app_user").select("expertise").where("id", "=", user.id).executeTakeFirstOrThrow();
    if ((before.expertise ?? null) === expertise) return;
    await trx
      .updateTable("app_user")
      .set({ expertise, updated_at: new Date().toISOString() })
      .where("id", "=", user.id)
      .execute();
    await record(trx, user.id, {
      entity: "app_user",
      entityId: user.id,
      action: "update",
      changes: { expertise: [before.expertise ?? null, expertise] },
    });
  });
  return judgeProfile(db, user);
}

/** The current year in Beijing time. */
export const currentYear = (now = new Date()) => new Date(now.getTime() + 8 * 3600_000).getUTCFullYear();

export async function pastWorks(db: Db, f: PastWorkFilters): Promise<{ list: PastWork[]; total: number; before: number }> {
  const before = currentYear();
  let q = db.selectFrom("work").where("work.year", "<", before).where("work.status", "!=", "draft");
  if (f.year !== undefined) q = q.where("work.year", "=", f.year);
  if (f.categoryId !== undefined)
    q = q.where((eb) => eb.or([eb("work.category_id", "=", f.categoryId!), eb("work.subcategory_id", "=", f.categoryId!)]));
  if (f.keyword?.trim()) q = q.where((eb) => keywordFilter(eb, f.keyword!));
  const size = f.pageSize ?? 20;
  const page = f.current ?? 1;
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  const rows = await q
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .leftJoin("work_category as sub", "sub.id", "work.subcategory_id")
    .select(["work.id", "work.year", "work.name", "cat.name as category_name", "sub.name as subcategory_name"])
    .orderBy("work.year", "desc")
    .orderBy("work.id")
    .offset((page - 1) * size)
    .limit(size)
    .execute();
  const ids = rows.map((r) => Number(r.id));
  const awards = ids.length
    ? await db
        .selectFrom("contest_result as r")
        .innerJoin("award_level as a", "a.id", "r.award_level_id")
        .innerJoin("contest as c", "c.id", "r.contest_id")
        .select(["r.work_id", "a.name as award_name", "c.level"])
        .where("r.work_id", "in", ids)
        .where(resultsPublished("r.contest_id"))
        .orderBy("c.level")
        .execute()
    : [];
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      year: r.year,
      name: r.name,
      category: r.category_name,
      subcategory: r.subcategory_name,
      awards: awards
        .filter((a) => Number(a.work_id) === Number(r.id))
        .map((a) => `${LEVEL_NAMES[a.level] ?? a.level} ${a.award_name}`),
    })),
    total,
    before,
  };
}
