/** Every migration, in order. Typed against Kysely<unknown> so they never drift with today's schema. */
import type { Migration } from "kysely";
import * as m0001 from "./0001-foundation";
import * as m0002 from "./0002-master-data";

export const migrations: Record<string, Migration> = {
  "0001-foundation": m0001,
  "0002-master-data": m0002,
};
