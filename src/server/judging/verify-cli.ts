/**
 * `npm run verify-scores [-- --contest <id>]`: verifies the hash-chained score log of every
 * contest that has one (or of one contest) in DATABASE_URL (default: the embedded SQLite
 * file), against the head stored with the contest's latest result publication when there
 * is one. Prints one line per contest in Chinese; the exit code is 1 when any chain is
 * broken (or the contest does not exist), 0 otherwise.
 */
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { openDb, type Db } from "../db";
import { checkScoreLog } from "./service/score";

/** Verifies the chains and writes the report through `print`; returns the exit code. */
export async function verifyScores(db: Db, opts: { contest?: number }, print: (line: string) => void = console.log): Promise<number> {
  let contests: { id: number; name: string }[];
  if (opts.contest !== undefined) {
    const c = await db.selectFrom("contest").select(["id", "name"]).where("id", "=", opts.contest).executeTakeFirst();
    if (!c) {
      print(`赛事（编号 ${opts.contest}）不存在`);
      return 1;
    }
    contests = [c];
  } else {
    contests = await db.selectFrom("contest").select(["id", "name"]).where("id", "in", db.selectFrom("score_log").select("contest_id")).orderBy("id").execute();
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
  print(broken ? `共校验 ${contests.length} 个赛事，其中 ${broken} 个赛事的评分日志被篡改或不完整` : `共校验 ${contests.length} 个赛事，评分日志全部完整`);
  return broken ? 1 : 0;
}

export async function main(argv: string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let contest: number | undefined;
  try {
    const { values } = parseArgs({ args: argv, options: { contest: { type: "string" } } });
    if (values.contest !== undefined) {
      if (!/^[1-9][0-9]*$/.test(values.contest)) throw new Error(`赛事编号应为正整数：${values.contest}`);
      contest = Number(values.contest);
    }
  } catch (e) {
    console.error(`参数错误：${(e as Error).message}。用法：npm run verify-scores -- [--contest <赛事编号>]`);
    return 2;
  }
  const { db } = openDb(loadConfig(env).databaseUrl);
  try {
    return await verifyScores(db, { contest });
  } finally {
    await db.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().then(
    (code) => (process.exitCode = code),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
