/**
 * Scoring, the offline defence and results (issue 5, second half).
 *
 * - judge_score: one judge's online score of one assigned work (one row per
 *   judge_assignment): rubric points per item, deductions taken, total, comment; a draft
 *   until submitted; only the contest admin reopens a submitted score. A scored assignment
 *   cannot be removed (applyAssignments refuses).
 * - score_log: the append-only, hash-chained log of every score change, one chain per
 *   contest (seq 1, 2, …; each entry carries the previous entry's hash; see
 *   src/server/judging/score-log.ts). Never updated or deleted.
 * - defence_session: the offline defence of one judge group: when, where or the meeting
 *   link, what to prepare; the random draw of the order (seed, who, when) and the group
 *   leader's sign-off.
 * - defence_slot: one work in a defence session: its drawn position, its time, and the
 *   code of the authors' defence link (/contest/reply/:code). Defence material is a
 *   work_file of kind "defence".
 * - defence_score: one judge's defence score of one work: points, 强烈推荐/推荐/不推荐, comment.
 * - contest_result: the computed result of one work in one contest: raw mean, normalised
 *   score, judges, spread and the disagreement flag, rank in its group, the award (allocated
 *   or set by hand) and whether it is promoted to the next contest level.
 * - result_publication: each publication of a contest's results, with the normalisation
 *   model, its parameters and the score log's head at that moment, so it can be reproduced.
 */
import type { Kysely } from "kysely";
import { flag, withId } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("judge_score"))
    .addColumn("assignment_id", "integer", (c) => c.notNull().unique().references("judge_assignment.id"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("work_id", "bigint", (c) => c.notNull().references("work.id"))
    .addColumn("judge_id", "integer", (c) => c.notNull().references("app_user.id"))
    /** JSON { "<rubric item id>": points } */
    .addColumn("items", "text", (c) => c.notNull().defaultTo("{}"))
    /** JSON array of the deductions' names taken */
    .addColumn("deductions", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("total", "real")
    .addColumn("comment", "text", (c) => c.notNull().defaultTo(""))
    /** draft | submitted */
    .addColumn("status", "text", (c) => c.notNull().defaultTo("draft"))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("submitted_at", "text")
    .addColumn("reopened_at", "text")
    .addColumn("reopened_by", "integer", (c) => c.references("app_user.id"))
    .addColumn("reopen_reason", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("judge_score_contest").on("judge_score").columns(["contest_id", "work_id"]).execute();
  await db.schema.createIndex("judge_score_judge").on("judge_score").columns(["judge_id", "contest_id"]).execute();

  await withId(db, db.schema.createTable("score_log"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("seq", "integer", (c) => c.notNull())
    /** the entry's canonical JSON without prevHash and hash */
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("prev_hash", "text", (c) => c.notNull())
    .addColumn("hash", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("score_log_seq_unique", ["contest_id", "seq"])
    .execute();

  await withId(db, db.schema.createTable("defence_session"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("group_id", "integer", (c) => c.notNull().unique().references("judge_group.id"))
    .addColumn("starts_at", "text")
    .addColumn("place", "text")
    .addColumn("meeting_link", "text")
    .addColumn("prepare_note", "text")
    .addColumn("minutes_per_work", "integer", (c) => c.notNull().defaultTo(15))
    .addColumn("draw_seed", "text")
    .addColumn("drawn_at", "text")
    .addColumn("drawn_by", "integer", (c) => c.references("app_user.id"))
    .addColumn("signed_off_at", "text")
    .addColumn("signed_off_by", "integer", (c) => c.references("app_user.id"))
    .addColumn("sign_off_note", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable("defence_slot"))
    .addColumn("session_id", "integer", (c) => c.notNull().references("defence_session.id").onDelete("cascade"))
    .addColumn("work_id", "bigint", (c) => c.notNull().references("work.id"))
    /** 1-based order from the draw; null before the draw */
    .addColumn("position", "integer")
    .addColumn("slot_time", "text")
    /** the authors' defence link code, unguessable */
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("defence_slot_work_unique", ["session_id", "work_id"])
    .execute();

  await withId(db, db.schema.createTable("defence_score"))
    .addColumn("slot_id", "integer", (c) => c.notNull().references("defence_slot.id"))
    .addColumn("judge_id", "integer", (c) => c.notNull().references("app_user.id"))
    .addColumn("score", "real", (c) => c.notNull())
    /** strong | recommend | not */
    .addColumn("recommendation", "text", (c) => c.notNull())
    .addColumn("comment", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("defence_score_unique", ["slot_id", "judge_id"])
    .execute();

  await withId(db, db.schema.createTable("contest_result"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("work_id", "bigint", (c) => c.notNull().references("work.id"))
    .addColumn("group_id", "integer", (c) => c.references("judge_group.id"))
    .addColumn("raw_mean", "real")
    .addColumn("normalised", "real")
    .addColumn("judge_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("spread", "real")
    .addColumn("flagged", "integer", flag)
    .addColumn("rank", "integer")
    .addColumn("award_level_id", "integer", (c) => c.references("award_level.id"))
    /** 1 when the award was set by hand (a new allocation keeps it) */
    .addColumn("award_manual", "integer", flag)
    .addColumn("promoted", "integer", flag)
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("contest_result_unique", ["contest_id", "work_id"])
    .execute();

  await withId(db, db.schema.createTable("result_publication"))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("published_at", "text", (c) => c.notNull())
    .addColumn("published_by", "integer", (c) => c.notNull().references("app_user.id"))
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("model_version", "integer", (c) => c.notNull())
    /** JSON: the fit's parameters (judge effects, intercept, options) */
    .addColumn("params", "text", (c) => c.notNull())
    /** the score log's head hash and seq at publication */
    .addColumn("log_head", "text", (c) => c.notNull())
    .addColumn("log_seq", "integer", (c) => c.notNull())
    .addColumn("note", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    "result_publication",
    "contest_result",
    "defence_score",
    "defence_slot",
    "defence_session",
    "score_log",
    "judge_score",
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
