/**
 * What accepting a judge invitation checks and writes, step by step, inside the one transaction
 * of acceptInvitation (answer.ts): the confirmed facts (school, categories, tags, title), the
 * contest membership, the pool record linked to the account (and which record that is:
 * personFor), its categories, tags and available year, and the account's school and expertise.
 */
import type { Selectable, Transaction } from "kysely";
import { conflict, invalid } from "../../shared/errors";
import type { AcceptBody } from "../../shared/judge-invite/schema";
import type { DB, JudgeInvitationTable, User } from "../db/schema";
import { record } from "../common/audit";
import type { Handle } from "../work/repository";

type Row = Selectable<JudgeInvitationTable>;
type Trx = Transaction<DB>;

/**
 * The pool record for an account: the one linked to it; else the invited record (a merged
 * duplicate stands for the kept one) if not linked to another account; else an unlinked record
 * of the email. undefined: none (accepting creates one).
 */
export async function personFor(db: Handle, userId: number, invitedPersonId: number | null, email: string | null) {
  const cols = ["id", "name", "school_id", "school_name", "province", "title", "email", "user_id", "merged_into"] as const;
  const linked = await db.selectFrom("judge_person").select(cols).where("user_id", "=", userId).executeTakeFirst();
  if (linked) return linked;
  let id = invitedPersonId;
  for (let i = 0; id !== null && i < 5; i++) {
    const p = await db.selectFrom("judge_person").select(cols).where("id", "=", id).executeTakeFirst();
    if (!p) break;
    if (p.merged_into === null) {
      if (p.user_id === null) return p;
      break;
    }
    id = p.merged_into;
  }
  if (!email) return undefined;
  return db
    .selectFrom("judge_person")
    .select(cols)
    .where("email", "=", email)
    .where("user_id", "is", null)
    .where("merged_into", "is", null)
    .orderBy("id")
    .executeTakeFirst();
}

/** The facts the invitee confirmed, checked (school exists, categories exist) before anything is written. */
export async function confirmedFacts(trx: Trx, body: AcceptBody) {
  let school: { id: number; name: string; province: string } | undefined;
  if (body.schoolId !== null) {
    school = await trx
      .selectFrom("school")
      .select(["id", "name", "province"])
      .where("id", "=", body.schoolId)
      .where("archived", "=", 0)
      .executeTakeFirst();
    if (!school) throw invalid("schoolId", "所选学校不存在，请重新选择");
  }
  const schoolName = school ? null : body.schoolName?.trim() || null;
  const categoryIds = [...new Set(body.categoryIds)];
  if (categoryIds.length) {
    const found = new Set(
      (await trx.selectFrom("work_category").select("id").where("id", "in", categoryIds).where("archived", "=", 0).execute()).map(
        (r) => r.id,
      ),
    );
    const missing = categoryIds.find((id) => !found.has(id));
    if (missing !== undefined) throw invalid("categoryIds", `作品类别（编号 ${missing}）不存在`);
  }
  const tags = [...new Set(body.tags.map((x) => x.trim()).filter(Boolean))];
  const title = body.title?.trim() || null;
  return { school, schoolName, categoryIds, tags, title };
}

export type ConfirmedFacts = Awaited<ReturnType<typeof confirmedFacts>>;

