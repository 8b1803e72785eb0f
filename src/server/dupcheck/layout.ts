/**
 * The index's layout version: PARAMS_TAG (./prepare.ts) of the texts the stored entries were
 * prepared with, in dup_setting "layout". Band keys follow the stored shingle sets, so a
 * rebuild's band phase (./rebuild-bands.ts) brings them up to date; passage anchors come from
 * the text, so a change of their definition (issue 29: spaced-seed anchors that survive
 * substituted characters) needs every work's text again. An installation whose entries were
 * prepared under another layout (or before the layout was recorded) is migrated by the
 * rebuild machinery: the periodic sweep marks its entries pending — each keeps its set and
 * keys, so it stays findable, until indexWork prepares it again — and the admin's rebuild
 * re-extracts every work at once. Either way the tag is recorded.
 */
import { sql } from "kysely";
import type { Db } from "../db/index";
import { PARAMS_TAG } from "./prepare";
import { readSetting, writeSetting } from "./settings";

const LAYOUT_KEY = "layout";

/**
 * Whether the stored entries were prepared under the current layout. No tag means current: an
 * index that held entries when a layout changed was given its old tag by that change's migration
 * (0036), and an index started since is prepared by this code (the sweep records the tag once it
 * has entries). A fresh database so holds no row here, and a backup restores into it as into any
 * empty one.
 */
export async function layoutCurrent(db: Db): Promise<boolean> {
  const tag = await readSetting<string>(db, LAYOUT_KEY);
  return tag === null || tag === PARAMS_TAG;
}

export function recordLayout(db: Db): Promise<void> {
  return writeSetting(db, LAYOUT_KEY, PARAMS_TAG);
}

/**
 * The sweep's step: an index of another layout gets every indexed entry marked pending (the
 * sweep and the rebuild then prepare them again) and the current tag; an untagged index that
 * has entries gets the current tag. Returns how many entries were marked.
 */
export async function migrateLayout(db: Db): Promise<number> {
  const tag = await readSetting<string>(db, LAYOUT_KEY);
  if (tag === PARAMS_TAG) return 0;
  if (tag === null) {
    const any = await db.selectFrom("dup_entry").select("work_id").limit(1).executeTakeFirst();
    if (any) await recordLayout(db);
    return 0;
  }
  const r = await sql`update dup_entry set status = 'pending' where status = 'indexed'`.execute(db);
  await recordLayout(db);
  return Number(r.numAffectedRows ?? 0);
}
