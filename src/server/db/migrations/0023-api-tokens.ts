/**
 * API tokens (issue 16): personal access tokens of root, contest admins and school admins
 * for their own programs. The secret is shown once; the table keeps its SHA-256. A token
 * reads `swp_<public id>_<secret>`: the public id finds the row, the hash is compared in
 * constant time. read_only limits it to read actions, resources (JSON array of casbin
 * objects) to a subset of what its creator may use; expires_at at most a year ahead.
 * audit_log gains token_name: a write made with a token names it.
 */
import type { Kysely } from "kysely";
import { withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("api_token"))
    .addColumn("public_id", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "integer", (c) => c.notNull().references("app_user.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull())
    .addColumn("read_only", "integer", (c) => c.notNull())
    .addColumn("resources", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .addColumn("last_used_at", "text")
    .addColumn("last_used_addr", "text")
    .execute();
  await db.schema.createIndex("api_token_user").on("api_token").column("user_id").execute();
  await db.schema.alterTable("audit_log").addColumn("token_name", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("audit_log").dropColumn("token_name").execute();
  await db.schema.dropTable("api_token").execute();
}
