/**
 * Inserting accounts: the one place a row of app_user is made — registration, the user
 * resource and its Excel import, judge and work invitations, and the first root account.
 * A caller gives what it knows (the password already hashed); every other column starts
 * as a new account's does: no phone, school or number, no rights, not locked, email unverified.
 */
import type { Insertable, Kysely, Transaction } from "kysely";
import type { DB, User, UserTable } from "../db/schema";

type Handle = Kysely<DB> | Transaction<DB>;

/** What a caller says about a new account; the columns left out take the defaults below. */
export type NewUser = Pick<UserTable, "username" | "password_hash" | "name" | "user_type" | "email"> &
  Partial<
    Pick<
      UserTable,
      | "email_verified"
      | "phone"
      | "school_id"
      | "member_no"
      | "major_code"
      | "has_complaint_right"
      | "is_school_contest_judge"
      | "locked"
    >
  >;

/** The row to insert: the defaults, the caller's values, and both timestamps at `now`. */
export const userRow = (u: NewUser, now: string): Insertable<UserTable> => ({
  email_verified: 0,
  phone: null,
  school_id: null,
  member_no: null,
  has_complaint_right: 0,
  is_school_contest_judge: 0,
  locked: 0,
  ...u,
  created_at: now,
  updated_at: now,
});

/** Inserts one account and returns its row. */
export function createUser(db: Handle, u: NewUser, now = new Date().toISOString()): Promise<User> {
  return db.insertInto("app_user").values(userRow(u, now)).returningAll().executeTakeFirstOrThrow();
}

/** Inserts accounts in one statement; returns their ids by username. */
export function createUsers(db: Handle, users: readonly NewUser[], now = new Date().toISOString()) {
  return db
    .insertInto("app_user")
    .values(users.map((u) => userRow(u, now)))
    .returning(["id", "username"])
    .execute();
}
