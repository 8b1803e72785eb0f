/**
 * The index's figures for the admin page (works indexed, pending, failed, too short, missing;
 * the ignored list; the last rebuild; settings and parameters) and its entries by status.
 */
import type { Db } from "../db/index";
import type { DupEntryStatus, DupEntryView, DupIndexStats, DupReason, DupRebuildInfo } from "../../shared/dupcheck/schema";
import { DUP_PARAMS } from "./prepare";
import { getSettings, readSetting } from "./settings";

export async function indexStats(db: Db): Promise<DupIndexStats> {
  const settings = await getSettings(db);
  const count = (n: unknown) => Number(n ?? 0);
  const byStatus = await db
    .selectFrom("dup_entry")
    .select(["status", (eb) => eb.fn.countAll().as("n")])
    .groupBy("status")
    .execute();
  const of = (s: string) => count(byStatus.find((r) => r.status === s)?.n);
  const tooShort = await db
    .selectFrom("dup_entry")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("too_short", "=", 1)
    .where("status", "=", "indexed")
    .executeTakeFirst();
  const withSkipped = await db
    .selectFrom("dup_entry")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("status", "=", "indexed")
    .where("reasons", "<>", "[]")
    .where("too_short", "=", 0)
    .executeTakeFirst();
  const eligible = await db
    .selectFrom("work")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("status", "<>", "draft")
    .executeTakeFirst();
  const missing = await db
    .selectFrom("work")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("status", "<>", "draft")
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("dup_entry").select("work_id").whereRef("dup_entry.work_id", "=", "work.id"))),
    )
    .executeTakeFirst();
  const ignored = await db
    .selectFrom("dup_ignored")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirst();
  const info = await readSetting<{ sampleWorks: number; computedAt: string }>(db, "ignoredInfo");
  const last = await readSetting<DupRebuildInfo & { heartbeat?: number }>(db, "rebuild");
  if (last) delete last.heartbeat;
  return {
    eligible: count(eligible?.n),
    indexed: of("indexed"),
    pending: of("pending"),
    failed: of("failed"),
    tooShort: count(tooShort?.n),
    withSkipped: count(withSkipped?.n),
    missing: count(missing?.n),
    ignoredShingles: count(ignored?.n),
    ignoredComputedFrom: info?.sampleWorks ?? 0,
    ignoredComputedAt: info?.computedAt ?? null,
    lastRebuild: last,
    settings,
    params: DUP_PARAMS,
  };
}

export async function listEntries(
  db: Db,
  opts: { status?: DupEntryStatus; withReasons?: boolean; limit: number; offset: number },
): Promise<{ total: number; items: DupEntryView[] }> {
  let q = db.selectFrom("dup_entry");
  if (opts.status) q = q.where("status", "=", opts.status);
  if (opts.withReasons) q = q.where("reasons", "<>", "[]");
  const total = Number((await q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirst())?.n ?? 0);
  const rows = await q
    .select(["work_id", "year", "contest_id", "status", "too_short", "shingle_count", "reasons", "updated_at"])
    .orderBy("updated_at", "desc")
    .orderBy("work_id", "desc")
    .limit(Math.max(0, Math.min(opts.limit, 1000)))
    .offset(Math.max(0, opts.offset))
    .execute();
  return {
    total,
    items: rows.map((r) => ({
      workId: Number(r.work_id),
      year: r.year,
      contestId: r.contest_id,
      status: r.status,
      tooShort: r.too_short === 1,
      shingles: r.shingle_count,
      reasons: JSON.parse(r.reasons) as DupReason[],
      updatedAt: r.updated_at,
    })),
  };
}
