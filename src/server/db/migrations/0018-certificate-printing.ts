/**
 * Certificate printing (issue 11): templates per contest and award kind, uploaded
 * background images, and the print log.
 *
 * - certificate_template: the layout a contest saved for an award kind (work | teacher |
 *   school): orientation, the background image (a blob, by sha256) and the fields as JSON
 *   (src/shared/certificate/layout.ts). One per contest and kind; without one the built-in
 *   default layout is used.
 * - certificate_background: an image uploaded for a template (checked PNG/JPEG), who
 *   uploaded it and its size in pixels. A template may only name an uploaded background;
 *   the uploader may see it before it is saved in a template.
 * - certificate_print: one row per certificate printed or downloaded: who, how (browser |
 *   pdf | download), whether it had been printed before (reprint), the PDF job.
 */
import type { Kysely } from "kysely";
import { withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("certificate_template"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    /** work | teacher | school */
    .addColumn("award_kind", "text", (c) => c.notNull())
    /** landscape | portrait */
    .addColumn("orientation", "text", (c) => c.notNull())
    .addColumn("background_sha256", "text")
    /** JSON array of TemplateField */
    .addColumn("fields", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "integer", (c) => c.references("app_user.id"))
    .addUniqueConstraint("certificate_template_kind", ["contest_id", "award_kind"])
    .execute();

  await withId(db, db.schema.createTable("certificate_background"))
    .addColumn("sha256", "text", (c) => c.notNull())
    /** image/png | image/jpeg */
    .addColumn("mime", "text", (c) => c.notNull())
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("uploaded_by", "integer", (c) => c.notNull().references("app_user.id"))
    .addColumn("uploaded_at", "text", (c) => c.notNull())
    .addUniqueConstraint("certificate_background_upload", ["sha256", "uploaded_by"])
    .execute();

  await withId(db, db.schema.createTable("certificate_print"))
    .addColumn("certificate_id", "integer", (c) => c.notNull().references("certificate.id"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("app_user.id"))
    /** browser | pdf | download */
    .addColumn("mode", "text", (c) => c.notNull())
    /** 1: this certificate (this version) had been printed before */
    .addColumn("reprint", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("job_id", "text")
    .addColumn("printed_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("certificate_print_certificate")
    .on("certificate_print")
    .columns(["certificate_id", "mode"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("certificate_print").execute();
  await db.schema.dropTable("certificate_background").execute();
  await db.schema.dropTable("certificate_template").execute();
}
