/**
 * Issue 9 proof: 200 concurrent score writes spread over two real server processes on one
 * PostgreSQL database lose no update. Three judges save drafts of four (judge, work) pairs
 * of the scoring demo; each write reads the score on its process and saves with the
 * version it read, half through process A and half through B. Every write is either
 * accepted or refused with the version conflict (409, the envelope); the accepted writes of
 * a pair carry the versions 1..n without gap or repeat; the stored score is the body of the
 * accepted write with the last version; and the contest's hash-chained score log verifies
 * with exactly one entry per accepted write, in version order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, startCluster, type Cluster } from "../../support/cluster";
import { SCORING_DEMO_WORKS, seedScoringDemo } from "../../src/server/seed/scoring-demo";
import { readScoreLog, verifyScoreLog } from "../../src/server/judging/service/score-log-store";

const WRITES = 200;
/** The (judge, demo work index) pairs written: none has a score in the demo. */
const PAIRS: [string, number][] = [
  ["judge", 0],
  ["judge", 1],
  ["judge", 2],
  ["judge", 3],
  ["judge2", 4],
  ["judge2", 5],
  ["judge3", 4],
  ["judge3", 5],
];

interface Write {
  n: number;
  pair: number;
  via: "A" | "B";
  body: { items: Record<string, number>; deductions: string[]; comment: string; version: number };
  status?: number;
  reply?: { error: number; info: string; data?: any };
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("score writes across two processes on PostgreSQL", () => {
  let cluster: Cluster;
  let contest: number;
  let works: number[];
  let judgeIds: Record<string, number>;
  let items: string[];
  const writes: Write[] = [];

  beforeAll(async () => {
    cluster = await startCluster(2);
    const { db } = cluster;
    expect(await seedScoringDemo(db)).toBe(true);
    const rows = await db
      .selectFrom("work")
      .select(["id", "name", "contest_id"])
      .where(
        "name",
        "in",
        SCORING_DEMO_WORKS.map((w) => w.name),
      )
      .execute();
    works = SCORING_DEMO_WORKS.map((w) => Number(rows.find((r) => r.name === w.name)!.id));
    contest = Number(rows[0].contest_id);
    const cat = await db.selectFrom("work").select("category_id").where("id", "=", works[0]).executeTakeFirstOrThrow();
    items = (
      await db
        .selectFrom("rubric_item")
        .select("id")
        .where("category_id", "=", cat.category_id)
        .orderBy("sort")
        .orderBy("id")
        .execute()
    ).map((r) => String(r.id));
    judgeIds = Object.fromEntries(
      (
        await db
          .selectFrom("app_user")
          .select(["id", "username"])
          .where("username", "in", ["judge", "judge2", "judge3"])
          .execute()
      ).map((u) => [u.username, u.id]),
    );
  }, 120_000);
  afterAll(async () => cluster?.close());

  it("refuses every stale write with the version error and loses no accepted one", async () => {
    const [A, B] = cluster.procs;
    const logBefore = (await readScoreLog(cluster.db, contest)).length;
    const sessions: Record<string, { A: HttpClient; B: HttpClient }> = {};
    for (const username of new Set(PAIRS.map((p) => p[0]))) {
      const a = new HttpClient(A.url);
      await a.login(username);
      sessions[username] = { A: a, B: a.on(B.url) };
    }
    const url = (pair: number) => `/Backend/Judge/contest/${contest}/work/${works[PAIRS[pair][1]]}/score`;

    // Each write reads the score on its process, then saves a draft with the version it read.
    // The first write of every pair starts at once (the first saves of a contest's scores
    // insert rows side by side); the others wait a random moment so that the rows go through
    // many versions.
    const one = async (n: number) => {
      const pair = n % PAIRS.length;
      const via = (n + Math.floor(n / PAIRS.length)) % 2 === 0 ? "A" : "B";
      const c = sessions[PAIRS[pair][0]][via];
      if (n >= PAIRS.length) await new Promise((r) => setTimeout(r, Math.random() * 1500));
      const read = await c.get(url(pair));
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      const body = {
        items: { [items[0]]: n % 20, [items[1]]: (n % 7) + 0.5 },
        deductions: [],
        comment: `第 ${n} 次写入（经进程 ${via}）`,
        version: read.body.data.version as number,
      };
      const w: Write = { n, pair, via, body };
      writes.push(w);
      const r = await c.req("PUT", url(pair), body);
      w.status = r.status;
      w.reply = r.body;
    };
    await Promise.all(Array.from({ length: WRITES }, (_, n) => one(n)));
    expect(A.alive && B.alive, A.output + B.output).toBe(true);

    // Every reply is an acceptance or the version conflict, in the envelope; nothing else.
    expect(writes).toHaveLength(WRITES);
    const failed = writes.filter((w) => w.status !== 200 && w.status !== 409);
    expect(
      failed.map((w) => w.status),
      `${JSON.stringify(failed.map((w) => w.reply))}\n${A.output}\n${B.output}`,
    ).toEqual([]);
    for (const w of writes) {
      if (w.status === 200) {
        expect(w.reply).toMatchObject({
          error: 0,
          data: { status: "draft", comment: w.body.comment, version: w.body.version + 1 },
        });
      } else {
        expect({ status: w.status, error: w.reply!.error }, JSON.stringify(w.reply)).toEqual({ status: 409, error: 409 });
        expect(w.reply!.info).toMatch(/^评分已在别处修改.*请刷新后重试；本次未保存$/);
      }
    }
    const accepted = writes.filter((w) => w.status === 200);
    expect(accepted.length).toBeGreaterThan(PAIRS.length);
    expect(new Set(writes.map((w) => w.via))).toEqual(new Set(["A", "B"]));

    const log = (await readScoreLog(cluster.db, contest)).slice(logBefore);
    for (const [pair, [username, wi]] of PAIRS.entries()) {
      // The accepted writes of the pair got the versions 1..n, each once: no two writes both won one version.
      const mine = accepted.filter((w) => w.pair === pair).sort((a, b) => a.reply!.data.version - b.reply!.data.version);
      const row = await cluster.db
        .selectFrom("judge_score")
        .selectAll()
        .where("work_id", "=", works[wi])
        .where("judge_id", "=", judgeIds[username])
        .executeTakeFirstOrThrow();
      expect(mine.map((w) => w.reply!.data.version)).toEqual(Array.from({ length: row.version }, (_, i) => i + 1));
      // The stored score is the body of the last accepted write.
      const last = mine.at(-1)!;
      expect({ items: JSON.parse(row.items), comment: row.comment, status: row.status }).toEqual({
        items: last.body.items,
        comment: last.body.comment,
        status: "draft",
      });
      // One log entry per accepted write of the pair, in version order, with its body.
      const entries = log.filter((e) => e.workId === works[wi] && e.judgeId === judgeIds[username]);
      expect(entries.map((e) => [e.action, e.comment, e.items])).toEqual(
        mine.map((w) => ["draft", w.body.comment, w.body.items]),
      );
    }
    expect(log).toHaveLength(accepted.length);
    expect(await verifyScoreLog(cluster.db, contest)).toMatchObject({ ok: true, count: logBefore + accepted.length });

    // The contest admin's check of the log over HTTP, on the other process, agrees.
    const admin = new HttpClient(B.url);
    await admin.login("contest_admin");
    const check = await admin.get(`/Backend/Judging/contest/${contest}/score-log/verify`);
    expect(check.body).toMatchObject({ error: 0, data: { ok: true, count: logBefore + accepted.length } });
  }, 120_000);
});
