/** Every migration, in order. Typed against Kysely<unknown> so they never drift with today's schema. */
import type { Migration } from "kysely";
import * as m0001 from "./0001-foundation";

export const migrations: Record<string, Migration> = {
  "0001-foundation": m0001,
};
