/**
 * Issuing certificates from a contest's results, idempotently: syncCertificates compares
 * what the contest's current result entitles while a publication is in force — one
 * certificate per author of every awarded work that is not disqualified; one per teacher
 * honour (优秀指导教师, contest_honour: the teacher, their school, the advised work unless it
 * was disqualified) and one per school honour (优秀组织奖: the school, no work) — with the
 * certificates on record, and
 * - issues a new number (version 1) to a holder without one;
 * - reissues (same number, version + 1, the previous version marked replaced) when a
 *   printed fact changed: the award, the holder's name, school, the work's title or category;
 * - revokes (never deletes) a valid certificate whose award is gone, with a reason category:
 *   disqualified, result_withdrawn (the publication withdrawn) or award_withdrawn;
 * - does nothing for a certificate whose facts are unchanged (re-running issues nothing new).
 * Called inside the transaction that changes the result: publishing and withdrawing
 * (publish.ts), every change of a published result (versions.ts changePublished, i.e. every
 * complaint effect) — both as followers of the "results.changed" event (src/server/effects.ts)
 * — a disqualification through the works transition (syncWorkCertificates, following
 * "work.transitioned"), a name corrected by the users admin or import (syncHolderCertificates), a renamed school
 * (syncSchoolCertificates) and every change of the honours (judging/service/results/honours.ts).
 * A certificate is one holder's under one key: an author's per (work, author), a teacher's per
 * (award level, teacher), a school's per (award level, school); a new honour of the same
 * holder and level (removed, then given again) reissues under the old number.
 */
import type { Selectable, Transaction } from "kysely";
import type { DB } from "../db/schema";
import { activePublication } from "../judging/service/results/change";
import { lockContest } from "../work/repository";
import { nextNumbers, numberPrefix } from "./numbering";
import { signFacts, signingKey, type SigningKey } from "./signing";

export type RevokeReason = "disqualified" | "award_withdrawn" | "result_withdrawn";
type HolderKind = DB["certificate"]["holder_kind"];

interface Entitled {
  holderKind: HolderKind;
  holderUserId: number | null;
  holderSchoolId: number | null;
  workId: number | null;
  awardLevelId: number;
  awardRank: number;
  holderName: string;
  schoolName: string;
  workTitle: string | null;
  categoryName: string | null;
  awardName: string;
}

const FACTS = ["holder_name", "school_name", "work_title", "category_name", "award_name"] as const;

/** The key a holder's certificate is kept under (see the header). */
const keyOf = (c: {
  holderKind: HolderKind;
  holderUserId: number | null;
  holderSchoolId: number | null;
  workId: number | null;
  awardLevelId: number | null;
}) =>
  c.holderKind === "author"
    ? `a:${c.workId}:${c.holderUserId}`
    : c.holderKind === "teacher"
      ? `t:${c.awardLevelId}:${c.holderUserId}`
      : `s:${c.awardLevelId}:${c.holderSchoolId}`;

export interface SyncOutcome {
  issued: number;
  reissued: number;
  revoked: number;
}

/** Teacher and school honours of the contest (contest_honour), in award and row order. */
async function honourEntitlements(trx: Transaction<DB>, contestId: number): Promise<Entitled[]> {
  const rows = await trx
    .selectFrom("contest_honour as h")
    .innerJoin("award_level as a", "a.id", "h.award_level_id")
    .innerJoin("school as s", "s.id", "h.school_id")
    .leftJoin("app_user as u", "u.id", "h.teacher_user_id")
    .leftJoin("work as w", "w.id", "h.work_id")
    .leftJoin("work_category as c", "c.id", "w.category_id")
    .select([
      "h.holder_kind",
      "h.teacher_user_id",
      "h.school_id",
      "h.work_id",
      "a.id as award_id",
      "a.sort",
      "a.name as award",
      "u.name as teacher",
      "s.name as school",
      "w.name as title",
      "w.status",
      "c.name as category",
    ])
    .where("h.contest_id", "=", contestId)
    .orderBy("a.sort")
    .orderBy("h.id")
    .execute();
  const out: Entitled[] = [];
  for (const r of rows) {
    const base = { awardLevelId: r.award_id, awardRank: Number(r.sort), awardName: r.award, schoolName: r.school };
    if (r.holder_kind === "school") {
      out.push({
        ...base,
        holderKind: "school",
        holderUserId: null,
        holderSchoolId: r.school_id,
        workId: null,
        holderName: r.school,
        workTitle: null,
        categoryName: null,
      });
    } else if (r.teacher_user_id !== null && r.status !== "disqualified") {
      // A teacher honour earned by a work since disqualified is not certified.
      const workId = r.work_id === null ? null : Number(r.work_id);
      out.push({
        ...base,
        holderKind: "teacher",
        holderUserId: r.teacher_user_id,
        holderSchoolId: null,
        workId,
        holderName: r.teacher ?? "",
        workTitle: workId === null ? null : (r.title ?? null),
        categoryName: workId === null ? null : (r.category ?? null),
      });
    }
  }
  return out;
}

