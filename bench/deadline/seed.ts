/**
 * bench:deadline's people and their works, on top of the large data set (bench/works-data.ts:
 * demo, 700 schools, WORKS generated works whose students' password is SEED_PASSWORD):
 * for every team flow a new draft in its school's provincial contest, with a first author,
 * a co-author who has not yet confirmed and (every other team) an advising teacher; a school
 * admin for each school the teams come from; and a sample of generated students as readers.
 * Every new account shares one password hash (argon2 once, not once per account).
 */
import type { Insertable } from "kysely";
import type { Db } from "../../src/server/db";
import type { DB } from "../../src/server/db/schema";
import { demoUserRow, demoWorkRow } from "../../src/server/seed/demo-helpers";
import { personName, rng, workTitle } from "../../src/server/seed/generate";
import { MAJORS } from "../../src/server/seed/reference";
import { appendLog, nextWorkIds } from "../../src/server/work/repository";
import { requiredGroup } from "../../src/shared/work/group-rule";
import { ROLE } from "../../src/shared/roles";

/** The password of the generated students (bench/works-data.ts) and of the accounts seeded here. */
export const SEED_PASSWORD = "Seed@2026";

export interface TeamPlan {
  workId: number;
  schoolId: number;
  author: string;
  coAuthor: string;
  teacher: string | null;
}

export interface DeadlinePlan {
  teams: TeamPlan[];
  /** school admin username by school id */
  schoolAdmins: Map<number, string>;
  /** generated students who read their lists and to-do */
  readers: string[];
}

const BATCH = 400;

/** Seeds `count` team drafts over `schoolCount` schools; the plan the flows follow. */
export async function seedDeadline(
  db: Db,
  o: { count: number; schoolCount: number; year: number; passwordHash: string },
): Promise<DeadlinePlan> {
  const r = rng(2026);
  const now = new Date().toISOString();
  const contests = await db
    .selectFrom("contest")
    .select(["id", "province"])
    .where("level", "=", "provincial")
    .where("year", "=", o.year)
    .where("archived", "=", 0)
    .execute();
  const contestOf = new Map(contests.map((c) => [c.province, c.id]));
  const schools = (
    await db.selectFrom("school").select(["id", "province"]).where("archived", "=", 0).orderBy("id").execute()
  ).filter((s) => contestOf.has(s.province));
  // Schools with a school-level contest of their own enter through it: left out, as the generator does.
  const ownContest = new Set(
    (await db.selectFrom("contest").select("school_id").where("level", "=", "school").where("year", "=", o.year).execute()).map(
      (c) => c.school_id,
    ),
  );
  const picked = schools.filter((s) => !ownContest.has(s.id)).slice(-o.schoolCount);
  const cats = await db
    .selectFrom("work_category")
    .select(["id", "parent_id", "has_professional_group", "professional_majors"])
    .where("archived", "=", 0)
    .execute();
  const tops = cats.filter((c) => c.parent_id === null);
  const subsOf = new Map(tops.map((t) => [t.id, cats.filter((c) => c.parent_id === t.id).map((c) => c.id)]));

  const admins: Insertable<DB["app_user"]>[] = picked.map((s) =>
    demoUserRow(
      { username: `dlsa${s.id}`, name: personName(r), type: ROLE.schoolAdmin, schoolId: s.id, email: `dlsa${s.id}@bench.local` },
      o.passwordHash,
      now,
    ),
  );
  for (let i = 0; i < admins.length; i += BATCH)
    await db
      .insertInto("app_user")
      .values(admins.slice(i, i + BATCH))
      .execute();

  const teams: TeamPlan[] = [];
  for (let start = 0; start < o.count; start += BATCH) {
    const n = Math.min(BATCH, o.count - start);
    await db.transaction().execute(async (trx) => {
      const users: Insertable<DB["app_user"]>[] = [];
      const person = (username: string, type: 99 | 100, schoolId: number) => {
        const major = type === 100 ? r.pick(MAJORS).code : null;
        users.push(
          demoUserRow(
            { username, name: personName(r), type, schoolId, memberNo: username, major, email: `${username}@bench.local` },
            o.passwordHash,
            now,
          ),
        );
        return { username, major };
      };
      const plans = Array.from({ length: n }, (_, k) => {
        const i = start + k;
        const school = picked[i % picked.length];
        const top = r.pick(tops);
        const subs = subsOf.get(top.id) ?? [];
        const team = [person(`dla${i}`, 100, school.id), person(`dlc${i}`, 100, school.id)];
        const teacher = i % 2 === 0 ? person(`dlt${i}`, 99, school.id).username : null;
        const group = requiredGroup(
          {
            name: "",
            hasProfessionalGroup: !!top.has_professional_group,
            professionalMajors: JSON.parse(top.professional_majors) as string[],
          },
          team.map((m) => ({ name: m.username, majorCode: m.major })),
        );
        return { school, top, sub: subs.length ? r.pick(subs) : null, team, teacher, group, title: workTitle(r) };
      });
      const ids = new Map(
        (await trx.insertInto("app_user").values(users).returning(["id", "username"]).execute()).map((u) => [u.username, u.id]),
      );
      const names = new Map(users.map((u) => [u.username, u.name]));
      const workIds = await nextWorkIds(trx, o.year, n);
      const works = plans.map((p, k) => ({
        ...demoWorkRow(
          workIds[k],
          {
            year: o.year,
            contestId: contestOf.get(p.school.province)!,
            categoryId: p.top.id,
            subcategoryId: p.sub,
            groupType: p.group,
            name: p.title,
            status: "draft",
            schoolId: p.school.id,
            ai: null,
            version: 1,
            at: now,
          },
          ids.get(p.team[0].username)!,
        ),
        author_names: p.team.map((m) => names.get(m.username)).join("、"),
        teacher_names: p.teacher ? names.get(p.teacher)! : "",
      }));
      await trx.insertInto("work").values(works).execute();
      await trx
        .insertInto("work_author")
        .values(
          plans.flatMap((p, k) =>
            p.team.map((m, rank) => ({
              work_id: workIds[k],
              user_id: ids.get(m.username)!,
              rank: rank + 1,
              confirmed: rank === 0 ? 1 : 0,
              category_id: p.top.id,
              year: o.year,
              created_at: now,
            })),
          ),
        )
        .execute();
      const advisers = plans.flatMap((p, k) =>
        p.teacher ? [{ work_id: workIds[k], user_id: ids.get(p.teacher)!, rank: 1, created_at: now }] : [],
      );
      if (advisers.length) await trx.insertInto("work_teacher").values(advisers).execute();
      await appendLog(
        trx,
        plans.map((p, k) => ({
          workId: workIds[k],
          userId: ids.get(p.team[0].username)!,
          action: "create",
          changes: { status: [null, "draft"], name: [null, p.title] },
        })),
      );
      plans.forEach((p, k) =>
        teams.push({
          workId: workIds[k],
          schoolId: p.school.id,
          author: p.team[0].username,
          coAuthor: p.team[1].username,
          teacher: p.teacher,
        }),
      );
    });
  }
  const readers = (
    await db
      .selectFrom("app_user")
      .select("username")
      .where("user_type", "=", ROLE.author)
      .where("username", "like", "gs%")
      .orderBy("id")
      .limit(2000)
      .execute()
  ).map((u) => u.username);
  return { teams, schoolAdmins: new Map(picked.map((s) => [s.id, `dlsa${s.id}`])), readers };
}
