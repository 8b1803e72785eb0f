/**
 * The mechanism of cross-domain effects: a small typed event bus. A domain says what happened
 * (`emit`); the domains that follow it registered handlers (src/server/effects.ts), so the
 * emitter never imports them. Two kinds of handler:
 *
 * - in the transaction (`inTransaction`): run by `emit` at once, in registration order, with
 *   the emitter's transaction (emitting such an event outside one is an error) — for what must commit or roll back with the change (the
 *   certificates and national entries follow a result). A handler's error is the emitter's:
 *   it propagates and rolls the whole change back.
 * - after the commit (`afterCommit`): `emit` inside a transaction opened by `transaction`
 *   queues them; they run, in emit and registration order, once that transaction committed,
 *   and never after a rollback. `emit` outside a transaction (the change is already committed)
 *   runs them at once. For queued or background work (the duplicate check's indexing): the
 *   change stands whatever they do, so their errors go to `reportError` and no further.
 *
 * A bus that no wiring module registered (`wired` false) refuses to emit: an entry point that
 * forgot the wiring would otherwise silently skip effects such as issuing certificates.
 */
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../db/schema";

export type Handle = Kysely<DB> | Transaction<DB>;

/** Runs inside the emitter's transaction. */
export type TxHandler<P> = (trx: Transaction<DB>, payload: P) => Promise<void>;
/** Runs after the commit, with the database the transaction was opened on. */
export type CommitHandler<P> = (db: Kysely<DB>, payload: P) => Promise<void>;

interface Pending {
  run: () => Promise<void>;
}

export class EventBus<E extends { [K in keyof E]: object }> {
  private readonly tx = new Map<keyof E, TxHandler<never>[]>();
  private readonly committed = new Map<keyof E, CommitHandler<never>[]>();
  /** The after-commit queue of each transaction opened by `transaction`. */
  private readonly queues = new WeakMap<Handle, { db: Kysely<DB>; pending: Pending[] }>();
  /** Set by the wiring module once every handler is registered. */
  wired = false;
  /** Where an after-commit handler's error goes (the app sets its logger). */
  reportError: (event: string, err: unknown) => void = () => {};

  inTransaction<K extends keyof E>(event: K, handler: TxHandler<E[K]>): void {
    this.tx.set(event, [...(this.tx.get(event) ?? []), handler as TxHandler<never>]);
  }

  afterCommit<K extends keyof E>(event: K, handler: CommitHandler<E[K]>): void {
    this.committed.set(event, [...(this.committed.get(event) ?? []), handler as CommitHandler<never>]);
  }

  /**
   * Announces `event`: its in-transaction handlers run now with `db`; its after-commit handlers
   * are queued on `db`'s transaction (opened by `transaction`), or run now when `db` is not one.
   */
  async emit<K extends keyof E>(db: Handle, event: K, payload: E[K]): Promise<void> {
    if (!this.wired)
      throw new Error(`event ${String(event)}: no handlers wired (the entry point must load src/server/effects.ts)`);
    const now = (this.tx.get(event) ?? []) as TxHandler<E[K]>[];
    if (now.length && !db.isTransaction) throw new Error(`event ${String(event)}: its handlers run in the emitter's transaction`);
    for (const handler of now) await handler(db as Transaction<DB>, payload);
    const after = (this.committed.get(event) ?? []) as CommitHandler<E[K]>[];
    if (!after.length) return;
    if (!db.isTransaction) {
      for (const handler of after) await this.safely(String(event), () => handler(db, payload));
      return;
    }
    const queue = this.queues.get(db);
    if (!queue)
      throw new Error(
        `event ${String(event)}: emitted in a transaction not opened by transaction(), so nothing would run after its commit`,
      );
    for (const handler of after) queue.pending.push({ run: () => this.safely(String(event), () => handler(queue.db, payload)) });
  }

  /** Runs `fn` in one transaction; what it emitted for after the commit runs once it committed. */
  async transaction<T>(db: Kysely<DB>, fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    const pending: Pending[] = [];
    const result = await db.transaction().execute((trx) => {
      this.queues.set(trx, { db, pending });
      return fn(trx);
    });
    for (const p of pending) await p.run();
    return result;
  }

  private async safely(event: string, run: () => Promise<void>) {
    try {
      await run();
    } catch (err) {
      this.reportError(event, err);
    }
  }
}
