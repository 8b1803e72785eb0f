/**
 * Best works (issue 14): root picks outstanding works among published awards for the public
 * 优秀作品 gallery. One row per work: its place in the gallery (sort), a cover image (a blob of
 * the store, checked PNG/JPEG), a short text, an optional video address, and whether it is
 * published. Only published rows of works whose award is still published show publicly.
 */
import type { Kysely } from "kysely";
import { withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("best_work"))
    .addColumn("work_id", "integer", (c) => c.notNull().unique().references("work.id"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("cover_sha256", "text")
    .addColumn("cover_mime", "text")
    .addColumn("text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("video_url", "text")
    .addColumn("published", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("published_at", "text")
    .addColumn("updated_by", "integer", (c) => c.references("app_user.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("best_work_published").on("best_work").columns(["published", "sort"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("best_work").execute();
}
