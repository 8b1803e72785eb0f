/**
 * Rate-limit buckets shared by every server process (src/server/plugins/limits.ts): one row
 * per bucket — a hashed key, the hits of its current window and when the window ends.
 * Expired rows are reset on their next hit and swept now and then. PostgreSQL counts here;
 * the embedded SQLite keeps its buckets in memory but has the same table.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("rate_limit")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("hits", "integer", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("rate_limit_expires").on("rate_limit").column("expires_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("rate_limit").execute();
}
