/**
 * The retention purge (个人信息保护法, issue 28): once root has set a period, the contact data of
 * contests that closed longer ago than it is removed; results, certificates, the score log and
 * the works stay as they are.
 *
 * - A contest is CLOSED when it has stages and the last of them ended (contest_stage.ends_at);
 *   it is EXPIRED when that end lies before the cutoff (now − period). A contest without stages
 *   never expires.
 * - A person counts for an expired contest through it (author or teacher of a work of it or
 *   entered into it, contest member, complaint filer, invited judge) and is left alone while
 *   any other contest (open, recent or without stages) still counts them.
 * - Users only of expired contests lose their phone; their e-mail too unless the account was
 *   active within the period (a log-in, user_activity; a live session; an API token used; an
 *   audit entry of theirs) — an active account keeps its e-mail for log-in and recovery.
 * - Complaints of expired contests that are no longer open lose the filer's e-mail and phone;
 *   their evidence rows are deleted, and each blob no other row names leaves the store
 *   (storage/references.ts, as jobs/cleanup.ts does); evidence never attached to a complaint
 *   and visitor codes and tokens older than the cutoff go too.
 * - Judge-pool persons only of expired contests, without an active account, lose e-mail and phone.
 *
 * Idempotent (only non-null values are cleared, counts are of rows changed), in batches of
 * BATCH statements outside any long transaction so SQLite's writer is held briefly.
 */
import type { Db } from "../db";
import type { BlobStore } from "../storage";
import { isBlobReferenced } from "../storage/references";
import type { RetentionReport } from "../../shared/retention/schema";

export const BATCH = 200;

const chunks = <T>(xs: T[], n = BATCH): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
};
const rows = (r: { numUpdatedRows?: bigint; numDeletedRows?: bigint }) => Number(r.numUpdatedRows ?? r.numDeletedRows ?? 0);
/** Let other requests in between batches. */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Contest ids split into expired (closed before the cutoff) and the rest. */
async function splitContests(db: Db, cutoff: string) {
  const all = await db.selectFrom("contest").select("id").execute();
  const ends = await db
    .selectFrom("contest_stage")
    .select(["contest_id", (eb) => eb.fn.max("ends_at").as("closed_at")])
    .groupBy("contest_id")
    .execute();
  const expired = new Set(ends.filter((e) => e.closed_at && String(e.closed_at) < cutoff).map((e) => Number(e.contest_id)));
  const kept = all.map((c) => c.id).filter((id) => !expired.has(id));
  return { expired: [...expired], kept };
}

/** The users a set of contests counts (authors, teachers, entered works' people, members, filers). */
async function usersOf(db: Db, contests: number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (const ids of chunks(contests)) {
    const works = () =>
      db
        .selectFrom("work")
        .select("work.id")
        .where("work.contest_id", "in", ids)
        .union(
          db.selectFrom("national_entry").select("national_entry.work_id as id").where("national_entry.contest_id", "in", ids),
        );
    const lists = await Promise.all([
      db.selectFrom("work_author").select("user_id").where("work_id", "in", works()).execute(),
      db.selectFrom("work_teacher").select("user_id").where("work_id", "in", works()).execute(),
      db.selectFrom("contest_member").select("user_id").where("contest_id", "in", ids).execute(),
      db
        .selectFrom("complaint")
        .select("filer_user_id as user_id")
        .where("contest_id", "in", ids)
        .where("filer_user_id", "is not", null)
        .execute(),
      db
        .selectFrom("judge_invitation")
        .select("accepted_user_id as user_id")
        .where("contest_id", "in", ids)
        .where("accepted_user_id", "is not", null)
        .execute(),
    ]);
    for (const list of lists) for (const r of list) if (r.user_id != null) out.add(Number(r.user_id));
  }
  return out;
}

/** Of these users, those whose account was active since the cutoff. */
async function activeUsers(db: Db, users: number[], cutoff: string): Promise<Set<number>> {
  const out = new Set<number>();
  for (const ids of chunks(users)) {
    const lists = await Promise.all([
      db.selectFrom("user_activity").select("user_id").where("user_id", "in", ids).where("last_login_at", ">=", cutoff).execute(),
      db.selectFrom("user_session").select("user_id").where("user_id", "in", ids).where("last_seen_at", ">=", cutoff).execute(),
      db.selectFrom("api_token").select("user_id").where("user_id", "in", ids).where("last_used_at", ">=", cutoff).execute(),
      db.selectFrom("audit_log").select("user_id").distinct().where("user_id", "in", ids).where("at", ">=", cutoff).execute(),
    ]);
    for (const list of lists) for (const r of list) if (r.user_id != null) out.add(Number(r.user_id));
  }
  return out;
}

async function purgeUsers(db: Db, only: number[], active: Set<number>, report: RetentionReport) {
  for (const ids of chunks(only)) {
    report.userPhones += rows(
      await db
        .updateTable("app_user")
        .set({ phone: null })
        .where("id", "in", ids)
        .where("phone", "is not", null)
        .executeTakeFirst(),
    );
    const quiet = ids.filter((id) => !active.has(id));
    if (quiet.length)
      report.userEmails += rows(
        await db
          .updateTable("app_user")
          .set({ email: null, email_verified: 0 })
          .where("id", "in", quiet)
          .where("email", "is not", null)
          .executeTakeFirst(),
      );
    await pause();
  }
}

