/**
 * `npm run verify-scores [-- --contest <id>]`: verifies the hash-chained score log of every
 * contest that has one (or of one contest) in DATABASE_URL (default: the embedded SQLite
 * file): each of its chains (one per judge), against the heads stored with each of the
 * contest's result publications. Prints one line per contest in Chinese; the exit code is 1 when any chain is
 * broken (or the contest does not exist), 0 otherwise.
 */
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { openDb } from "../db";
import { verifyScores } from "./verify-scores";

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
