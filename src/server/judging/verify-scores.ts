/**
 * Verifies the hash-chained score log of every contest that has one (or of one contest): every
 * chain of it (one per judge, and the contest's chain from before migration 0038), against the
 * heads each result publication anchored; one line per contest in Chinese: used by `npm run verify-scores` (verify-cli.ts) and by a
 * restore's final check (backup/restore.ts).
 */
import type { Db } from "../db";
import { checkScoreLog } from "./service/score";

/** Verifies the chains and writes the report through `print`; returns the exit code. */
export async function verifyScores(
  db: Db,
  opts: { contest?: number },
  print: (line: string) => void = console.log,
): Promise<number> {
  let contests: { id: number; name: string }[];
  if (opts.contest !== undefined) {
    const c = await db.selectFrom("contest").select(["id", "name"]).where("id", "=", opts.contest).executeTakeFirst();
    if (!c) {
      print(`赛事（编号 ${opts.contest}）不存在`);
      return 1;
    }
    contests = [c];
  } else {
    contests = await db
      .selectFrom("contest")
      .select(["id", "name"])
      .where("id", "in", db.selectFrom("score_log").select("contest_id"))
      .orderBy("id")
      .execute();
    if (!contests.length) {
      print("没有任何评分日志，无需校验");
      return 0;
    }
  }
  let broken = 0;
  for (const c of contests) {
    const r = await checkScoreLog(db, c.id);
    if (!r.ok) broken++;
    print(`赛事「${c.name}」（编号 ${c.id}）：${r.message}`);
  }
  print(
    broken
      ? `共校验 ${contests.length} 个赛事，其中 ${broken} 个赛事的评分日志被篡改或不完整`
      : `共校验 ${contests.length} 个赛事，评分日志全部完整`,
  );
  return broken ? 1 : 0;
}
