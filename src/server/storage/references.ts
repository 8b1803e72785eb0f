/**
 * The columns that name a blob of the store (by its sha256): backups copy exactly these
 * blobs and the clean-up (gc.ts) keeps them. A table that starts keeping blobs is added here.
 */
import { sql, type Kysely } from "kysely";

export const BLOB_REFERENCES: readonly { table: string; column: string }[] = [
  { table: "work_file", column: "sha256" },
  // Evidence of complaints (also uploaded and not yet attached: kept like the rest).
  { table: "complaint_evidence", column: "sha256" },
  // An import's upload and plan, an export's output: kept until the job row is cleaned up (jobs/cleanup.ts).
  { table: "job", column: "input_sha256" },
  { table: "job", column: "plan_sha256" },
  { table: "job", column: "output_sha256" },
  // A certificate template's background image (an upload not saved in a template is not kept).
  { table: "certificate_template", column: "background_sha256" },
  // A best work's cover image (issue 14).
  { table: "best_work", column: "cover_sha256" },
];

/** Every distinct blob the database names, sorted. */
export async function referencedBlobs(db: Kysely<any>): Promise<string[]> {
  const all = new Set<string>();
  for (const ref of BLOB_REFERENCES) {
    const r = await sql<{
      sha: string;
    }>`select distinct ${sql.ref(ref.column)} as sha from ${sql.table(ref.table)} where ${sql.ref(ref.column)} is not null`.execute(
      db,
    );
    for (const row of r.rows) all.add(row.sha);
  }
  return [...all].sort();
}

/** Whether any row names the blob (one indexed lookup per reference). */
export async function isBlobReferenced(db: Kysely<any>, sha256: string): Promise<boolean> {
  for (const ref of BLOB_REFERENCES) {
    const r = await sql`select 1 as one from ${sql.table(ref.table)} where ${sql.ref(ref.column)} = ${sha256} limit 1`.execute(
      db,
    );
    if (r.rows.length) return true;
  }
  return false;
}
