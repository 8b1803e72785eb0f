/**
 * Who may touch which rows: a contest admin the own contests and their children, a
 * school admin the own school. Every read and write of scoped data goes through these.
 */
import { sql, type Kysely, type Transaction } from "kysely";
import type { DB, User } from "./db/schema";
import { ROLE } from "../shared/roles";
import { readCache } from "./db/changes";

type Handle = Kysely<DB> | Transaction<DB>;

/** The contests a contest admin manages: those they are admin of, and all their descendants. */
export async function adminContestIds(db: Handle, user: User): Promise<number[] | "all"> {
  if (user.user_type === ROLE.root) return "all";
  if (user.user_type !== ROLE.contestAdmin) return [];
  // Every works list asks: kept in memory while contests and their members are unchanged.
  const ids = await readCache(db, "adminContestIds", { maxEntries: 5_000, maxAgeMs: 60_000 }).get(
    String(user.id),
    ["contest", "contest_member"],
    async () => {
      // One round trip: the own contests, then their children, recursively.
      const rows = await sql<{ id: number }>`
      with recursive managed(id) as (
        select contest_id from contest_member where user_id = ${user.id} and role = 'admin'
        union
        select contest.id from contest inner join managed on contest.parent_id = managed.id
      )
      select id from managed`.execute(db);
      return rows.rows.map((r) => Number(r.id));
    },
  );
  return [...ids];
}

/** Provinces whose schools a user may manage; "all" for root or a national contest admin. */
export async function adminProvinces(db: Handle, user: User): Promise<string[] | "all"> {
  const ids = await adminContestIds(db, user);
  if (ids === "all") return "all";
  if (!ids.length) return [];
  const contests = await db.selectFrom("contest").select(["level", "province"]).where("id", "in", ids).execute();
  if (contests.some((c) => c.level === "national")) return "all";
  return [...new Set(contests.map((c) => c.province).filter((p): p is string => !!p))];
}

/** The contests a contest reviewer (role 3) reviews: contest_member "reviewer" rows. */
export async function reviewerContestIds(db: Handle, user: User): Promise<number[]> {
  if (user.user_type !== ROLE.contestReviewer) return [];
  return (
    await db
      .selectFrom("contest_member")
      .select("contest_id")
      .where("user_id", "=", user.id)
      .where("role", "=", "reviewer")
      .execute()
  ).map((r) => r.contest_id);
}
