/**
 * Certificates (issue 11): issued award certificates, their signing keys and numbering.
 *
 * - certificate: one row per version of a certificate. The number (e.g. 2026-JS-1-000123,
 *   see src/server/certificate/numbering.ts) is unique across the platform and stable:
 *   a reissue (changed award, corrected name) adds the next version under the same number
 *   and marks the previous one replaced; a withdrawn award marks it revoked. Rows are never
 *   deleted. The facts printed on the certificate are stored as issued (they are what the
 *   signature covers), with the holder's and the work's ids for reissuing.
 * - certificate_key: every Ed25519 key pair ever used, with its validity period; the private
 *   key is null when it came from CERT_SIGNING_KEY. `active` is 1 for the signing key and
 *   null otherwise (unique: at most one active key, also when two processes start at once).
 * - certificate_sequence: the last sequence number per number prefix, one atomic increment
 *   per new certificate (like work_sequence).
 */
import type { Kysely } from "kysely";
import { withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("certificate_key")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("private_key", "text")
    .addColumn("active", "integer")
    .addColumn("valid_from", "text", (c) => c.notNull())
    .addColumn("valid_to", "text")
    .execute();
  await db.schema.createIndex("certificate_key_active").on("certificate_key").column("active").unique().execute();

  await db.schema
    .createTable("certificate_sequence")
    .addColumn("prefix", "text", (c) => c.primaryKey())
    .addColumn("last", "integer", (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable("certificate"))
    .addColumn("number", "text", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    /** author | teacher | school */
    .addColumn("holder_kind", "text", (c) => c.notNull())
    .addColumn("holder_user_id", "integer", (c) => c.references("app_user.id"))
    .addColumn("holder_school_id", "integer", (c) => c.references("school.id"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("work_id", "integer", (c) => c.references("work.id"))
    .addColumn("award_level_id", "integer", (c) => c.references("award_level.id"))
    .addColumn("holder_name", "text", (c) => c.notNull())
    .addColumn("school_name", "text", (c) => c.notNull())
    .addColumn("work_title", "text")
    .addColumn("category_name", "text")
    .addColumn("award_name", "text", (c) => c.notNull())
    .addColumn("contest_name", "text", (c) => c.notNull())
    .addColumn("contest_date", "text", (c) => c.notNull())
    /** valid | revoked | replaced */
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("status_at", "text")
    /** revoked: disqualified | award_withdrawn | result_withdrawn */
    .addColumn("status_reason", "text")
    .addColumn("signature", "text", (c) => c.notNull())
    .addColumn("key_id", "text", (c) => c.notNull().references("certificate_key.id"))
    .addColumn("issued_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("certificate_number_version").on("certificate").columns(["number", "version"]).unique().execute();
  await db.schema.createIndex("certificate_contest").on("certificate").columns(["contest_id", "work_id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("certificate").execute();
  await db.schema.dropTable("certificate_sequence").execute();
  await db.schema.dropTable("certificate_key").execute();
}
