/**
 * Complaints and arbitration (issue 10), see src/shared/complaint/states.ts.
 *
 * - complaint: one row per 申诉/投诉 — the work and the contest it is about, the filer (a
 *   user, or a visitor's name/phone/verified email), the state with its version and due
 *   time, and each stage's form (refusal, reviewer's opinion, decision with its action and
 *   effect, arbitration request, ruling and root's confirmation). open_key is set while the
 *   complaint is open ("u<user>:<work>" or "e<email>:<work>") and unique: one open
 *   complaint per filer per work, also under concurrent filings.
 * - complaint_history: every step (append only), with who took it.
 * - complaint_evidence: uploaded files (blobs of the store, by sha256), owned by a user or a
 *   verified email until attached to a complaint.
 * - complaint_setting: per-contest due days (JSON) and the reminder lead time.
 * - complaint_visitor_code / complaint_visitor_token: the mailed one-time code (hashed, with
 *   attempts) and the token a verified visitor files and looks up with (hashed).
 * - result_version: the published versions of a result group changed after publication,
 *   each a snapshot of the group's rows with the reason and the complaint.
 * - judge_score.superseded_at: a score replaced by a re-judge (kept, no longer counted).
 */
import type { Kysely } from "kysely";
import { withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("complaint"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("work_id", "bigint", (c) => c.notNull().references("work.id"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("category", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("filer_user_id", "integer", (c) => c.references("app_user.id"))
    .addColumn("filer_name", "text", (c) => c.notNull())
    .addColumn("filer_email", "text")
    .addColumn("filer_phone", "text")
    .addColumn("open_key", "text", (c) => c.unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("state_at", "text", (c) => c.notNull())
    .addColumn("due_at", "text")
    .addColumn("reminded_at", "text")
    .addColumn("arbitration_due_at", "text")
    .addColumn("refusal", "text")
    .addColumn("opinion_outcome", "text")
    .addColumn("opinion_action", "text")
    .addColumn("opinion_text", "text")
    .addColumn("opinion_by", "integer", (c) => c.references("app_user.id"))
    .addColumn("opinion_at", "text")
    .addColumn("decision_outcome", "text")
    .addColumn("decision_action", "text")
    .addColumn("decision_award_level_id", "integer", (c) => c.references("award_level.id"))
    .addColumn("decision_text", "text")
    .addColumn("decision_by", "integer", (c) => c.references("app_user.id"))
    .addColumn("decision_at", "text")
    .addColumn("decision_effect", "text")
    /** JSON: what the decision's action replaced ({ awardLevelId, awardManual, promoted } of change_award), to restore when arbitration revises it */
    .addColumn("decision_undo", "text")
    /** JSON: the judges a re-judge assigned; when their scores replaced the old ones */
    .addColumn("rejudge_judges", "text")
    .addColumn("rejudge_applied_at", "text")
    .addColumn("arb_requested_at", "text")
    .addColumn("arb_requested_by", "text")
    .addColumn("arb_reason", "text")
    .addColumn("arb_outcome", "text")
    .addColumn("arb_revised_outcome", "text")
    .addColumn("arb_revised_action", "text")
    .addColumn("arb_award_level_id", "integer", (c) => c.references("award_level.id"))
    .addColumn("arb_text", "text")
    .addColumn("arbitrator_id", "integer", (c) => c.references("app_user.id"))
    .addColumn("arb_at", "text")
    .addColumn("arb_confirmed_at", "text")
    .addColumn("arb_confirmed_by", "integer", (c) => c.references("app_user.id"))
    .addColumn("arb_effect", "text")
    .execute();
  await db.schema.createIndex("complaint_contest_state").on("complaint").columns(["contest_id", "state"]).execute();
  await db.schema.createIndex("complaint_work").on("complaint").column("work_id").execute();
  await db.schema.createIndex("complaint_filer").on("complaint").column("filer_user_id").execute();
  await db.schema.createIndex("complaint_email").on("complaint").column("filer_email").execute();

  await withId(db, db.schema.createTable("complaint_history"))
    .addColumn("complaint_id", "integer", (c) => c.notNull().references("complaint.id"))
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("from_state", "text")
    .addColumn("to_state", "text", (c) => c.notNull())
    .addColumn("actor_id", "integer", (c) => c.references("app_user.id"))
    .addColumn("actor_kind", "text", (c) => c.notNull())
    .addColumn("text", "text")
    .execute();
  await db.schema.createIndex("complaint_history_complaint").on("complaint_history").column("complaint_id").execute();

  await withId(db, db.schema.createTable("complaint_evidence"))
    .addColumn("complaint_id", "integer", (c) => c.references("complaint.id"))
    .addColumn("owner_user_id", "integer", (c) => c.references("app_user.id"))
    .addColumn("owner_email", "text")
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("mime", "text", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("uploaded_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("complaint_evidence_complaint").on("complaint_evidence").column("complaint_id").execute();
  await db.schema.createIndex("complaint_evidence_sha").on("complaint_evidence").column("sha256").execute();

  await db.schema
    .createTable("complaint_setting")
    .addColumn("contest_id", "integer", (c) => c.primaryKey().references("contest.id"))
    .addColumn("due_days", "text", (c) => c.notNull())
    .addColumn("remind_hours", "integer", (c) => c.notNull().defaultTo(24))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "integer", (c) => c.references("app_user.id"))
    .execute();

  await withId(db, db.schema.createTable("complaint_visitor_code"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("complaint_visitor_code_email").on("complaint_visitor_code").column("email").execute();
  await withId(db, db.schema.createTable("complaint_visitor_token"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable("result_version"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("group_key", "text", (c) => c.notNull())
    .addColumn("group_name", "text", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("publication_id", "integer", (c) => c.notNull().references("result_publication.id"))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("complaint_id", "integer", (c) => c.references("complaint.id"))
    /** JSON: the group's rows as published in this version */
    .addColumn("rows", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("created_by", "integer", (c) => c.references("app_user.id"))
    .addUniqueConstraint("result_version_unique", ["contest_id", "group_key", "version"])
    .execute();

  await db.schema.alterTable("judge_score").addColumn("superseded_at", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("judge_score").dropColumn("superseded_at").execute();
  for (const t of [
    "result_version",
    "complaint_visitor_token",
    "complaint_visitor_code",
    "complaint_setting",
    "complaint_evidence",
    "complaint_history",
    "complaint",
  ])
    await db.schema.dropTable(t).execute();
}
