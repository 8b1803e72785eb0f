/**
 * Clean-up of the blob store: a blob no row names (references.ts) is an orphan — an upload the
 * final check refused (the work changed state, a lock started, a concurrent upload won), or
 * a seed's leftovers. Files are never orphaned by replacing or deleting (those rows stay),
 * so an orphan's bytes belong to nobody. Only orphans older than a grace period are removed:
 * an upload in flight has its blob stored before its row is written.
 *
 * `npm run blobs:gc -- [--dry-run] [--grace-hours 24]` runs it against DATABASE_URL and the
 * configured store.
 */
import type { Kysely } from "kysely";
import type { DB } from "../db/schema";
import type { BlobStore } from "./blob-store";
import { isBlobReferenced } from "./references";

export interface GcReport {
  blobs: number;
  referenced: number;
  /** orphans removed (or, on a dry run, that would be) */
  removed: string[];
  /** orphans younger than the grace period, kept */
  young: number;
  unfinishedRemoved: number;
}

export async function collectOrphanBlobs(
  db: Kysely<DB>,
  store: BlobStore,
  opts: { graceMs: number; dryRun?: boolean; now?: Date },
): Promise<GcReport> {
  const now = opts.now ?? new Date();
  const cutoff = new Date(now.getTime() - opts.graceMs);
  const report: GcReport = { blobs: 0, referenced: 0, removed: [], young: 0, unfinishedRemoved: 0 };
  for await (const blob of store.list()) {
    report.blobs++;
    // One indexed lookup per blob (work_file_sha256): the store may hold far more than fits a query.
    const used = await isBlobReferenced(db, blob.sha256);
    if (used) report.referenced++;
    else if (blob.storedAt >= cutoff) report.young++;
    else {
      // Checked again right before removing: a row may have been written meanwhile.
      if (!opts.dryRun && !(await isBlobReferenced(db, blob.sha256))) await store.delete(blob.sha256);
      report.removed.push(blob.sha256);
    }
  }
  if (!opts.dryRun) report.unfinishedRemoved = await store.clearUnfinished(cutoff);
  return report;
}
