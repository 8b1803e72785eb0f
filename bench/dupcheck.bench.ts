/**
 * npm run bench:dupcheck — the duplicate check's speed and quality on a fixed-seed synthetic
 * corpus of Chinese works (bench/dupcheck-corpus.ts: exact copies, light edits of 1–5 %,
 * rewrites of 10–30 %, works sharing only template sentences, same-topic originals), built
 * into a real database through the real engine (bench/dupcheck-run.ts says what is measured).
 *
 *   --works N        corpus size (default 100000)
 *   --db pg          PostgreSQL: a scratch database on TEST_DATABASE_URL (default: SQLite in /tmp)
 *   --queries N      checked works per kind (default 300)
 *   --record X       also store the figures, with date and machine, in the platform database
 *                    of X (a DATA_DIR, or a database URL): /admin/ElasticSearch shows them
 *   --keep           keep the bench database (its path is printed)
 *   --no-watch       PostgreSQL: do not listen for other processes' writes (the read caches then serve nothing)
 *
 * Ends with one JSON line: {"works","buildSeconds","addMs","checkP50Ms","checkP99Ms",
 * "recallAt05","lightEditsFound","rewritesFound","originalsFlagged"}.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/server/config";
import { isPostgresUrl, migrate, openDb } from "../src/server/db";
import { watchChanges } from "../src/server/db/changes";
import { createScratchPgDatabase } from "../src/server/db/scratch-pg";
import { recordBenchmark } from "../src/server/dupcheck/settings";
import { machineFacts, runDupBench } from "./dupcheck-run";
import { runBench } from "./entry";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const log = (line: string) => console.log(line);

async function open(dir: string, pg: boolean) {
  if (pg) {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error("--db pg needs TEST_DATABASE_URL");
    const scratch = await createScratchPgDatabase(base, "dupbench");
    return { ...openDb(scratch.url), where: scratch.url, drop: scratch.drop };
  }
  const file = join(dir, "dupbench.db");
  return { ...openDb(`file:${file}`), where: file, drop: async () => undefined };
}

async function main() {
  const works = Number(arg("works") ?? 100_000);
  const pg = arg("db") === "pg";
  const keep = process.argv.includes("--keep");
  const dir = mkdtempSync(join(tmpdir(), "saiwu-dupbench-"));
  const o = await open(dir, pg);
  try {
    await migrate(o.db);
    // As the server does (app.ts): on PostgreSQL the read caches (settings, the ignored list) serve nothing until it listens.
    if (!process.argv.includes("--no-watch")) await watchChanges(o.db);
    log(`查重基准：${works} 件作品，${o.dialect === "postgres" ? "PostgreSQL" : "SQLite"}（${o.where}），${machineFacts()}`);
    const { figures, details } = await runDupBench(o.db, { works, queries: Number(arg("queries") ?? 300), log });
    await o.db.destroy();
    const target = arg("record");
    if (target) {
      const url = isPostgresUrl(target) || target.startsWith("file:") ? target : loadConfig({ DATA_DIR: target }).databaseUrl;
      const rec = openDb(url);
      await migrate(rec.db);
      await recordBenchmark(rec.db, {
        ...figures,
        dialect: o.dialect === "postgres" ? "PostgreSQL" : "SQLite",
        date: new Date().toISOString(),
        rebuildSeconds: details.rebuildSeconds,
        machine: machineFacts(),
      });
      await rec.db.destroy();
      log(`已记录到 ${url}（/admin/ElasticSearch 显示）`);
    }
    console.log(JSON.stringify(figures));
  } finally {
    if (keep) log(`保留基准数据库：${o.where}`);
    else {
      await o.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** `--seed-only <dir>`: builds the corpus index into <dir>/dupbench.db and stops (no measuring). */
async function seedOnly(dir: string) {
  const { db } = openDb(`file:${join(dir, "dupbench.db")}`);
  await migrate(db);
  await runDupBench(db, { works: Number(arg("works") ?? 100_000), queries: 0, addWorks: 0, log });
  await db.destroy();
}

runBench(main, seedOnly);
