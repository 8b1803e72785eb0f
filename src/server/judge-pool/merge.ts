/**
 * Merging duplicate pool records (the same person entered twice): one transaction keeps
 * `keepId` and folds `mergeId` into it —
 * - categories and tags: union; years: the kept record's statement wins, the duplicate's
 *   other years are copied;
 * - invitations (judge_invitation.person_id) move to the kept record;
 * - the account: when only the duplicate has one, the link moves; when both have one, the
 *   duplicate keeps its user_id and is reachable through merged_into, so the history (which
 *   is computed over every reachable account) shows both;
 * - empty fields of the kept record (school, province, title, email, phone) are filled from
 *   the duplicate; records merged earlier into the duplicate now point at the kept one;
 * - the duplicate gets merged_into and leaves the list. Nothing is deleted.
 * Root and contest admins (both records are public to them); a merged or missing record is 404.
 * A merge never shows a contest admin contacts they could not see before: the duplicate's
 * email and phone fill the kept record only when the admin sees them, and a merge after which
 * the admin would see the kept record's contacts (through the duplicate's invitations or
 * accounts) that they did not see before is refused — root merges those.
 */
import { badRequest, forbidden, notFound } from "../../shared/errors";
import { NOT_FOUND, type MergeBody } from "../../shared/judge-pool/schema";
import type { Db } from "../db";
import type { User } from "../db/schema";
import { record } from "../common/audit";
import { contactScope, seesContact } from "./scope";

export async function mergePersons(db: Db, user: User, body: MergeBody): Promise<number> {
  if (body.keepId === body.mergeId) throw badRequest("请选择两条不同的评委记录进行合并");
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom("judge_person")
      .selectAll()
      .where("id", "in", [body.keepId, body.mergeId])
      .where("merged_into", "is", null)
      .execute();
    const keep = rows.find((r) => r.id === body.keepId);
    const dup = rows.find((r) => r.id === body.mergeId);
    if (!keep || !dup) throw notFound(NOT_FOUND);
    const scope = await contactScope(trx, user);
    const [keptVisible, dupVisible] = [await seesContact(trx, scope, keep.id), await seesContact(trx, scope, dup.id)];
    const now = new Date().toISOString();

    const cats = new Set(
      (await trx.selectFrom("judge_person_category").select("category_id").where("person_id", "=", keep.id).execute()).map(
        (r) => r.category_id,
      ),
    );
    const addCats = (
      await trx.selectFrom("judge_person_category").select("category_id").where("person_id", "=", dup.id).execute()
    )
      .map((r) => r.category_id)
      .filter((c) => !cats.has(c));
    if (addCats.length)
      await trx
        .insertInto("judge_person_category")
        .values(addCats.map((category_id) => ({ person_id: keep.id, category_id })))
        .execute();

    const tags = new Set(
      (await trx.selectFrom("judge_person_tag").select("tag").where("person_id", "=", keep.id).execute()).map((r) => r.tag),
    );
    const addTags = (await trx.selectFrom("judge_person_tag").select("tag").where("person_id", "=", dup.id).execute())
      .map((r) => r.tag)
      .filter((t) => !tags.has(t));
    if (addTags.length)
      await trx
        .insertInto("judge_person_tag")
        .values(addTags.map((tag) => ({ person_id: keep.id, tag })))
        .execute();

    const years = new Set(
      (await trx.selectFrom("judge_person_year").select("year").where("person_id", "=", keep.id).execute()).map((r) => r.year),
    );
    const addYears = (await trx.selectFrom("judge_person_year").selectAll().where("person_id", "=", dup.id).execute()).filter(
      (y) => !years.has(y.year),
    );
    if (addYears.length)
      await trx
        .insertInto("judge_person_year")
        .values(addYears.map((y) => ({ ...y, person_id: keep.id })))
        .execute();

    const invitations = await trx
      .updateTable("judge_invitation")
      .set({ person_id: keep.id })
      .where("person_id", "=", dup.id)
      .executeTakeFirst();

    const fill: Record<string, unknown> = {};
    if (keep.school_id === null && !keep.school_name && (dup.school_id !== null || dup.school_name))
      Object.assign(fill, { school_id: dup.school_id, school_name: dup.school_name });
    for (const k of ["province", "title", "email", "phone"] as const) {
      if ((k === "email" || k === "phone") && !dupVisible) continue;
      if (!keep[k] && dup[k]) fill[k] = dup[k];
    }
    let movedAccount = false;
    if (keep.user_id === null && dup.user_id !== null) {
      // The account column is unique: free it on the duplicate first.
      await trx.updateTable("judge_person").set({ user_id: null }).where("id", "=", dup.id).execute();
      fill.user_id = dup.user_id;
      movedAccount = true;
    }
    await trx
      .updateTable("judge_person")
      .set({ ...fill, updated_at: now })
      .where("id", "=", keep.id)
      .execute();
    await trx
      .updateTable("judge_person")
      .set({ merged_into: keep.id, updated_at: now })
      .where("merged_into", "=", dup.id)
      .execute();
    await trx.updateTable("judge_person").set({ merged_into: keep.id, updated_at: now }).where("id", "=", dup.id).execute();
    if (!keptVisible && (await seesContact(trx, scope, keep.id))) {
      throw forbidden(
        `合并后您将能看到「${keep.name}」（编号 ${keep.id}）原本不在您查看范围内的联系方式，请选择保留另一条记录，或请超级管理员合并`,
      );
    }

    await record(trx, user.id, [
      { entity: "judge_person", entityId: dup.id, action: "merge", changes: { merged_into: [null, keep.id] } },
      {
        entity: "judge_person",
        entityId: keep.id,
        action: "merge",
        changes: {
          merged: [null, dup.id],
          categories: [null, addCats],
          tags: [null, addTags],
          years: [null, addYears.map((y) => y.year)],
          invitations: [null, Number(invitations.numUpdatedRows)],
          ...(movedAccount ? { user_id: [null, dup.user_id] } : {}),
          ...Object.fromEntries(
            Object.entries(fill)
              .filter(([k]) => k !== "user_id" && k !== "email" && k !== "phone")
              .map(([k, v]) => [k, [null, v]]),
          ),
        },
      },
    ]);
    return keep.id;
  });
}