/** One certificate per author of every awarded work that is not disqualified, in award, work and author order. */
async function authorEntitlements(trx: Transaction<DB>, contestId: number): Promise<Entitled[]> {
  const rows = await trx
    .selectFrom("contest_result as r")
    .innerJoin("work as w", "w.id", "r.work_id")
    .innerJoin("award_level as a", "a.id", "r.award_level_id")
    .innerJoin("work_author as wa", "wa.work_id", "w.id")
    .innerJoin("app_user as u", "u.id", "wa.user_id")
    .innerJoin("school as s", "s.id", "w.school_id")
    .innerJoin("work_category as c", "c.id", "w.category_id")
    .select([
      "wa.user_id",
      "w.id as work_id",
      "a.id as award_id",
      "a.sort",
      "u.name as holder",
      "s.name as school",
      "w.name as title",
      "c.name as category",
      "a.name as award",
    ])
    .where("r.contest_id", "=", contestId)
    .where("a.kind", "=", "work")
    .where("w.status", "!=", "disqualified")
    .orderBy("a.sort")
    .orderBy("w.id")
    .orderBy("wa.rank")
    .execute();
  return rows.map((r) => ({
    holderKind: "author",
    holderUserId: r.user_id,
    holderSchoolId: null,
    workId: Number(r.work_id),
    awardLevelId: r.award_id,
    awardRank: Number(r.sort),
    holderName: r.holder,
    schoolName: r.school,
    workTitle: r.title,
    categoryName: r.category,
    awardName: r.award,
  }));
}

type CertificateRow = Selectable<DB["certificate"]>;

/** The newest version of each holder key's certificate in the contest. */
async function latestByKey(trx: Transaction<DB>, contestId: number): Promise<Map<string, CertificateRow>> {
  const existing = await trx
    .selectFrom("certificate")
    .selectAll()
    .where("contest_id", "=", contestId)
    .orderBy("version", "desc")
    .execute();
  const latest = new Map<string, CertificateRow>();
  for (const c of existing) {
    const k = keyOf({
      holderKind: c.holder_kind,
      holderUserId: c.holder_user_id,
      holderSchoolId: c.holder_school_id,
      workId: c.work_id === null ? null : Number(c.work_id),
      awardLevelId: c.award_level_id,
    });
    if (!latest.has(k)) latest.set(k, c);
  }
  return latest;
}

/** Writes a signed certificate version for a holder: the contest's name and printed date, the time of issue. */
function certificateWriter(
  trx: Transaction<DB>,
  contest: { id: number; name: string },
  date: string,
  at: string,
): (number: string, version: number, e: Entitled) => Promise<void> {
  let key: SigningKey | null = null;
  return async (number, version, e) => {
    key ??= await signingKey(trx);
    const signature = signFacts(key, {
      number,
      version,
      holderName: e.holderName,
      awardName: e.awardName,
      workTitle: e.workTitle,
      contestName: contest.name,
      contestDate: date,
    });
    await trx
      .insertInto("certificate")
      .values({
        number,
        version,
        holder_kind: e.holderKind,
        holder_user_id: e.holderUserId,
        holder_school_id: e.holderSchoolId,
        contest_id: contest.id,
        work_id: e.workId,
        award_level_id: e.awardLevelId,
        holder_name: e.holderName,
        school_name: e.schoolName,
        work_title: e.workTitle,
        category_name: e.categoryName,
        award_name: e.awardName,
        contest_name: contest.name,
        contest_date: date,
        status: "valid",
        status_at: null,
        status_reason: null,
        signature,
        key_id: key.id,
        issued_at: at,
      })
      .execute();
  };
}

/** Whether a valid certificate already prints the holder's current facts (and names the same work). */
function unchanged(old: CertificateRow, e: Entitled): boolean {
  const facts = {
    holder_name: e.holderName,
    school_name: e.schoolName,
    work_title: e.workTitle,
    category_name: e.categoryName,
    award_name: e.awardName,
  };
  return (
    old.status === "valid" &&
    FACTS.every((f) => old[f] === facts[f]) &&
    (old.work_id === null ? null : Number(old.work_id)) === e.workId
  );
}

