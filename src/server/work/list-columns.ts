/**
 * The columns of a works list row: the names joined onto the page's works, and the row type
 * the list, the export and the list item view (view.ts) share.
 */
import type { SelectQueryBuilder } from "kysely";
import type { DB } from "../db/schema";

type Q = SelectQueryBuilder<DB, "work", object>;

/** Page rows with the names a list shows, in the given order. */
export function withListColumns(q: Q) {
  return q
    .innerJoin("contest", "contest.id", "work.contest_id")
    .innerJoin("school", "school.id", "work.school_id")
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .leftJoin("work_category as sub", "sub.id", "work.subcategory_id")
    .select([
      "work.id",
      "work.year",
      "work.name",
      "work.status",
      "work.contest_id",
      "contest.name as contest_name",
      "contest.level as contest_level",
      "work.category_id",
      "cat.name as category_name",
      "work.subcategory_id",
      "sub.name as subcategory_name",
      "work.group_type",
      "work.school_id",
      "school.name as school_name",
      "work.author_names",
      "work.teacher_names",
      "work.version",
      "work.created_at",
      "work.updated_at",
      "work.submitted_at",
    ]);
}
export type ListRow = Awaited<ReturnType<ReturnType<typeof withListColumns>["executeTakeFirstOrThrow"]>>;
