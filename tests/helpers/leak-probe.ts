/**
 * Recognisable personal data for the leak walk (tests/api/leak-walk.test.ts): every e-mail and
 * phone the database holds about a person is replaced by a value naming its row
 * (`leak-app_user-000012@probe.test`, phone 1990000 + the id), and for each caller the rows whose
 * contacts it may see, written down from the scope rules the code states in its docblocks — not
 * from what the replies happen to contain:
 *
 * - everyone: the own account, the own pool record, the complaints one filed (and their evidence);
 * - root: everything;
 * - anyone related to a work (src/server/work/rules.ts: its authors and teachers, the school admin
 *   of its school, a contest admin whose contests hold or receive it, a reviewer of its receiving
 *   contest while it is in format review): its team's accounts and its team invitations;
 * - a school admin: the students and teachers of the own school (src/server/user/scope.ts);
 * - a contest admin: the judges and reviewers who are members of the own contests (user/scope.ts),
 *   the pool persons of judge-pool/scope.ts (judges of the own contests, accepted invitations by the
 *   admin or to those contests, persons the admin entered), the judging invitations of the own contests;
 * - complaint handlers: the filer of each complaint of the contests they handle (contest_member
 *   "complaint", with descendants); arbitrators, likewise for the contests they arbitrate (wider than
 *   the code, which shows only complaints sent to arbitration: a leak there is not reported);
 * - nobody else sees anybody's contacts: account tokens and visitor codes are never shown.
 */
import type { Db } from "../../src/server/db";
import type { User } from "../../src/server/db/schema";
import { ROLE } from "../../src/shared/roles";
import { FORMAT_REVIEW_STATES } from "../../src/shared/work/states";

export interface Probe {
  /** the recognisable value */
  value: string;
  /** also searched for: the e-mail's local part (a reply may show it without the domain) */
  alsoFind?: string;
  /** "<table>.<column>" */
  field: string;
  /** the row it belongs to: "<table>:<id>" */
  owner: string;
}

const pad = (id: number, n: number) => {
  const s = String(id).padStart(n, "0");
  if (s.length > n) throw new Error(`id ${id} too large for a probe value`);
  return s;
};
const email = (table: string, id: number) => `leak-${table}-${pad(id, 6)}@probe.test`;
const PHONE_PREFIX: Record<string, string> = { app_user: "1990000", judge_person: "1990001", complaint: "1990002" };
const phone = (table: string, id: number) => `${PHONE_PREFIX[table]}${pad(id, 4)}`;

/** Writes a recognisable e-mail and phone into every row that holds one; returns them all. */
export async function plantProbes(db: Db): Promise<Probe[]> {
  const probes: Probe[] = [];
  const add = (table: string, column: string, id: number, value: string) => {
    const at = value.indexOf("@");
    probes.push({
      value,
      alsoFind: at > 0 ? value.slice(0, at) : undefined,
      field: `${table}.${column}`,
      owner: `${table}:${id}`,
    });
  };
  for (const { id } of await db.selectFrom("app_user").select("id").execute()) {
    await db
      .updateTable("app_user")
      .set({ email: email("app_user", id), phone: phone("app_user", id) })
      .where("id", "=", id)
      .execute();
    add("app_user", "email", id, email("app_user", id));
    add("app_user", "phone", id, phone("app_user", id));
  }
  for (const { id } of await db.selectFrom("judge_person").select("id").execute()) {
    await db
      .updateTable("judge_person")
      .set({ email: email("judge_person", id), phone: phone("judge_person", id) })
      .where("id", "=", id)
      .execute();
    add("judge_person", "email", id, email("judge_person", id));
    add("judge_person", "phone", id, phone("judge_person", id));
  }
  for (const { id } of await db.selectFrom("complaint").select("id").execute()) {
    await db
      .updateTable("complaint")
      .set({ filer_email: email("complaint", id), filer_phone: phone("complaint", id) })
      .where("id", "=", id)
      .execute();
    add("complaint", "filer_email", id, email("complaint", id));
    add("complaint", "filer_phone", id, phone("complaint", id));
  }
  const emailOnly = [
    ["complaint_evidence", "owner_email"],
    ["judge_invitation", "email"],
    ["work_invitation", "email"],
    ["account_token", "email"],
    ["complaint_visitor_code", "email"],
    ["complaint_visitor_token", "email"],
  ] as const;
  for (const [table, column] of emailOnly) {
    for (const { id } of await db.selectFrom(table).select("id").execute()) {
      await db
        .updateTable(table)
        .set({ [column]: email(table, id) })
        .where("id", "=", id)
        .execute();
      add(table, column, id, email(table, id));
    }
  }
  return probes;
}

/** A contest and all its descendants. */
function withDescendants(contests: { id: number; parent_id: number | null }[], roots: number[]): Set<number> {
  const out = new Set(roots);
  for (let grew = true; grew;) {
    grew = false;
    for (const c of contests)
      if (c.parent_id !== null && out.has(c.parent_id) && !out.has(c.id)) {
        out.add(c.id);
        grew = true;
      }
  }
  return out;
}

