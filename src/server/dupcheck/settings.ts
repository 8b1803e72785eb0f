/**
 * Duplicate-check settings (thresholds, the ignored-shingle rule, the shortest checkable
 * text) in dup_setting, and the ignored-shingle list, both read through a read cache that a
 * write to their table invalidates.
 */
import { readCache } from "../db/changes";
import type { Db } from "../db/index";
import { invalid } from "../../shared/errors";
import type { DupBenchmarkFigures, DupSettings } from "../../shared/dupcheck/schema";

export const DEFAULT_SETTINGS: DupSettings = {
  suspect: 0.3,
  likely: 0.6,
  ignoreShare: 0.05,
  ignoreMinWorks: 20,
  minShingles: 50,
};

export function levelOf(similarity: number, s: Pick<DupSettings, "suspect" | "likely">): "likely" | "suspect" | "none" {
  return similarity >= s.likely ? "likely" : similarity >= s.suspect ? "suspect" : "none";
}

const cache = (db: Db) => readCache(db, "dupcheck", { maxEntries: 8, maxAgeMs: 30_000 });

export async function readSetting<T>(db: Db, key: string): Promise<T | null> {
  const row = await db.selectFrom("dup_setting").select("value").where("key", "=", key).executeTakeFirst();
  return row ? (JSON.parse(row.value) as T) : null;
}

export async function writeSetting(db: Db, key: string, value: unknown): Promise<void> {
  const v = JSON.stringify(value);
  await db
    .insertInto("dup_setting")
    .values({ key, value: v })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: v }))
    .execute();
}

export function getSettings(db: Db): Promise<DupSettings> {
  return cache(db).get("settings", ["dup_setting"], async () => ({
    ...DEFAULT_SETTINGS,
    ...((await readSetting<Partial<DupSettings>>(db, "settings")) ?? {}),
  }));
}

const shareOk = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 1;

export async function saveSettings(db: Db, patch: Partial<DupSettings>): Promise<DupSettings> {
  const next = {
    ...(await getSettings(db)),
    ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
  } as DupSettings;
  if (!shareOk(next.suspect) || next.suspect <= 0) throw invalid("suspect", "疑似重复阈值应在 0 到 1 之间");
  if (!shareOk(next.likely) || next.likely <= 0) throw invalid("likely", "高度疑似重复阈值应在 0 到 1 之间");
  if (next.likely < next.suspect) throw invalid("likely", "高度疑似重复阈值不能低于疑似重复阈值");
  if (!shareOk(next.ignoreShare) || next.ignoreShare <= 0) throw invalid("ignoreShare", "常见片段比例应在 0 到 1 之间");
  if (!Number.isInteger(next.ignoreMinWorks) || next.ignoreMinWorks < 2 || next.ignoreMinWorks > 1_000_000)
    throw invalid("ignoreMinWorks", "常见片段的最少作品数应为 2 到 1000000 的整数");
  if (!Number.isInteger(next.minShingles) || next.minShingles < 1 || next.minShingles > 100_000)
    throw invalid("minShingles", "最短可查文本应为 1 到 100000 的整数");
  await writeSetting(db, "settings", next);
  return next;
}

/** The ignored shingle hashes, sorted. */
export function ignoredSet(db: Db): Promise<Uint32Array> {
  return cache(db).get("ignored", ["dup_ignored"], async () => {
    const rows = await db.selectFrom("dup_ignored").select("hash").execute();
    return Uint32Array.from(rows.map((r) => Number(r.hash))).sort();
  });
}

/**
 * The figures of the last `npm run bench:dupcheck -- --record <DATA_DIR or URL>` run, kept
 * in dup_setting under "benchmark" (the bench writes them into the platform's database; the
 * admin page shows them with their date). null: never recorded.
 */
export function lastBenchmark(db: Db): Promise<DupBenchmarkFigures | null> {
  return readSetting<DupBenchmarkFigures>(db, "benchmark");
}

export function recordBenchmark(db: Db, figures: DupBenchmarkFigures): Promise<void> {
  return writeSetting(db, "benchmark", figures);
}