/** Contest membership: what groups and the assignment read as the contest's judges. */
export async function ensureJudgeMember(trx: Trx, u: User, contestId: number, row: Row, now: string) {
  const member = await trx
    .selectFrom("contest_member")
    .select("id")
    .where("contest_id", "=", contestId)
    .where("user_id", "=", u.id)
    .where("role", "=", "judge")
    .executeTakeFirst();
  if (member) return;
  const { id } = await trx
    .insertInto("contest_member")
    .values({ contest_id: contestId, user_id: u.id, role: "judge", created_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  await record(trx, u.id, {
    entity: "contest_member",
    entityId: id,
    action: "create",
    changes: {
      contestId: [null, contestId],
      userId: [null, u.id],
      role: [null, "judge"],
      via: [null, `judge_invitation ${row.id}`],
    },
  });
}

/** The pool record, linked to the account (created for a new email); the invitation points to it. Returns its id. */
export async function linkPoolPerson(trx: Trx, u: User, row: Row, f: ConfirmedFacts, now: string): Promise<number> {
  const { school, schoolName, title } = f;
  const facts = {
    school_id: school?.id ?? null,
    school_name: schoolName,
    province: school?.province ?? null,
    title,
    updated_at: now,
  };
  const person = await personFor(trx, u.id, row.person_id, row.email);
  if (person && person.user_id !== null && person.user_id !== u.id)
    throw conflict("评委库中该人员已关联其他账号，请联系赛事管理员");
  let personId: number;
  if (person) {
    personId = person.id;
    await trx
      .updateTable("judge_person")
      .set({ ...facts, user_id: u.id, email: person.email ?? row.email })
      .where("id", "=", personId)
      .execute();
    await record(trx, u.id, {
      entity: "judge_person",
      entityId: personId,
      action: "update",
      changes: {
        userId: [person.user_id, u.id],
        schoolId: [person.school_id, facts.school_id],
        schoolName: [person.school_name, schoolName],
        title: [person.title, title],
      },
    });
  } else {
    personId = (
      await trx
        .insertInto("judge_person")
        .values({
          name: u.name,
          email: row.email,
          phone: u.phone,
          user_id: u.id,
          note: "",
          merged_into: null,
          created_by: u.id,
          created_at: now,
          ...facts,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    await record(trx, u.id, {
      entity: "judge_person",
      entityId: personId,
      action: "create",
      changes: {
        name: [null, u.name],
        email: [null, row.email],
        userId: [null, u.id],
        via: [null, `judge_invitation ${row.id}`],
      },
    });
  }
  if (row.person_id !== personId)
    await trx.updateTable("judge_invitation").set({ person_id: personId }).where("id", "=", row.id).execute();
  return personId;
}

/** The pool record's categories and tags become the confirmed ones. */
export async function replacePersonCategoriesAndTags(
  trx: Trx,
  userId: number,
  personId: number,
  categoryIds: number[],
  tags: string[],
) {
  const oldCats = (
    await trx.selectFrom("judge_person_category").select("category_id").where("person_id", "=", personId).execute()
  )
    .map((r) => r.category_id)
    .sort((a, b) => a - b);
  const oldTags = (await trx.selectFrom("judge_person_tag").select("tag").where("person_id", "=", personId).execute())
    .map((r) => r.tag)
    .sort();
  await trx.deleteFrom("judge_person_category").where("person_id", "=", personId).execute();
  if (categoryIds.length)
    await trx
      .insertInto("judge_person_category")
      .values(categoryIds.map((category_id) => ({ person_id: personId, category_id })))
      .execute();
  await trx.deleteFrom("judge_person_tag").where("person_id", "=", personId).execute();
  if (tags.length)
    await trx
      .insertInto("judge_person_tag")
      .values(tags.map((tag) => ({ person_id: personId, tag })))
      .execute();
  await record(trx, userId, {
    entity: "judge_person",
    entityId: personId,
    action: "update",
    changes: { categories: [oldCats, [...categoryIds].sort((a, b) => a - b)], tags: [oldTags, [...tags].sort()] },
  });
}

/** The contest's year is marked available in the pool. */
export async function markYearAvailable(trx: Trx, personId: number, contest: { name: string; year: number }, now: string) {
  await trx
    .insertInto("judge_person_year")
    .values({
      person_id: personId,
      year: contest.year,
      available: 1,
      note: `接受「${contest.name}」的评委邀请`,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(["person_id", "year"]).doUpdateSet({ available: 1, updated_at: now }))
    .execute();
}

/** The account's school (what the conflict rules read) and, if empty, its expertise from the tags. */
export async function syncAccount(trx: Trx, u: User, schoolId: number | null, tags: string[], now: string) {
  if (u.school_id !== schoolId) {
    await trx.updateTable("app_user").set({ school_id: schoolId, updated_at: now }).where("id", "=", u.id).execute();
    await record(trx, u.id, {
      entity: "app_user",
      entityId: u.id,
      action: "update",
      changes: { schoolId: [u.school_id, schoolId] },
    });
  }
  if (tags.length && !u.expertise?.trim())
    await trx
      .updateTable("app_user")
      .set({ expertise: tags.join("、") })
      .where("id", "=", u.id)
      .execute();
}
