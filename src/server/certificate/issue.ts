/**
 * Issuing certificates from a contest's results, idempotently: syncCertificates compares
 * what the contest's current result entitles (one certificate per author of every awarded
 * work, while a publication is in force and the work is not disqualified) with the
 * certificates on record, and
 * - issues a new number (version 1) to a holder without one;
 * - reissues (same number, version + 1, the previous version marked replaced) when a
 *   printed fact changed: the award, the holder's name, school, the work's title or category;
 * - revokes (never deletes) a valid certificate whose award is gone, with a reason category:
 *   disqualified, result_withdrawn (the publication withdrawn) or award_withdrawn;
 * - does nothing for a certificate whose facts are unchanged (re-running issues nothing new).
 * Called inside the transaction that changes the result: publishing and withdrawing
 * (publish.ts), every change of a published result (versions.ts changePublished, i.e. every
 * complaint effect), a disqualification through the works transition (syncWorkCertificates)
 * and a name corrected by the users admin or import (syncHolderCertificates).
 * TODO: 优秀指导教师 (teacher) and 优秀组织奖 (school) certificates: those award levels exist
 * but no result assigns them to a teacher or school yet.
 */
import type { Transaction } from "kysely";
import type { DB } from "../db/schema";
import { activePublication } from "../judging/service/results/change";
import { lockContest } from "../work/repository";
import { nextNumbers, numberPrefix } from "./numbering";
import { signFacts, signingKey, type SigningKey } from "./signing";

export type RevokeReason = "disqualified" | "award_withdrawn" | "result_withdrawn";

interface Entitled {
  holderUserId: number;
  workId: number;
  awardLevelId: number;
  awardRank: number;
  holderName: string;
  schoolName: string;
  workTitle: string;
  categoryName: string;
  awardName: string;
}

const FACTS = ["holder_name", "school_name", "work_title", "category_name", "award_name"] as const;

export interface SyncOutcome {
  issued: number;
  reissued: number;
  revoked: number;
}

export async function syncCertificates(trx: Transaction<DB>, contestId: number, now = new Date()): Promise<SyncOutcome> {
  const out: SyncOutcome = { issued: 0, reissued: 0, revoked: 0 };
  // Two changes of one contest's results at once (e.g. two complaint decisions) sync one after the other.
  await lockContest(trx, contestId);
  const contest = await trx.selectFrom("contest").select(["id", "name", "year", "code"]).where("id", "=", contestId).executeTakeFirstOrThrow();
  const pub = await activePublication(trx, contestId);
  const entitled: Entitled[] = [];
  if (pub) {
    const rows = await trx
      .selectFrom("contest_result as r")
      .innerJoin("work as w", "w.id", "r.work_id")
      .innerJoin("award_level as a", "a.id", "r.award_level_id")
      .innerJoin("work_author as wa", "wa.work_id", "w.id")
      .innerJoin("app_user as u", "u.id", "wa.user_id")
      .innerJoin("school as s", "s.id", "w.school_id")
      .innerJoin("work_category as c", "c.id", "w.category_id")
      .select(["wa.user_id", "w.id as work_id", "a.id as award_id", "a.sort", "u.name as holder", "s.name as school", "w.name as title", "c.name as category", "a.name as award"])
      .where("r.contest_id", "=", contestId)
      .where("a.kind", "=", "work")
      .where("w.status", "!=", "disqualified")
      .orderBy("a.sort")
      .orderBy("w.id")
      .orderBy("wa.rank")
      .execute();
    for (const r of rows) {
      entitled.push({ holderUserId: r.user_id, workId: Number(r.work_id), awardLevelId: r.award_id, awardRank: Number(r.sort), holderName: r.holder, schoolName: r.school, workTitle: r.title, categoryName: r.category, awardName: r.award });
    }
  }
  const existing = await trx.selectFrom("certificate").selectAll().where("contest_id", "=", contestId).where("holder_kind", "=", "author").orderBy("version", "desc").execute();
  // The newest version per (work, holder).
  const latest = new Map<string, (typeof existing)[number]>();
  for (const c of existing) {
    const k = `${c.work_id}:${c.holder_user_id}`;
    if (!latest.has(k)) latest.set(k, c);
  }
  const at = now.toISOString();
  const date = (pub?.published_at ?? at).slice(0, 10);
  let key: SigningKey | null = null;
  const sign = async (number: string, version: number, e: Entitled) => {
    key ??= await signingKey(trx);
    const signature = signFacts(key, { number, version, holderName: e.holderName, awardName: e.awardName, workId: e.workId, workTitle: e.workTitle, contestName: contest.name, contestDate: date });
    await trx
      .insertInto("certificate")
      .values({
        number, version, holder_kind: "author", holder_user_id: e.holderUserId, holder_school_id: null, contest_id: contestId, work_id: e.workId, award_level_id: e.awardLevelId,
        holder_name: e.holderName, school_name: e.schoolName, work_title: e.workTitle, category_name: e.categoryName, award_name: e.awardName, contest_name: contest.name, contest_date: date,
        status: "valid", status_at: null, status_reason: null, signature, key_id: key.id, issued_at: at,
      })
      .execute();
  };
  // New holders: one counter increment per prefix, numbers in award, work and author order.
  const fresh = new Map<string, Entitled[]>();
  for (const e of entitled) {
    if (latest.has(`${e.workId}:${e.holderUserId}`)) continue;
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
    const k = `${e.workId}:${e.holderUserId}`;
    seen.add(k);
    const old = latest.get(k);
    if (!old) continue;
    const facts = { holder_name: e.holderName, school_name: e.schoolName, work_title: e.workTitle, category_name: e.categoryName, award_name: e.awardName };
    if (old.status === "valid" && FACTS.every((f) => old[f] === facts[f])) continue;
    if (old.status === "valid") await trx.updateTable("certificate").set({ status: "replaced", status_at: at }).where("id", "=", old.id).execute();
    // A revoked certificate whose award came back is reissued too (the revoked version stays).
    await sign(old.number, Number(old.version) + 1, e);
    out.reissued++;
  }
  for (const [k, old] of latest) {
    if (seen.has(k) || old.status !== "valid") continue;
    const work = old.work_id ? await trx.selectFrom("work").select("status").where("id", "=", old.work_id).executeTakeFirst() : undefined;
    const reason: RevokeReason = !pub ? "result_withdrawn" : work?.status === "disqualified" ? "disqualified" : "award_withdrawn";
    await trx.updateTable("certificate").set({ status: "revoked", status_at: at, status_reason: reason }).where("id", "=", old.id).execute();
    out.revoked++;
  }
  return out;
}

/** After a work's status changed (a disqualification): syncs every contest that certified it. */
export async function syncWorkCertificates(trx: Transaction<DB>, workId: number, now = new Date()): Promise<void> {
  const contests = await trx.selectFrom("certificate").select("contest_id").distinct().where("work_id", "=", workId).execute();
  for (const c of contests) await syncCertificates(trx, c.contest_id, now);
}

/** After a holder's name was corrected: reissues the holder's certificates in every contest. */
export async function syncHolderCertificates(trx: Transaction<DB>, userId: number, now = new Date()): Promise<void> {
  const contests = await trx.selectFrom("certificate").select("contest_id").distinct().where("holder_user_id", "=", userId).execute();
  for (const c of contests) await syncCertificates(trx, c.contest_id, now);
}