async function purgeComplaints(db: Db, store: BlobStore, expired: number[], cutoff: string, report: RetentionReport) {
  const closed = expired.length
    ? (
        await db.selectFrom("complaint").select("id").where("contest_id", "in", expired).where("open_key", "is", null).execute()
      ).map((c) => c.id)
    : [];
  const shas = new Set<string>();
  for (const ids of chunks(closed)) {
    report.complaintContacts += rows(
      await db
        .updateTable("complaint")
        .set({ filer_email: null, filer_phone: null })
        .where("id", "in", ids)
        .where((eb) => eb.or([eb("filer_email", "is not", null), eb("filer_phone", "is not", null)]))
        .executeTakeFirst(),
    );
    const ev = await db.selectFrom("complaint_evidence").select("sha256").where("complaint_id", "in", ids).execute();
    for (const e of ev) shas.add(e.sha256);
    report.evidence += rows(await db.deleteFrom("complaint_evidence").where("complaint_id", "in", ids).executeTakeFirst());
    await pause();
  }
  // Uploads never attached to a complaint, and visitors' codes and tokens, older than the cutoff.
  const loose = await db
    .selectFrom("complaint_evidence")
    .select("sha256")
    .where("complaint_id", "is", null)
    .where("uploaded_at", "<", cutoff)
    .execute();
  for (const e of loose) shas.add(e.sha256);
  report.evidence += rows(
    await db
      .deleteFrom("complaint_evidence")
      .where("complaint_id", "is", null)
      .where("uploaded_at", "<", cutoff)
      .executeTakeFirst(),
  );
  report.visitorCodes += rows(await db.deleteFrom("complaint_visitor_code").where("created_at", "<", cutoff).executeTakeFirst());
  report.visitorCodes += rows(await db.deleteFrom("complaint_visitor_token").where("created_at", "<", cutoff).executeTakeFirst());
  for (const sha of shas) {
    if (await isBlobReferenced(db, sha)) continue;
    await store.delete(sha);
    report.blobs++;
  }
}

/** Judge-pool persons counted only by expired contests, without an active account. */
async function purgeJudgePersons(
  db: Db,
  expired: number[],
  kept: number[],
  keptUsers: Set<number>,
  cutoff: string,
  report: RetentionReport,
) {
  const invitedTo = async (contests: number[]) => {
    const out = new Set<number>();
    for (const ids of chunks(contests)) {
      const r = await db
        .selectFrom("judge_invitation")
        .select("person_id")
        .where("contest_id", "in", ids)
        .where("person_id", "is not", null)
        .execute();
      for (const x of r) out.add(Number(x.person_id));
    }
    return out;
  };
  const oldPeople = await invitedTo(expired);
  const keptPeople = await invitedTo(kept);
  const expiredUsers = await usersOf(db, expired);
  const persons = await db
    .selectFrom("judge_person")
    .select(["id", "user_id"])
    .where((eb) => eb.or([eb("email", "is not", null), eb("phone", "is not", null)]))
    .execute();
  const candidates = persons.filter(
    (p) =>
      !keptPeople.has(p.id) &&
      (oldPeople.has(p.id) || (p.user_id != null && expiredUsers.has(p.user_id))) &&
      (p.user_id == null || !keptUsers.has(p.user_id)),
  );
  const withUser = candidates.map((p) => p.user_id).filter((u): u is number => u != null);
  const active = await activeUsers(db, withUser, cutoff);
  const ids = candidates.filter((p) => p.user_id == null || !active.has(p.user_id)).map((p) => p.id);
  for (const batch of chunks(ids)) {
    report.judgePersons += rows(
      await db.updateTable("judge_person").set({ email: null, phone: null }).where("id", "in", batch).executeTakeFirst(),
    );
    await pause();
  }
}

/** One purge run with this period; the counts of what it changed. */
export async function purgeExpired(deps: { db: Db; store: BlobStore }, days: number, now = new Date()): Promise<RetentionReport> {
  const { db, store } = deps;
  const cutoff = new Date(now.getTime() - days * 86400_000).toISOString();
  const report: RetentionReport = {
    cutoff,
    contests: 0,
    userPhones: 0,
    userEmails: 0,
    complaintContacts: 0,
    evidence: 0,
    blobs: 0,
    visitorCodes: 0,
    judgePersons: 0,
  };
  const { expired, kept } = await splitContests(db, cutoff);
  report.contests = expired.length;
  const keptUsers = await usersOf(db, kept);
  if (expired.length) {
    const only = [...(await usersOf(db, expired))].filter((u) => !keptUsers.has(u));
    const active = await activeUsers(db, only, cutoff);
    await purgeUsers(db, only, active, report);
    await purgeComplaints(db, store, expired, cutoff, report);
    await purgeJudgePersons(db, expired, kept, keptUsers, cutoff, report);
  } else {
    await purgeComplaints(db, store, [], cutoff, report);
  }
  return report;
}

/** For tests and the report: the contests the period makes expired now. */
export const expiredContests = async (db: Db, days: number, now = new Date()) =>
  (await splitContests(db, new Date(now.getTime() - days * 86400_000).toISOString())).expired;
