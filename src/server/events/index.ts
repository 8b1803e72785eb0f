/**
 * The domain events one domain announces and others follow, with their payloads, and the one
 * bus they travel on (./bus.ts; handlers are registered in src/server/effects.ts).
 */
import type { WorkState } from "../../shared/work/states";
import { EventBus } from "./bus";

export interface DomainEvents {
  /**
   * A contest's results changed in a way the world sees: published, withdrawn, or a published
   * result changed (a complaint's decision, an honour). Emitted inside that transaction.
   * `at`: the time to date what follows (the publication's), now when absent.
   */
  "results.changed": {
    contestId: number;
    userId: number | null;
    at?: Date;
    /** the works whose published result changed (a complaint's decision, an arbitration), when known */
    workIds?: number[];
  };
  /** A work took a lifecycle step (work/service/transition.ts), inside its transaction. */
  "work.transitioned": { workId: number; from: WorkState; to: WorkState; at: Date };
  /** The text of these works may have changed (submitted, resubmitted, edited, a document uploaded or removed). */
  "work.textChanged": { workIds: number[] };
}

export type { Handle } from "./bus";
export { EventBus } from "./bus";

/** The application's bus. */
export const events = new EventBus<DomainEvents>();

export const emit = <K extends keyof DomainEvents>(db: Parameters<typeof events.emit>[0], event: K, payload: DomainEvents[K]) =>
  events.emit(db, event, payload);

/** A transaction whose after-commit effects run once it committed (EventBus.transaction). */
export const transaction: EventBus<DomainEvents>["transaction"] = (db, fn) => events.transaction(db, fn);