/** The owners ("<table>:<id>") whose contacts `user` may see; "all" for root. null user: anonymous. */
export async function entitledOwners(db: Db, user: User | null): Promise<Set<string> | "all"> {
  const seen = new Set<string>();
  if (!user) return seen;
  if (user.user_type === ROLE.root) return "all";
  const contests = await db.selectFrom("contest").select(["id", "parent_id", "level"]).execute();
  const members = await db.selectFrom("contest_member").select(["contest_id", "user_id", "role"]).execute();
  const memberOf = (role: string) => members.filter((m) => m.user_id === user.id && m.role === role).map((m) => m.contest_id);
  const adminScope = user.user_type === ROLE.contestAdmin ? withDescendants(contests, memberOf("admin")) : new Set<number>();
  const reviewScope = user.user_type === ROLE.contestReviewer ? new Set(memberOf("reviewer")) : new Set<number>();
  const parentOf = new Map(contests.map((c) => [c.id, c]));
  const receiving = (contestId: number) => {
    const c = parentOf.get(contestId)!;
    return c.level === "school" && c.parent_id ? c.parent_id : c.id;
  };

  seen.add(`app_user:${user.id}`);
  const persons = await db.selectFrom("judge_person").select(["id", "user_id", "merged_into", "created_by"]).execute();
  for (const p of persons) if (p.user_id === user.id) seen.add(`judge_person:${p.id}`);

  // Works the user is related to, and their teams.
  const works = await db.selectFrom("work").select(["id", "contest_id", "school_id", "status"]).execute();
  const authors = await db.selectFrom("work_author").select(["work_id", "user_id"]).execute();
  const teachers = await db.selectFrom("work_teacher").select(["work_id", "user_id"]).execute();
  const team = new Map<number, number[]>();
  for (const m of [...authors, ...teachers]) team.set(m.work_id, [...(team.get(m.work_id) ?? []), m.user_id]);
  const related = new Set<number>();
  for (const w of works) {
    const r =
      (team.get(w.id) ?? []).includes(user.id) ||
      (user.user_type === ROLE.schoolAdmin && user.school_id === w.school_id) ||
      (user.user_type === ROLE.contestAdmin && (adminScope.has(w.contest_id) || adminScope.has(receiving(w.contest_id)))) ||
      (user.user_type === ROLE.contestReviewer &&
        FORMAT_REVIEW_STATES.includes(w.status) &&
        reviewScope.has(receiving(w.contest_id)));
    if (!r) continue;
    related.add(w.id);
    for (const uid of team.get(w.id) ?? []) seen.add(`app_user:${uid}`);
  }
  for (const i of await db.selectFrom("work_invitation").select(["id", "work_id"]).execute())
    if (related.has(i.work_id)) seen.add(`work_invitation:${i.id}`);

  // The users a school admin or contest admin manages.
  if (user.user_type === ROLE.schoolAdmin) {
    const own = await db
      .selectFrom("app_user")
      .select("id")
      .where("school_id", "=", user.school_id ?? -1)
      .where("user_type", "in", [ROLE.teacher, ROLE.author])
      .execute();
    for (const u of own) seen.add(`app_user:${u.id}`);
  }
  if (user.user_type === ROLE.contestAdmin) {
    const staff = members.filter((m) => adminScope.has(m.contest_id) && (m.role === "judge" || m.role === "reviewer"));
    const staffIds = new Set(staff.map((m) => m.user_id));
    const typed = staffIds.size
      ? await db
          .selectFrom("app_user")
          .select(["id", "user_type"])
          .where("id", "in", [...staffIds])
          .execute()
      : [];
    for (const u of typed) if (u.user_type === ROLE.judge || u.user_type === ROLE.contestReviewer) seen.add(`app_user:${u.id}`);
    // The pool persons of judge-pool/scope.ts.
    const judgeIds = new Set(members.filter((m) => m.role === "judge" && adminScope.has(m.contest_id)).map((m) => m.user_id));
    const invitations = await db
      .selectFrom("judge_invitation")
      .select(["id", "person_id", "contest_id", "status", "invited_by"])
      .execute();
    for (const p of persons) {
      const accounts = persons
        .filter((a) => (a.id === p.id || a.merged_into === p.id) && a.user_id !== null)
        .map((a) => a.user_id!);
      const accepted = invitations.some(
        (i) => i.person_id === p.id && i.status === "accepted" && (i.invited_by === user.id || adminScope.has(i.contest_id)),
      );
      if (p.created_by === user.id || accounts.some((a) => judgeIds.has(a)) || accepted) seen.add(`judge_person:${p.id}`);
    }
    for (const i of invitations)
      if (adminScope.has(i.contest_id) || i.invited_by === user.id) seen.add(`judge_invitation:${i.id}`);
  }

  // Complaints: the own, and those of the contests handled or arbitrated.
  const handled = withDescendants(contests, [...memberOf("complaint"), ...memberOf("arbitrator")]);
  const complaints = await db.selectFrom("complaint").select(["id", "contest_id", "filer_user_id"]).execute();
  const visible = new Set<number>();
  for (const c of complaints) {
    if (c.filer_user_id === user.id || handled.has(c.contest_id)) {
      visible.add(c.id);
      seen.add(`complaint:${c.id}`);
      if (c.filer_user_id !== null) seen.add(`app_user:${c.filer_user_id}`);
    }
  }
  for (const e of await db.selectFrom("complaint_evidence").select(["id", "complaint_id"]).execute())
    if (e.complaint_id !== null && visible.has(e.complaint_id)) seen.add(`complaint_evidence:${e.id}`);
  return seen;
}
