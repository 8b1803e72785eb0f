/**
 * Who may touch which rows: a contest admin the own contests and their children, a
 * school admin the own school. Every read and write of scoped data goes through these.
 */
import type { Kysely, Transaction } from "kysely";
import type { DB, User } from "./db/schema";
import { ROLE } from "../shared/roles";

type Handle = Kysely<DB> | Transaction<DB>;

/** The contests a contest admin manages: those they are admin of, and all their descendants. */
export async function adminContestIds(db: Handle, user: User): Promise<number[] | "all"> {
  if (user.user_type === ROLE.root) return "all";
  if (user.user_type !== ROLE.contestAdmin) return [];
  const own = (await db.selectFrom("contest_member").select("contest_id").where("user_id", "=", user.id).where("role", "=", "admin").execute()).map((r) => r.contest_id);
  const all = new Set(own);
  let frontier = own;
  while (frontier.length) {
    const children = (await db.selectFrom("contest").select("id").where("parent_id", "in", frontier).execute()).map((r) => r.id).filter((id) => !all.has(id));
    children.forEach((id) => all.add(id));
    frontier = children;
  }
  return [...all];
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