export async function syncCertificates(trx: Transaction<DB>, contestId: number, now = new Date()): Promise<SyncOutcome> {
  const out: SyncOutcome = { issued: 0, reissued: 0, revoked: 0 };
  // Two changes of one contest's results at once (e.g. two complaint decisions) sync one after the other.
  await lockContest(trx, contestId);
  const contest = await trx
    .selectFrom("contest")
    .select(["id", "name", "year", "code"])
    .where("id", "=", contestId)
    .executeTakeFirstOrThrow();
  const pub = await activePublication(trx, contestId);
  const entitled = pub ? [...(await authorEntitlements(trx, contestId)), ...(await honourEntitlements(trx, contestId))] : [];
  const latest = await latestByKey(trx, contestId);
  const at = now.toISOString();
  // The printed date is the day of publication in Beijing time (not the UTC date).
  const date = new Date(Date.parse(pub?.published_at ?? at) + 8 * 3600_000).toISOString().slice(0, 10);
  const sign = certificateWriter(trx, contest, date, at);
  // New holders: one counter increment per prefix, numbers in award, work and author order.
  const fresh = new Map<string, Entitled[]>();
  for (const e of entitled) {
    if (latest.has(keyOf(e))) continue;
    const prefix = numberPrefix(contest, e.awardRank);
    fresh.set(prefix, [...(fresh.get(prefix) ?? []), e]);
  }
  for (const [prefix, list] of fresh) {
    const numbers = await nextNumbers(trx, prefix, list.length);
    for (const [i, e] of list.entries()) await sign(numbers[i], 1, e);
    out.issued += list.length;
  }
  const seen = new Set<string>();
  for (const e of entitled) {
    const k = keyOf(e);
    seen.add(k);
    const old = latest.get(k);
    if (!old || unchanged(old, e)) continue;
    if (old.status === "valid")
      await trx.updateTable("certificate").set({ status: "replaced", status_at: at }).where("id", "=", old.id).execute();
    // A revoked certificate whose award came back is reissued too (the revoked version stays).
    await sign(old.number, Number(old.version) + 1, e);
    out.reissued++;
  }
  for (const [k, old] of latest) {
    if (seen.has(k) || old.status !== "valid") continue;
    const work = old.work_id
      ? await trx.selectFrom("work").select("status").where("id", "=", old.work_id).executeTakeFirst()
      : undefined;
    const reason: RevokeReason = !pub ? "result_withdrawn" : work?.status === "disqualified" ? "disqualified" : "award_withdrawn";
    await trx
      .updateTable("certificate")
      .set({ status: "revoked", status_at: at, status_reason: reason })
      .where("id", "=", old.id)
      .execute();
    out.revoked++;
  }
  return out;
}

/** After a work's status changed (a disqualification): syncs every contest that certified it. */
export async function syncWorkCertificates(trx: Transaction<DB>, workId: number, now = new Date()): Promise<void> {
  const contests = await trx.selectFrom("certificate").select("contest_id").distinct().where("work_id", "=", workId).execute();
  for (const c of contests) await syncCertificates(trx, c.contest_id, now);
}

/** After a holder's name was corrected: reissues the holder's (author's or teacher's) certificates in every contest. */
export async function syncHolderCertificates(trx: Transaction<DB>, userId: number, now = new Date()): Promise<void> {
  const contests = await trx
    .selectFrom("certificate")
    .select("contest_id")
    .distinct()
    .where("holder_user_id", "=", userId)
    .execute();
  for (const c of contests) await syncCertificates(trx, c.contest_id, now);
}

/**
 * After a school was renamed (its name as it was before: `formerName`): reissues the
 * certificates that print it — the school's own (优秀组织奖) and its authors' and teachers'.
 */
export async function syncSchoolCertificates(
  trx: Transaction<DB>,
  schoolId: number,
  formerName: string,
  now = new Date(),
): Promise<void> {
  const contests = await trx
    .selectFrom("certificate")
    .select("contest_id")
    .distinct()
    .where((eb) => eb.or([eb("holder_school_id", "=", schoolId), eb("school_name", "=", formerName)]))
    .where("status", "=", "valid")
    .execute();
  for (const c of contests) await syncCertificates(trx, c.contest_id, now);
}
