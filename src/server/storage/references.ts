/**
 * The columns that name a blob of the store (by its sha256). Backups copy exactly these
 * blobs; a table that starts keeping blobs is added here.
 */
import { sql, type Kysely } from "kysely";

export const BLOB_REFERENCES: readonly { table: string; column: string }[] = [{ table: "work_file", column: "sha256" }];

/** Every distinct blob the database names, sorted. */
export async function referencedBlobs(db: Kysely<any>): Promise<string[]> {
  const all = new Set<string>();
  for (const ref of BLOB_REFERENCES) {
    const r = await sql<{ sha: string }>`select distinct ${sql.ref(ref.column)} as sha from ${sql.table(ref.table)} where ${sql.ref(ref.column)} is not null`.execute(db);
    for (const row of r.rows) all.add(row.sha);
  }
  return [...all].sort();
}
