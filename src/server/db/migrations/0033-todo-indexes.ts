/**
 * The co-author confirmations waiting in the to-do centre (issue 15, daily digest): the digest
 * asks, per page of 500 users, for their unconfirmed work_author rows. The only index led by
 * user_id (work_author_one_per_category) held every authorship (349k rows with the large data
 * set, ~1,300 read and filtered away per page for ~30 kept); a partial index on the unconfirmed
 * ones only (a few thousand) answers the page from those rows, on both dialects.
 */
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("work_author_unconfirmed")
    .on("work_author")
    .columns(["user_id", "work_id"])
    .where(sql<boolean>`confirmed = 0`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("work_author_unconfirmed").ifExists().execute();
}
