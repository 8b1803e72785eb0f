/** Column types shared by the table files: how timestamps and booleans are stored on both dialects. */

/** ISO 8601 timestamps are stored as text on both dialects. */
export type Timestamp = string;
/** Booleans are 0/1 integers on both dialects. */
export type Flag = number;
