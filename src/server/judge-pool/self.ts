/**
 * A judge's own pool record (/judgePool for role 4): found or created through link.ts, shown
 * with its contacts and history; the judge edits title, categories, expertise tags and this
 * year's availability (name, school and contacts are kept by the admins). Declared conflicts
 * stay with the declared-conflict service (/Backend/Judging/conflicts); the student picker of
 * that form searches here.
 */
import type { JudgeSelfBody, JudgeSelfView, StudentOption } from "../../shared/judge-pool/schema";
import { ROLE } from "../../shared/roles";
import type { Db } from "../db";
import type { User } from "../db/schema";
import { diff, record } from "../common/audit";
import { getPerson, setAvailability, setCategories, setTags } from "./persons";
import { historyOf } from "./history";
import { ownPersonId } from "./link";

export async function selfView(db: Db, user: User): Promise<JudgeSelfView> {
  const id = await ownPersonId(db, user.id);
  const person = (await getPerson(db, "all", id))!;
  return { person, history: await historyOf(db, id) };
}

export async function updateSelf(db: Db, user: User, body: JudgeSelfBody): Promise<JudgeSelfView> {
  await db.transaction().execute(async (trx) => {
    // Inside the transaction: a refused change also leaves no newly linked record behind.
    const id = await ownPersonId(trx, user.id);
    const before = (await getPerson(trx, "all", id))!;
    if (body.title !== undefined)
      await trx
        .updateTable("judge_person")
        .set({ title: body.title?.trim() || null })
        .where("id", "=", id)
        .execute();
    if (body.categoryIds) await setCategories(trx, id, body.categoryIds);
    if (body.tags) await setTags(trx, id, body.tags);
    await setAvailability(trx, id, body.available, body.availabilityNote);
    const after = (await getPerson(trx, "all", id))!;
    const changes = diff(
      {
        title: before.title,
        categories: before.categories.map((c) => c.id),
        tags: before.tags,
        available: before.available,
        availabilityNote: before.availabilityNote,
      },
      {
        title: after.title,
        categories: after.categories.map((c) => c.id),
        tags: after.tags,
        available: after.available,
        availabilityNote: after.availabilityNote,
      },
    );
    if (Object.keys(changes).length) {
      await trx.updateTable("judge_person").set({ updated_at: new Date().toISOString() }).where("id", "=", id).execute();
      await record(trx, user.id, { entity: "judge_person", entityId: id, action: "update", changes });
    }
  });
  return selfView(db, user);
}

/** Students of a school by name, for declaring a student conflict (at most 20). */
/**
 * A judge declaring a conflict names a student they know: the full name or the student number,
 * within a named school. Nothing partial (no browsing a school's students a character at a
 * time), and only name and school come back.
 */
export async function studentOptions(db: Db, q: { schoolId: number; keyword: string }): Promise<StudentOption[]> {
  const kw = q.keyword.trim();
  if (!kw) return [];
  const rows = await db
    .selectFrom("app_user as u")
    .innerJoin("school as s", "s.id", "u.school_id")
    .select(["u.id", "u.name", "s.name as school"])
    .where("u.user_type", "=", ROLE.author)
    .where("u.archived", "=", 0)
    .where("u.school_id", "=", q.schoolId)
    .where((eb) => eb.or([eb("u.name", "=", kw), eb("u.member_no", "=", kw)]))
    .orderBy("u.name")
    .orderBy("u.id")
    .limit(20)
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, school: r.school }));
}
