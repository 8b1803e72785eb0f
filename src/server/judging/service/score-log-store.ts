/**
 * The stored score log: one hash-chained chain per contest in table score_log (the chain
 * itself is the pure module ../score-log.ts). Entries are only ever appended, inside the
 * transaction that changes the score, so a score change and its log entry land together or
 * not at all.
 */
import { PostgresAdapter, sql, type Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { appendEntry, canonicalJson, verifyChain, type ChainCheck, type ScoreLogBody, type ScoreLogEntry } from "../score-log";

type Handle = Kysely<DB>;

const toEntry = (row: { body: string; prev_hash: string; hash: string }): ScoreLogEntry => ({
  ...(JSON.parse(row.body) as ScoreLogBody),
  prevHash: row.prev_hash,
  hash: row.hash,
});

/**
 * Appends one entry to the contest's chain. Call it with the transaction `trx` that makes
 * the change. On PostgreSQL the contest row is locked first so concurrent appends of one
 * contest queue up instead of both taking the same seq (SQLite runs one writer anyway).
 * The lock is FOR NO KEY UPDATE (what lockContest's UPDATE takes), not FOR UPDATE: a
 * transaction that inserted a row referencing the contest (a first judge_score) holds a
 * FOR KEY SHARE lock on it through the foreign key, which FOR UPDATE waits for — two
 * such saves waited for each other and PostgreSQL aborted one with a deadlock (a 500 under
 * concurrent first saves, tests/api/cluster-writes.test.ts).
 */
export async function appendScoreLog(
  trx: Handle,
  body: Omit<ScoreLogBody, "seq" | "at"> & { at?: string },
): Promise<ScoreLogEntry> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select id from contest where id = ${body.contestId} for no key update`.execute(trx);
  }
  const last = await trx
    .selectFrom("score_log")
    .select(["body", "prev_hash", "hash"])
    .where("contest_id", "=", body.contestId)
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
  const at = body.at ?? new Date().toISOString();
  const entry = appendEntry(last ? [toEntry(last)] : [], { ...body, at });
  const { prevHash, hash, ...rest } = entry;
  await trx
    .insertInto("score_log")
    .values({ contest_id: body.contestId, seq: entry.seq, body: canonicalJson(rest), prev_hash: prevHash, hash, created_at: at })
    .execute();
  return entry;
}

/** The contest's whole chain, in order. */
export async function readScoreLog(db: Handle, contestId: number): Promise<ScoreLogEntry[]> {
  const rows = await db
    .selectFrom("score_log")
    .select(["body", "prev_hash", "hash"])
    .where("contest_id", "=", contestId)
    .orderBy("seq")
    .execute();
  return rows.map(toEntry);
}

/** The head (last hash and seq) of the contest's chain; the genesis when it is empty. */
export async function scoreLogHead(db: Handle, contestId: number): Promise<{ hash: string; seq: number }> {
  const last = await db
    .selectFrom("score_log")
    .select(["hash", "seq"])
    .where("contest_id", "=", contestId)
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
  return last ? { hash: last.hash, seq: Number(last.seq) } : { hash: "0".repeat(64), seq: 0 };
}

/** Verifies the contest's chain, against the head stored with its latest publication when there is one. */
export async function verifyScoreLog(db: Handle, contestId: number): Promise<ChainCheck> {
  const entries = await readScoreLog(db, contestId);
  const pub = await db
    .selectFrom("result_publication")
    .select(["log_head", "log_seq"])
    .where("contest_id", "=", contestId)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (pub) {
    const upTo = entries.slice(0, Number(pub.log_seq));
    const head = verifyChain(upTo, { expectedHead: pub.log_head });
    if (!head.ok) return head;
  }
  return verifyChain(entries);
}
