/**
 * Migration 0038 (one score-log chain per judge): a contest's log written in the old layout (one
 * chain per contest, a publication anchoring its head) still verifies after the migration, as
 * chain 0; new entries go to their judge's chain; verify-scores checks every chain and finds a
 * changed, removed or inserted entry, and a chain cut behind a publication's anchored heads.
 * On PostgreSQL, appends of different judges do not wait for each other; one judge's do.
 * SQLite and (with TEST_DATABASE_URL) PostgreSQL.
 */
import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, type Db } from "../../src/server/db";
import { migrations } from "../../src/server/db/migrations/index";
import { appendEntry, canonicalJson, encodeHeads, type ScoreLogEntry } from "../../src/server/judging/score-log";
import { appendScoreLog, scoreLogHead, verifyScoreLog } from "../../src/server/judging/service/score-log-store";
import { verifyScores } from "../../src/server/judging/verify-scores";
import { openScratchDb } from "../helpers/scratch-db";

const DIALECTS = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
const AT = "2026-06-01T08:00:00.000Z";

describe.each(DIALECTS)("migration 0038 (score log chains) on %s", (dialect) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let contest: number;
  let judges: number[];
  beforeAll(async () => {
    const scratch = await openScratchDb(dialect, "saiwu_logchains");
    db = scratch.db;
    cleanup = scratch.close;
    contest = Number(
      (
        await db
          .insertInto("contest")
          .values({ name: "链测试赛", level: "provincial", year: 2026, created_at: AT, updated_at: AT })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id,
    );
    judges = [];
    for (const [username, name] of [
      ["chain_j1", "甲评委"],
      ["chain_j2", "乙评委"],
    ]) {
      const u = await db
        .insertInto("app_user")
        .values({
          username,
          name,
          password_hash: "x",
          user_type: 4,
          email_verified: 0,
          has_complaint_right: 0,
          is_school_contest_judge: 0,
          locked: 0,
          created_at: AT,
          updated_at: AT,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      judges.push(u.id);
    }
  }, 60_000);
  afterAll(() => cleanup?.());

  const row = (id: number) => db.selectFrom("score_log").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it(
    "keeps the old per-contest chain verifiable, chains new entries per judge and finds tampering",
    { timeout: 60_000 },
    async () => {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
      const undone: string[] = [];
      while (!undone.includes("0038-score-log-chains")) {
        const down = await migrator.migrateDown();
        expect(down.error).toBeUndefined();
        undone.push(...(down.results ?? []).map((r) => r.migrationName));
      }

      // The old layout: one chain for the contest, both judges in it, seq unique per contest,
      // and a publication anchoring its head after 3 entries.
      const old: ScoreLogEntry[] = [];
      for (let i = 0; i < 5; i++) {
        const judgeId = judges[i % 2];
        const e = appendEntry(old, {
          at: AT,
          actorId: judgeId,
          contestId: contest,
          workId: 2026000100 + i,
          judgeId,
          action: "draft",
          score: 60 + i,
        });
        old.push(e);
        const { prevHash, hash, ...body } = e;
        await sql`insert into score_log (contest_id, seq, body, prev_hash, hash, created_at) values (${contest}, ${e.seq}, ${canonicalJson(body)}, ${prevHash}, ${hash}, ${AT})`.execute(
          db,
        );
        if (i === 2)
          await sql`insert into result_publication (contest_id, published_at, published_by, model, model_version, params, log_head, log_seq) values (${contest}, ${AT}, ${judges[0]}, 'm', 1, '{}', ${e.hash}, 3)`.execute(
            db,
          );
      }
      const before = await sql<{ id: number; hash: string }>`select id, hash from score_log order by id`.execute(db);

      expect((await migrate(db)).sort()).toEqual(undone.sort());
      const after = await db.selectFrom("score_log").select(["id", "hash", "chain", "seq"]).orderBy("id").execute();
      expect(after.map((r) => [Number(r.id), r.hash, r.chain])).toEqual(before.rows.map((r) => [Number(r.id), r.hash, 0]));
      expect(await verifyScoreLog(db, contest)).toMatchObject({ ok: true, count: 5, chains: 1 });

      // New entries: each judge's own chain, from seq 1, after the old rows' ids.
      for (const [i, judgeId] of [judges[0], judges[1], judges[0]].entries())
        await db.transaction().execute((trx) =>
          appendScoreLog(trx, {
            actorId: judgeId,
            contestId: contest,
            workId: 2026000200 + i,
            judgeId,
            action: "submit",
            score: 80 + i,
          }),
        );
      const fresh = await db
        .selectFrom("score_log")
        .select(["id", "chain", "seq"])
        .where("chain", "<>", 0)
        .orderBy("id")
        .execute();
      expect(fresh.map((r) => [r.chain, Number(r.seq)])).toEqual([
        [judges[0], 1],
        [judges[1], 1],
        [judges[0], 2],
      ]);
      expect(Number(fresh[0].id)).toBeGreaterThan(Math.max(...before.rows.map((r) => Number(r.id))));
      // A new publication anchors every chain's head.
      const head = await scoreLogHead(db, contest);
      expect(head.heads.map((h) => [h.chain, h.seq])).toEqual([
        [0, 5],
        [judges[0], 2],
        [judges[1], 1],
      ]);
      expect(head.seq).toBe(8);
      await db
        .insertInto("result_publication")
        .values({
          contest_id: contest,
          published_at: AT,
          published_by: judges[0],
          model: "m",
          model_version: 1,
          params: "{}",
          log_head: head.hash,
          log_seq: head.seq,
          log_heads: encodeHeads(head.heads),
        })
        .execute();
      expect(await verifyScoreLog(db, contest)).toMatchObject({ ok: true, count: 8, chains: 3, head: head.hash });
      const lines: string[] = [];
      expect(await verifyScores(db, {}, (l) => lines.push(l))).toBe(0);
      expect(lines).toEqual([
        expect.stringMatching(/^赛事「链测试赛」（编号 \d+）：评分日志完整：共 8 条记录（3 条评分链），链头 [0-9a-f]{16}…$/),
        "共校验 1 个赛事，评分日志全部完整",
      ]);
      // seq is unique within a chain, not across the contest.
      const first = await row(Number(fresh[0].id));
      const { id: _id, ...copy } = first;
      await expect(db.insertInto("score_log").values(copy).execute()).rejects.toThrow();

      // Changed: the old chain's second entry, then a judge's entry.
      const legacy2 = await db
        .selectFrom("score_log")
        .selectAll()
        .where("chain", "=", 0)
        .where("seq", "=", 2)
        .executeTakeFirstOrThrow();
      await db
        .updateTable("score_log")
        .set({ body: legacy2.body.replace('"score":61', '"score":91') })
        .where("id", "=", legacy2.id)
        .execute();
      expect(await verifyScoreLog(db, contest)).toMatchObject({
        ok: false,
        chain: 0,
        index: 1,
        reason: "hash_mismatch",
        message: "按评委分链之前的评分链：第 2 条记录的内容与其哈希不符（记录被修改）",
      });
      await db.updateTable("score_log").set({ body: legacy2.body }).where("id", "=", legacy2.id).execute();
      const j1 = await db.selectFrom("score_log").selectAll().where("chain", "=", judges[0]).orderBy("seq").execute();
      await db
        .updateTable("score_log")
        .set({ body: j1[0].body.replace('"score":80', '"score":99') })
        .where("id", "=", j1[0].id)
        .execute();
      const changed = await verifyScoreLog(db, contest);
      expect(changed).toMatchObject({ ok: false, chain: judges[0], index: 0, reason: "hash_mismatch" });
      expect(changed.ok ? "" : changed.message).toBe(
        `评委「甲评委」（编号 ${judges[0]}）的评分链：第 1 条记录的内容与其哈希不符（记录被修改）`,
      );
      await db.updateTable("score_log").set({ body: j1[0].body }).where("id", "=", j1[0].id).execute();
      expect((await verifyScoreLog(db, contest)).ok).toBe(true);

      // Removed: the judge's first entry breaks the chain at the next one; the last one is
      // caught by the publication's anchored head.
      await db.deleteFrom("score_log").where("id", "=", j1[0].id).execute();
      expect(await verifyScoreLog(db, contest)).toMatchObject({ ok: false, chain: judges[0], index: 0, reason: "prev_mismatch" });
      await db.insertInto("score_log").values(j1[0]).execute();
      await db.deleteFrom("score_log").where("id", "=", j1[1].id).execute();
      expect(await verifyScoreLog(db, contest)).toMatchObject({ ok: false, chain: judges[0], index: 1, reason: "head_mismatch" });
      await db.insertInto("score_log").values(j1[1]).execute();

      // Inserted: an entry forged to fit after the judge's first one, the second renumbered.
      const forged = appendEntry([{ ...JSON.parse(j1[0].body), prevHash: j1[0].prev_hash, hash: j1[0].hash }], {
        at: AT,
        actorId: judges[0],
        contestId: contest,
        workId: 2026000299,
        judgeId: judges[0],
        action: "submit",
        score: 100,
      });
      await db.updateTable("score_log").set({ seq: 3 }).where("id", "=", j1[1].id).execute();
      const { prevHash, hash, ...body } = forged;
      await db
        .insertInto("score_log")
        .values({
          contest_id: contest,
          chain: judges[0],
          seq: 2,
          body: canonicalJson(body),
          prev_hash: prevHash,
          hash,
          created_at: AT,
        })
        .execute();
      expect(await verifyScoreLog(db, contest)).toMatchObject({ ok: false, chain: judges[0], index: 2, reason: "prev_mismatch" });
      lines.length = 0;
      expect(await verifyScores(db, { contest }, (l) => lines.push(l))).toBe(1);
      expect(lines[1]).toBe("共校验 1 个赛事，其中 1 个赛事的评分日志被篡改或不完整");
    },
  );
  it.skipIf(dialect !== "postgres")(
    "lets two judges append at once while one judge's appends queue",
    { timeout: 60_000 },
    async () => {
      const other = Number(
        (
          await db
            .insertInto("contest")
            .values({ name: "并发链测试赛", level: "provincial", year: 2026, created_at: AT, updated_at: AT })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id,
      );
      const entry = (judgeId: number, score: number) => ({
        actorId: judgeId,
        contestId: other,
        workId: 2026000300,
        judgeId,
        action: "draft",
        score,
      });
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let appended!: () => void;
      const inFirst = new Promise<void>((r) => (appended = r));
      // The first judge's save appends and stays open, holding that judge's chain.
      const first = db.transaction().execute(async (trx) => {
        await appendScoreLog(trx, entry(judges[0], 1));
        appended();
        await held;
      });
      await inFirst;
      try {
        // Another judge's save of the same contest goes through meanwhile (it waited for the
        // contest's one chain before 0038: the lock timeout refused it).
        await db.transaction().execute(async (trx) => {
          await sql`set local lock_timeout = '5s'`.execute(trx);
          await appendScoreLog(trx, entry(judges[1], 2));
        });
        // The same judge's next save waits for the first.
        await expect(
          db.transaction().execute(async (trx) => {
            await sql`set local lock_timeout = '300ms'`.execute(trx);
            await appendScoreLog(trx, entry(judges[0], 3));
          }),
        ).rejects.toThrow(/lock timeout/);
      } finally {
        release();
        await first;
      }
      await db.transaction().execute((trx) => appendScoreLog(trx, entry(judges[0], 4)));
      const rows = await db
        .selectFrom("score_log")
        .select(["chain", "seq", "body"])
        .where("contest_id", "=", other)
        .orderBy("id")
        .execute();
      expect(rows.map((r) => [r.chain, Number(r.seq), JSON.parse(r.body).score])).toEqual([
        [judges[0], 1, 1],
        [judges[1], 1, 2],
        [judges[0], 2, 4],
      ]);
      expect(await verifyScoreLog(db, other)).toMatchObject({ ok: true, count: 3, chains: 2 });
    },
  );
});
