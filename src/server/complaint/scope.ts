/**
 * Who is what to a complaint. Handlers (complaint reviewers, complaint admins and anyone with
 * the complaint right) see the complaints of the contests they handle — contest_member
 * "complaint" of the contest or of an ancestor; root sees all. Arbitrators see complaints sent
 * to arbitration in the contests they arbitrate (contest_member "arbitrator", likewise),
 * except one they gave the opinion on or decided, and one about a work they have a conflict
 * with (the judging rules of conflict.ts: own school, a work they advise or author). The
 * filer and the work's authors and teachers ("party") see the filer's view, without the
 * filer's identity for the party. Everyone else: 404.
 */
import { sql, type Kysely, type Transaction } from "kysely";
import type { ComplaintActor, ComplaintState } from "../../shared/complaint/states";
import { notFound } from "../../shared/errors";
import { ROLE } from "../../shared/roles";
import type { DB, User } from "../db/schema";
import { conflictsFor } from "../judging/conflict";

export type Handle = Kysely<DB> | Transaction<DB>;
export type ComplaintRow = Awaited<ReturnType<typeof findComplaint>> & {};

export const NOT_FOUND = "申诉不存在或您无权查看";

export const findComplaint = (db: Handle, id: number) =>
  db.selectFrom("complaint").selectAll().where("id", "=", id).executeTakeFirst();

/** The caller: a logged-in user, or a visitor with a verified email (the token's). */
export interface Caller {
  user: User | null;
  visitorEmail?: string | null;
}

/** Contests a user is a member of in this role, and all their descendants. */
export async function memberContestIds(db: Handle, userId: number, role: "complaint" | "arbitrator"): Promise<number[]> {
  const r = await sql<{ id: number }>`
    with recursive handled(id) as (
      select contest_id from contest_member where user_id = ${userId} and role = ${role}
      union
      select contest.id from contest inner join handled on contest.parent_id = handled.id
    )
    select id from handled`.execute(db);
  return r.rows.map((x) => Number(x.id));
}

export const isRoot = (u: User | null) => u?.user_type === ROLE.root;
export const hasRight = (u: User | null) => !!u && (u.user_type === ROLE.root || !!u.has_complaint_right);

/** The contests whose complaints the user handles: "all" for root. */
export async function handledContests(db: Handle, u: User): Promise<number[] | "all"> {
  if (isRoot(u)) return "all";
  if (!u.has_complaint_right) return [];
  return memberContestIds(db, u.id, "complaint");
}

export const ARBITRATION_STATES: readonly ComplaintState[] = ["arbitration_requested", "arbitrated", "closed"];

/** Why an arbitrator may not handle this complaint (null: may). */
export async function arbitratorRefusal(db: Handle, u: User, c: ComplaintRow): Promise<string | null> {
  if (c.opinion_by === u.id || c.decision_by === u.id) return "您参与了该申诉的审核或决定，须回避";
  const work = await db
    .selectFrom("work")
    .innerJoin("school", "school.id", "work.school_id")
    .select(["work.id", "work.school_id", "school.province"])
    .where("work.id", "=", c.work_id)
    .executeTakeFirstOrThrow();
  const advisors = (await db.selectFrom("work_teacher").select("user_id").where("work_id", "=", c.work_id).execute()).map(
    (r) => r.user_id,
  );
  const authors = (await db.selectFrom("work_author").select("user_id").where("work_id", "=", c.work_id).execute()).map(
    (r) => r.user_id,
  );
  const school = u.school_id
    ? await db.selectFrom("school").select("province").where("id", "=", u.school_id).executeTakeFirst()
    : undefined;
  const reasons = conflictsFor(
    { id: u.id, schoolId: u.school_id ?? null, province: school?.province ?? null },
    { id: Number(work.id), schoolId: work.school_id, province: work.province, advisorIds: advisors, authorIds: authors },
    { avoidProvince: false },
  );
  return reasons.length ? "该作品与您存在回避关系（同校或指导、参与的作品），须回避" : null;
}

/** Whether the arbitrator sees this complaint (state, contest, conflicts). */
export async function arbitratorSees(db: Handle, u: User, c: ComplaintRow): Promise<boolean> {
  if (u.user_type !== ROLE.arbitrator) return false;
  if (!ARBITRATION_STATES.includes(c.state as ComplaintState) || !c.arb_requested_at) return false;
  if (!(await memberContestIds(db, u.id, "arbitrator")).includes(c.contest_id)) return false;
  if (c.arbitrator_id !== null && c.arbitrator_id !== u.id) return false;
  return (await arbitratorRefusal(db, u, c)) === null;
}

/** Whether the user is an author or advising teacher of the work. */
export async function isParty(db: Handle, userId: number, workId: number): Promise<boolean> {
  const a = await db
    .selectFrom("work_author")
    .select("id")
    .where("work_id", "=", workId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (a) return true;
  return !!(await db
    .selectFrom("work_teacher")
    .select("id")
    .where("work_id", "=", workId)
    .where("user_id", "=", userId)
    .executeTakeFirst());
}

export const isFiler = (caller: Caller, c: ComplaintRow) =>
  caller.user
    ? c.filer_user_id === caller.user.id
    : !!caller.visitorEmail && c.filer_user_id === null && c.filer_email === caller.visitorEmail;

/** Everything the caller is to the complaint (empty: nothing, 404). */
export async function actorsOf(db: Handle, caller: Caller, c: ComplaintRow): Promise<Set<ComplaintActor>> {
  const out = new Set<ComplaintActor>();
  const u = caller.user;
  if (isFiler(caller, c)) out.add("filer").add("party");
  if (u && !out.has("party") && (await isParty(db, u.id, c.work_id))) out.add("party");
  if (!u) return out;
  if (isRoot(u)) out.add("root");
  else if (u.has_complaint_right && (u.user_type === ROLE.complaintReviewer || u.user_type === ROLE.complaintAdmin)) {
    const ids = await handledContests(db, u);
    if (ids === "all" || ids.includes(c.contest_id)) out.add(u.user_type === ROLE.complaintReviewer ? "reviewer" : "admin");
  }
  if (await arbitratorSees(db, u, c)) out.add("arbitrator");
  return out;
}

/** Handlers' view: root, handlers of the contest (any role with the right), the arbitrator. */
export async function mayHandleView(db: Handle, u: User, c: ComplaintRow, actors: Set<ComplaintActor>): Promise<boolean> {
  if (actors.has("root") || actors.has("reviewer") || actors.has("admin") || actors.has("arbitrator")) return true;
  if (!u.has_complaint_right) return false;
  const ids = await handledContests(db, u);
  return ids === "all" || ids.includes(c.contest_id);
}

export async function loadComplaint(db: Handle, id: number) {
  const c = await findComplaint(db, id);
  if (!c) throw notFound(NOT_FOUND);
  return c;
}
