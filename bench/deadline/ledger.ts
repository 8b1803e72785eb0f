/**
 * What the server acknowledged to bench:deadline's people, for the integrity check: per
 * work and column the last acknowledged value (and any value sent later without an answer,
 * which the server may or may not have stored), every acknowledged upload with the sha256
 * the bench computed while generating it, acknowledged submits, and the state each work's
 * last acknowledged transition left it in.
 */
import type { WorkState } from "../../src/shared/work/states";

export interface AckedFile {
  workId: number;
  fileId: number;
  kind: string;
  size: number;
  sha256: string;
}

export class Ledger {
  /** work id → column → the values that may be stored: the last acknowledged, then unanswered later ones */
  fields = new Map<number, Map<string, (string | null)[]>>();
  files: AckedFile[] = [];
  submits = new Set<number>();
  /** work id → the state after the last acknowledged transition */
  states = new Map<number, WorkState>();
  /** works with a transition that got no clear answer: their exact state is not asserted */
  unsure = new Set<number>();

  /** A value sent for a column: `acked` when the server answered 2xx, false when it did not answer clearly. */
  field(workId: number, column: string, value: string | null, acked: boolean) {
    const cols = this.fields.get(workId) ?? new Map<string, (string | null)[]>();
    this.fields.set(workId, cols);
    if (acked) cols.set(column, [value]);
    else cols.set(column, [...(cols.get(column) ?? [null]), value]);
  }

  state(workId: number, to: WorkState, acked: boolean) {
    if (acked) this.states.set(workId, to);
    else this.unsure.add(workId);
  }
}
