/** The append-only change log of master data: who, when, what changed. */
import type { Db } from "../db";
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../db/schema";

type Handle = Db | Transaction<DB> | Kysely<DB>;

/** field → [old, new] for the fields that differ. */
export function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const k of keys) {
    const a = before?.[k] ?? null;
    const b = after?.[k] ?? null;
    if (JSON.stringify(a) !== JSON.stringify(b)) out[k] = [a, b];
  }
  return out;
}

export interface AuditEntry {
  entity: string;
  entityId: string | number;
  action: string;
  changes: Record<string, [unknown, unknown]>;
}

export async function record(db: Handle, userId: number | null, entries: AuditEntry | AuditEntry[]) {
  const list = (Array.isArray(entries) ? entries : [entries]).filter((e) => Object.keys(e.changes).length || e.action !== "update");
  if (!list.length) return;
  const at = new Date().toISOString();
  for (let i = 0; i < list.length; i += 500) {
    await db
      .insertInto("audit_log")
      .values(list.slice(i, i + 500).map((e) => ({ at, user_id: userId, entity: e.entity, entity_id: String(e.entityId), action: e.action, changes: JSON.stringify(e.changes) })))
      .execute();
  }
}
