/**
 * Linking judge accounts (app_user user_type 4) to pool records, "on first need": before the
 * pool is listed or exported, and when a judge opens the own record. An account already
 * linked (also on a merged duplicate) is left alone; otherwise an unlinked active record with
 * the account's email gets it, else a record is created from the account (name, school and
 * its province, email, phone). Safe under concurrency: the account column is unique, a
 * second creator's insert does nothing.
 */
import { ROLE } from "../../shared/roles";
import type { Handle } from "../work/repository";
import { normEmailOrNull } from "../common/email";

const unlinked = (db: Handle) =>
  db
    .selectFrom("app_user as u")
    .leftJoin("school as s", "s.id", "u.school_id")
    .select(["u.id", "u.name", "u.email", "u.phone", "u.school_id", "s.province"])
    .where("u.user_type", "=", ROLE.judge)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("judge_person as l").select("l.id").whereRef("l.user_id", "=", "u.id"))));

async function linkOne(
  db: Handle,
  u: { id: number; name: string; email: string | null; phone: string | null; school_id: number | null; province: string | null },
) {
  const email = normEmailOrNull(u.email);
  const now = new Date().toISOString();
  if (email) {
    const r = await db
      .updateTable("judge_person")
      .set({ user_id: u.id, updated_at: now })
      .where("id", "=", (eb) =>
        eb
          .selectFrom("judge_person as m")
          .select((e) => e.fn.min("m.id").as("id"))
          .where("m.email", "=", email)
          .where("m.merged_into", "is", null)
          .where("m.user_id", "is", null),
      )
      .where("user_id", "is", null)
      .where((eb) => eb.not(eb.exists(eb.selectFrom("judge_person as l").select("l.id").where("l.user_id", "=", u.id))))
      .executeTakeFirst()
      .catch(async (err) => {
        // A concurrent link of the same account won the unique account column: nothing to do.
        if (await db.selectFrom("judge_person").select("id").where("user_id", "=", u.id).executeTakeFirst())
          return { numUpdatedRows: 1n };
        throw err;
      });
    if (Number(r.numUpdatedRows) > 0) return;
  }
  await db
    .insertInto("judge_person")
    .values({
      name: u.name,
      school_id: u.school_id,
      school_name: null,
      province: u.province,
      title: null,
      email,
      phone: u.phone?.trim() || null,
      user_id: u.id,
      note: "",
      merged_into: null,
      created_by: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
}

/** Gives every judge account without a record one (see the module comment); returns how many. */
export async function linkJudgeAccounts(db: Handle, userId?: number): Promise<number> {
  let q = unlinked(db).orderBy("u.id");
  if (userId !== undefined) q = q.where("u.id", "=", userId);
  const rows = await q.execute();
  for (const u of rows) await linkOne(db, u);
  return rows.length;
}

/** The active record of a judge account (following a merge), linked or created when missing. */
export async function ownPersonId(db: Handle, userId: number): Promise<number> {
  const find = () =>
    db.selectFrom("judge_person as p").select(["p.id", "p.merged_into"]).where("p.user_id", "=", userId).executeTakeFirst();
  let row = await find();
  if (!row) {
    await linkJudgeAccounts(db, userId);
    row = await find();
  }
  if (!row) throw new Error(`judge ${userId} has no pool record`);
  // Merges repoint earlier duplicates to the kept record, so one step reaches it.
  return row.merged_into ?? row.id;
}
