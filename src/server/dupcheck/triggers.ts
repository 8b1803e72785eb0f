/**
 * The works services tell the duplicate check that a work's text may have changed (submit,
 * resubmission, a document uploaded or deleted, an edit after submit, an admin's entry),
 * after their transaction committed. The app registers, per database handle, what to do
 * (indexing.ts: mark the work pending and queue its indexing); without a registration (a
 * script, a test without the app) nothing happens. A failure here never fails the request:
 * the periodic sweep indexes pending works later.
 */
import type { Db } from "../db";

type Listener = (workIds: number[]) => Promise<void>;
const listeners = new WeakMap<Db, Listener>();

export function onWorksChanged(db: Db, listener: Listener) {
  listeners.set(db, listener);
  return () => {
    if (listeners.get(db) === listener) listeners.delete(db);
  };
}

export async function worksChanged(db: Db, workIds: number[]): Promise<void> {
  const listener = listeners.get(db);
  if (!listener || !workIds.length) return;
  try {
    await listener(workIds);
  } catch {
    // The listener logs; the change itself is committed and stands.
  }
}
