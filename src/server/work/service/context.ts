/**
 * What every works use case shares: the caller's context, one transaction per use case,
 * loading a work the caller may see (404 otherwise), the optimistic version check.
 */
import type { Transaction } from "kysely";
import { conflict, notFound } from "../../../shared/errors";
import type { Db } from "../../db";
import type { DB, User } from "../../db/schema";
import { adminContestIds, reviewerContestIds } from "../../scope";
import { transaction } from "../../events";
import * as repo from "../repository";
import { mayView, relationsOf, type Facts, type Relation } from "../rules";

export interface WorkCtx {
  db: Db;
  user: User;
}
/** A use case's context inside its transaction: every query goes through db. */
export interface TxCtx {
  db: Transaction<DB>;
  user: User;
  now: Date;
}

export const inTransaction = <T>(ctx: WorkCtx, fn: (t: TxCtx) => Promise<T>): Promise<T> =>
  transaction(ctx.db, (trx) => fn({ db: trx, user: ctx.user, now: new Date() }));

export interface Loaded extends Facts {
  relations: Set<Relation>;
  /** set when loaded for the national contest's format review: `work` is then the entry's view (repo.asNationalEntry) */
  entry?: repo.NationalEntryRow;
  /** the me row when the caller is an author */
  me?: repo.AuthorRow;
}

export const NOT_VISIBLE = "作品不存在或您无权查看";
/**
 * Who sees a promoted work as its national entry: the national format review's reviewers, the
 * national contest's admins, root, and the team (the first author fixes and resubmits a
 * returned entry, a teacher writes 指导老师自评 for it).
 */
const FORMAT_ACTORS: Relation[] = ["reviewer", "receiving_contest", "root", "first_author", "author", "teacher"];

/**
 * The work for a format review step: a work entered in a national contest (an entered
 * national_entry) is reviewed there, as the entry's view (repo.asNationalEntry); otherwise the work.
 */
export async function findForFormat(
  db: repo.Handle,
  id: number,
): Promise<{ work: repo.WorkRow; entry?: repo.NationalEntryRow } | undefined> {
  const work = await repo.findWork(db, id);
  if (!work) return undefined;
  const entry = await repo.findNationalEntry(db, id);
  return entry ? { work: repo.asNationalEntry(work, entry), entry } : { work };
}

/**
 * The work with its team and what the caller is to it; 404 when the caller is nothing to it.
 * `format`: loaded for a format review step (findForFormat): relations are then to the
 * national contest for a promoted work.
 */
export async function loadVisible(
  t: { db: repo.Handle; user: User },
  id: number,
  opts: { format?: boolean } = {},
): Promise<Loaded> {
  const found: { work?: repo.WorkRow; entry?: repo.NationalEntryRow } | undefined = opts.format
    ? await findForFormat(t.db, id)
    : { work: await repo.findWork(t.db, id) };
  const work = found?.work;
  if (!work) throw notFound(NOT_VISIBLE);
  // One after the other: inside a transaction the embedded SQLite has one connection.
  const authors = await repo.authorsOf(t.db, id);
  const teachers = await repo.teachersOf(t.db, id);
  const scope = await adminContestIds(t.db, t.user);
  const reviews = await reviewerContestIds(t.db, t.user);
  const relations = relationsOf(t.user, { work, authors, teachers }, scope, reviews);
  // A promoted work's format review is the national contest's — for those who act in it; anyone
  // else (the provincial reviewers and admins) still sees the provincial record.
  if (found.entry && !FORMAT_ACTORS.some((r) => relations.has(r))) return loadVisible(t, id);
  if (!mayView(relations)) throw notFound(NOT_VISIBLE);
  return { work, authors, teachers, relations, me: authors.find((a) => a.user_id === t.user.id), entry: found.entry };
}

export const staleVersion = (current: number, given: number) =>
  conflict(`作品已被他人修改（当前版本 ${current}，您提交的是版本 ${given}），请刷新后重新修改；本次修改未保存`);

/** A stale version refuses the change before anything is written. */
export function checkVersion(work: { version: number }, given: number | undefined) {
  if (given !== undefined && given !== work.version) throw staleVersion(work.version, given);
}

/** Writes a change at the loaded version; someone else's change in between refuses it. */
export async function writeAt(t: TxCtx, work: { id: number; version: number }, set: Parameters<typeof repo.updateWorkAt>[3]) {
  if (!(await repo.updateWorkAt(t.db, work.id, work.version, set))) {
    const now = await repo.findWork(t.db, work.id);
    throw staleVersion(now?.version ?? work.version + 1, work.version);
  }
}
