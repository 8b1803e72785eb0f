/**
 * work_invitation: the first author invites someone without an account into a work's team
 * by email (author or teacher). Only the SHA-256 of the link's code is stored. status: sent |
 * accepted | withdrawn; a sent invitation past expires_at is expired. A sent, unexpired
 * invitation takes a place in the team's limits.
 */
import type { Kysely } from "kysely";
import { withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("work_invitation"))
    .addColumn("work_id", "bigint", (c) => c.notNull().references("work.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("code_hash", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("invited_by", "integer", (c) => c.notNull().references("app_user.id"))
    .addColumn("accepted_user_id", "integer", (c) => c.references("app_user.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("answered_at", "text")
    .execute();
  await db.schema.createIndex("work_invitation_work").on("work_invitation").columns(["work_id", "status"]).execute();
  await db.schema.createIndex("work_invitation_email").on("work_invitation").column("email").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("work_invitation").execute();
}
