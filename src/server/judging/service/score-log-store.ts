/**
 * The stored score log (table score_log; the chains themselves are the pure module
 * ../score-log.ts). Entries are only ever appended, inside the transaction that changes the
 * score, so a score change and its log entry land together or not at all.
 *
 * One chain per (contest, judge) — column `chain`, the judge's user id — since migration
 * 0038; chain 0 holds the contest's entries from before, one chain per contest as they were
 * written, still verified. Why per judge: with one chain per contest every save of every
 * judge took the contest's lock for the rest of its transaction, so saves queued one behind
 * another and a second server process only lengthened the queue (bench:cluster: 61 → 30
 * saves/s). A judge's own saves follow one another anyway (one person, one screen), so a
 * judge's chain costs no waiting that matters, and the log keeps every property of the
 * single chain: each chain is append-only and verifiable, each entry names its judge (an
 * entry moved to another chain is caught), and publications anchor every chain's head.
 *
 * Locks on PostgreSQL (SQLite runs one writer anyway): an append takes the advisory lock
 * (contest, judge) — two int4 keys, a key space no other lock of ours uses — so appends to
 * one chain queue up instead of both taking the same seq, and (contest, 0) shared; a
 * publication takes (contest, 0) exclusively (`lockScoreLog`), so the heads it anchors are
 * those of the scores it read. Advisory locks touch no row: the contest row stays free for
 * the transitions and assignments that lock it.
 */
import { PostgresAdapter, sql, type Kysely } from "kysely";
import type { DB } from "../../db/schema";
import {
  appendEntry,
  canonicalJson,
  CONTEST_CHAIN,
  decodeHeads,
  headsRoot,
  verifyLog,
  type ChainHead,
  type LogAnchor,
  type LogCheck,
  type ScoreLogBody,
  type ScoreLogEntry,
} from "../score-log";

type Handle = Kysely<DB>;

const isPostgres = (db: Handle) => db.getExecutor().adapter instanceof PostgresAdapter;

const toEntry = (row: { body: string; prev_hash: string; hash: string }): ScoreLogEntry => ({
  ...(JSON.parse(row.body) as ScoreLogBody),
  prevHash: row.prev_hash,
  hash: row.hash,
});

/**
 * Appends one entry to the chain of its judge (body.judgeId) in its contest. Call it with the
 * transaction `trx` that makes the change, as late as possible: on PostgreSQL the chain's lock
 * is held until that transaction ends.
 */
export async function appendScoreLog(
  trx: Handle,
  body: Omit<ScoreLogBody, "seq" | "at"> & { at?: string },
): Promise<ScoreLogEntry> {
  const chain = body.judgeId;
  if (!Number.isInteger(chain) || chain <= CONTEST_CHAIN) throw new Error(`score log: no judge to chain the entry to (${chain})`);
  if (isPostgres(trx)) {
    await sql`select pg_advisory_xact_lock_shared(${body.contestId}::int, ${CONTEST_CHAIN}::int), pg_advisory_xact_lock(${body.contestId}::int, ${chain}::int)`.execute(
      trx,
    );
  }
  const last = await trx
    .selectFrom("score_log")
    .select(["body", "prev_hash", "hash"])
    .where("contest_id", "=", body.contestId)
    .where("chain", "=", chain)
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
  const at = body.at ?? new Date().toISOString();
  const entry = appendEntry(last ? [toEntry(last)] : [], { ...body, at });
  const { prevHash, hash, ...rest } = entry;
  await trx
    .insertInto("score_log")
    .values({
      contest_id: body.contestId,
      chain,
      seq: entry.seq,
      body: canonicalJson(rest),
      prev_hash: prevHash,
      hash,
      created_at: at,
    })
    .execute();
  return entry;
}

/** Holds every chain of the contest still until `trx` ends (PostgreSQL; SQLite has one writer): for a publication's anchor. */
export async function lockScoreLog(trx: Handle, contestId: number): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${contestId}::int, ${CONTEST_CHAIN}::int)`.execute(trx);
}

/** The contest's whole log, every chain, in the order the entries were written. */
export async function readScoreLog(db: Handle, contestId: number): Promise<ScoreLogEntry[]> {
  const rows = await db
    .selectFrom("score_log")
    .select(["body", "prev_hash", "hash"])
    .where("contest_id", "=", contestId)
    .orderBy("id")
    .execute();
  return rows.map(toEntry);
}

/**
 * What a publication anchors: each chain's head, their digest (`hash`; the genesis hash when
 * the log is empty) and the number of entries they cover (`seq`).
 */
export async function scoreLogHead(db: Handle, contestId: number): Promise<{ hash: string; seq: number; heads: ChainHead[] }> {
  const rows = await db
    .selectFrom("score_log as s")
    .innerJoin(
      db
        .selectFrom("score_log")
        .select((eb) => ["chain", eb.fn.max("seq").as("last")])
        .where("contest_id", "=", contestId)
        .groupBy("chain")
        .as("m"),
      (j) => j.onRef("m.chain", "=", "s.chain").onRef("m.last", "=", "s.seq"),
    )
    .select(["s.chain", "s.seq", "s.hash"])
    .where("s.contest_id", "=", contestId)
    .orderBy("s.chain")
    .execute();
  const heads = rows.map((r) => ({ chain: Number(r.chain), seq: Number(r.seq), hash: r.hash }));
  return { hash: headsRoot(heads), seq: heads.reduce((s, h) => s + h.seq, 0), heads };
}

/** Whose chain it is, for a message. */
async function chainLabel(db: Handle, chain: number | null): Promise<string> {
  if (chain === null) return "结果发布存档";
  if (chain === CONTEST_CHAIN) return "按评委分链之前的评分链";
  const u = await db.selectFrom("app_user").select("name").where("id", "=", chain).executeTakeFirst();
  return u ? `评委「${u.name}」（编号 ${chain}）的评分链` : `评委（编号 ${chain}）的评分链`;
}

/** Verifies every chain of the contest's log, and against the heads each of its publications anchored. */
export async function verifyScoreLog(db: Handle, contestId: number): Promise<LogCheck> {
  const rows = await db
    .selectFrom("score_log")
    .select(["chain", "body", "prev_hash", "hash"])
    .where("contest_id", "=", contestId)
    .orderBy("chain")
    .orderBy("seq")
    .execute();
  const chains = new Map<number, ScoreLogEntry[]>();
  for (const r of rows) {
    const chain = Number(r.chain);
    const list = chains.get(chain) ?? [];
    list.push(toEntry(r));
    chains.set(chain, list);
  }
  const pubs = await db
    .selectFrom("result_publication")
    .select(["log_head", "log_seq", "log_heads"])
    .where("contest_id", "=", contestId)
    .orderBy("id")
    .execute();
  const anchors: LogAnchor[] = pubs.map((p) => ({
    head: p.log_head,
    seq: Number(p.log_seq),
    heads: p.log_heads === null ? null : (decodeHeads(p.log_heads) ?? []),
  }));
  const r = verifyLog(contestId, chains, anchors);
  if (r.ok) return r;
  return { ...r, message: `${await chainLabel(db, r.chain)}：${r.message}` };
}
