/** The append-only change log of master data: who, when, what changed — and with which API token. */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Db } from "../db";
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../db/schema";

type Handle = Db | Transaction<DB> | Kysely<DB>;

/** field → [old, new] for the fields that differ. */
export function diff(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): Record<string, [unknown, unknown]> {
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

/**
 * The API token a request runs with (token/routes.ts sets it around the handler): every
 * audit row written while handling it carries the token's name, whichever module writes it.
 */
export interface AuditScope {
  tokenName: string;
  /** rows written so far */
  rows: number;
}
export const auditScope = new AsyncLocalStorage<AuditScope>();

export async function record(db: Handle, userId: number | null, entries: AuditEntry | AuditEntry[]) {
  const list = (Array.isArray(entries) ? entries : [entries]).filter(
    (e) => Object.keys(e.changes).length || e.action !== "update",
  );
  if (!list.length) return;
  const at = new Date().toISOString();
  const scope = auditScope.getStore();
  const token_name = scope?.tokenName ?? null;
  if (scope) scope.rows += list.length;
  for (let i = 0; i < list.length; i += 500) {
    await db
      .insertInto("audit_log")
      .values(
        list.slice(i, i + 500).map((e) => ({
          at,
          user_id: userId,
          entity: e.entity,
          entity_id: String(e.entityId),
          action: e.action,
          changes: JSON.stringify(e.changes),
          token_name,
        })),
      )
      .execute();
  }
}
