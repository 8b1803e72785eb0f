/** Duplicate-check tables: index entries, shingle sets, LSH bands, ignored shingles and settings. */
import type { Generated } from "kysely";
import type { Timestamp } from "./common";

/** Duplicate-check index entry of one work (0021); see src/server/dupcheck/. */
export interface DupEntryTable {
  work_id: number;
  year: number;
  contest_id: number;
  /** indexed | pending | failed */
  status: "indexed" | "pending" | "failed";
  too_short: Generated<number>;
  /** JSON array of DupReason */
  reasons: Generated<string>;
  /** sha256 of the normalised text and the parameters; null before the first indexing */
  text_hash: string | null;
  /** shingles not in the ignored list, at indexing */
  shingle_count: Generated<number>;
  /** the work's band keys in dup_band, float64 little-endian */
  bands: Uint8Array | null;
  updated_at: Timestamp;
}

/** A work's full sorted shingle set (0034; a row for each entry indexed at least once). */
export interface DupSetTable {
  work_id: number;
  /** delta-varint encoded (dupcheck/shingles.ts encodeSet) */
  shingles: Uint8Array;
}

/** LSH band key → work (0021). */
export interface DupBandTable {
  band_key: number;
  work_id: number;
}

/** A very common shingle, ignored by the duplicate check (0021). */
export interface DupIgnoredTable {
  /** the 32-bit shingle hash */
  hash: number;
  sample: string;
  works: number;
}

/** Duplicate-check settings and bookkeeping: key → JSON (0021). */
export interface DupSettingTable {
  key: string;
  value: string;
}
