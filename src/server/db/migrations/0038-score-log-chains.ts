/**
 * Score log: one hash chain per (contest, judge) instead of one per contest (issue 30), so that
 * saves of different judges no longer queue on one lock (src/server/judging/service/score-log-store.ts).
 *
 * - score_log.chain: the judge (user id) whose chain holds the entry. The entries already
 *   written keep their place: chain 0, the contest's one chain, as they were hashed, so they
 *   verify as before and the heads older publications anchored still match. Re-chaining them
 *   per judge would change every hash and break those anchors.
 * - The seq is unique per (contest, chain) now, not per contest. SQLite cannot drop the old
 *   unique constraint, so there the table is rebuilt with its rows and ids.
 * - result_publication.log_heads: every chain's head at publication (canonical JSON of
 *   [chain, seq, hash]); log_head is their digest and log_seq the entries they cover. Null
 *   for publications from before, which anchored chain 0's head alone.
 */
import { sql, type Kysely } from "kysely";
import { isPostgres, withId } from "./util";

const COLUMNS = sql.raw("id, contest_id, seq, body, prev_hash, hash, created_at");

/** The score log table as 0010 made it, plus the chain column when `chained`, under `name`. */
async function createLog(db: Kysely<unknown>, name: string, chained: boolean) {
  let t = withId(db, db.schema.createTable(name))
    .addColumn("contest_id", "integer", (c) => c.notNull().references("contest.id"))
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("prev_hash", "text", (c) => c.notNull())
    .addColumn("hash", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull());
  t = chained
    ? t
        .addColumn("chain", "integer", (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint("score_log_chain_seq_unique", ["contest_id", "chain", "seq"])
    : t.addUniqueConstraint("score_log_seq_unique", ["contest_id", "seq"]);
  await t.execute();
}

/** SQLite: the rows (ids kept) into a new table of the other shape, swapped in. */
async function rebuild(db: Kysely<unknown>, chained: boolean) {
  await createLog(db, "score_log_rebuilt", chained);
  await sql`insert into score_log_rebuilt (${COLUMNS}) select ${COLUMNS} from score_log order by id`.execute(db);
  await db.schema.dropTable("score_log").execute();
  await db.schema.alterTable("score_log_rebuilt").renameTo("score_log").execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await db.schema
      .alterTable("score_log")
      .addColumn("chain", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable("score_log").dropConstraint("score_log_seq_unique").execute();
    await db.schema
      .alterTable("score_log")
      .addUniqueConstraint("score_log_chain_seq_unique", ["contest_id", "chain", "seq"])
      .execute();
  } else {
    await rebuild(db, true);
  }
  await db.schema.alterTable("result_publication").addColumn("log_heads", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const chained = await sql`select 1 from score_log where chain <> 0 limit 1`.execute(db);
  if (chained.rows.length)
    throw new Error("score_log holds per-judge chains (0038): they cannot go back into one chain per contest");
  await db.schema.alterTable("result_publication").dropColumn("log_heads").execute();
  if (isPostgres(db)) {
    await db.schema.alterTable("score_log").dropConstraint("score_log_chain_seq_unique").execute();
    await db.schema.alterTable("score_log").dropColumn("chain").execute();
    await db.schema.alterTable("score_log").addUniqueConstraint("score_log_seq_unique", ["contest_id", "seq"]).execute();
  } else {
    await rebuild(db, false);
  }
}
