/**
 * Who sees a pool person's contacts (src/shared/judge-pool/schema.ts, CONTACT SCOPE), and the
 * accounts a person's history is computed from — both as SQL conditions on a person row, so
 * the list, its filters, the export and the contact route apply the same rule.
 *
 * - Root: every person.
 * - A contest admin: persons whose account (or a merged duplicate's account) is a judge of a
 *   contest the admin manages, persons who accepted an invitation from the admin or to such a
 *   contest, persons the admin entered (created_by). An invitation still open, declined or
 *   withdrawn grants nothing: inviting someone must not be a way to read their contacts.
 * - Anyone else (e.g. a judge looking at the own record goes through self.ts): nobody.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import { ROLE } from "../../shared/roles";
import type { User } from "../db/schema";
import type { Handle } from "../work/repository";
import { adminContestIds } from "../scope";

/** "all" (root) or the admin's id and managed contests. */
export type ContactScope = "all" | { userId: number; contests: number[] };

export async function contactScope(db: Handle, user: User): Promise<ContactScope | null> {
  if (user.user_type === ROLE.root) return "all";
  if (user.user_type !== ROLE.contestAdmin) return null;
  const contests = await adminContestIds(db, user);
  return contests === "all" ? "all" : { userId: user.id, contests };
}

/** The user ids of the accounts of person `personRef` (its own and its merged duplicates'), as a subquery. */
export const accountIds = (eb: ExpressionBuilder<any, any>, personRef: string) =>
  eb
    .selectFrom("judge_person as acc")
    .select("acc.user_id")
    .where("acc.user_id", "is not", null)
    .where((e) => e.or([e("acc.id", "=", e.ref(personRef)), e("acc.merged_into", "=", e.ref(personRef))]));

/** Whether the caller sees the contacts of person `personRef` (an alias of judge_person). */
export function contactVisible(
  eb: ExpressionBuilder<any, any>,
  scope: ContactScope | null,
  personRef = "p.id",
  createdByRef = "p.created_by",
): Expression<SqlBool> {
  if (scope === "all") return sql<SqlBool>`1 = 1`;
  if (scope === null) return sql<SqlBool>`1 = 0`;
  const { userId, contests } = scope;
  const own: Expression<SqlBool>[] = [eb(eb.ref(createdByRef), "=", userId)];
  if (contests.length) {
    own.push(
      eb.exists(
        eb
          .selectFrom("contest_member as cmv")
          .select("cmv.id")
          .where("cmv.role", "=", "judge")
          .where("cmv.contest_id", "in", contests)
          .where("cmv.user_id", "in", accountIds(eb, personRef)),
      ),
    );
  }
  own.push(
    eb.exists(
      eb
        .selectFrom("judge_invitation as inv")
        .select("inv.id")
        .where("inv.person_id", "=", eb.ref(personRef))
        .where("inv.status", "=", "accepted")
        .where((e) =>
          contests.length
            ? e.or([e("inv.invited_by", "=", userId), e("inv.contest_id", "in", contests)])
            : e("inv.invited_by", "=", userId),
        ),
    ),
  );
  return eb.or(own);
}

/** Whether the caller sees the contacts of this one (active) person. */
export async function seesContact(db: Handle, scope: ContactScope | null, personId: number): Promise<boolean> {
  if (scope === "all") return true;
  if (scope === null) return false;
  const row = await db
    .selectFrom("judge_person as p")
    .select("p.id")
    .where("p.id", "=", personId)
    .where((eb) => contactVisible(eb, scope))
    .executeTakeFirst();
  return !!row;
}
