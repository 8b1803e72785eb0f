/**
 * Who an invitation request names: pool persons (judge_person ids; a merged duplicate stands
 * for the record it was merged into) and new people by email and name (an email of a pool
 * person is that person). Each invitee gets the facts the conflict check needs (school,
 * province, account) and, when they would not be invited, why: no email, named twice,
 * already a judge of the contest, an open invitation, or an account that is not a judge's.
 */
import { invalid } from "../../shared/errors";
import { ROLE, ROLE_NAMES, type RoleCode } from "../../shared/roles";
import type { CheckBody } from "../../shared/judge-invite/schema";
import type { Handle } from "../work/repository";
import { beijingTime as bj } from "../../shared/time";
import { normEmail } from "../common/email";

export interface Invitee {
  key: string;
  personId: number | null;
  name: string;
  email: string | null;
  /** the account of the email (or linked to the pool record), if any */
  userId: number | null;
  userType: number | null;
  schoolId: number | null;
  schoolName: string | null;
  province: string | null;
  skip: string | null;
}

export async function resolveInvitees(
  db: Handle,
  contestId: number,
  body: Pick<CheckBody, "personIds" | "people">,
): Promise<Invitee[]> {
  const personIds = [...new Set(body.personIds ?? [])];
  const people = body.people ?? [];
  if (!personIds.length && !people.length) throw invalid("personIds", "请选择评委库中的人员，或填写新邀请人员的姓名和邮箱");

  const personCols = [
    "p.id",
    "p.name",
    "p.email",
    "p.user_id",
    "p.school_id",
    "p.school_name",
    "p.province",
    "p.merged_into",
    "s.name as s_name",
    "s.province as s_province",
  ] as const;
  const persons = (ids: number[]) =>
    ids.length
      ? db
          .selectFrom("judge_person as p")
          .leftJoin("school as s", "s.id", "p.school_id")
          .select(personCols)
          .where("p.id", "in", ids)
          .execute()
      : Promise.resolve([]);
  type PersonRow = Awaited<ReturnType<typeof persons>>[number];

  const chosen = await persons(personIds);
  for (const id of personIds) if (!chosen.some((p) => p.id === id)) throw invalid("personIds", `评委库中没有编号为 ${id} 的人员`);
  // A merged duplicate stands for the kept record (a few levels at most).
  const byId = new Map<number, PersonRow>(chosen.map((p) => [p.id, p]));
  for (let depth = 0; depth < 5; depth++) {
    const missing = [...byId.values()].map((p) => p.merged_into).filter((m): m is number => m !== null && !byId.has(m));
    if (!missing.length) break;
    for (const p of await persons(missing)) byId.set(p.id, p);
  }
  const kept = (p: PersonRow): PersonRow => {
    let cur = p;
    for (let i = 0; i < 5 && cur.merged_into !== null && byId.has(cur.merged_into); i++) cur = byId.get(cur.merged_into)!;
    return cur;
  };

  const emails = people.map((x) => normEmail(x.email));
  const byEmail = emails.length
    ? await db
        .selectFrom("judge_person as p")
        .leftJoin("school as s", "s.id", "p.school_id")
        .select(personCols)
        .where("p.email", "in", emails)
        .where("p.merged_into", "is", null)
        .orderBy("p.id")
        .execute()
    : [];

  const out: Invitee[] = [];
  const fromPerson = (p: PersonRow, key: string, name?: string): Invitee => ({
    key,
    personId: p.id,
    name: name ?? p.name,
    email: p.email ? normEmail(p.email) : null,
    userId: p.user_id,
    userType: null,
    schoolId: p.school_id,
    schoolName: p.s_name ?? p.school_name,
    province: p.s_province ?? p.province,
    skip: p.email ? null : "评委库中没有该人员的邮箱，请先补充邮箱",
  });
  for (const id of personIds) {
    const p = kept(byId.get(id)!);
    out.push(fromPerson(p, `p:${id}`));
  }
  people.forEach((x, i) => {
    const email = emails[i];
    const p = byEmail.find((r) => r.email && normEmail(r.email) === email);
    out.push(
      p
        ? { ...fromPerson(p, `e:${email}`, x.name.trim()), email }
        : {
            key: `e:${email}`,
            personId: null,
            name: x.name.trim(),
            email,
            userId: null,
            userType: null,
            schoolId: null,
            schoolName: null,
            province: null,
            skip: null,
          },
    );
  });

  await attachAccounts(db, out);
  await markSkipped(db, contestId, out);
  return out;
}

/** Accounts: of the email, or linked to the pool record; they fill in the school and province a record lacks. */
async function attachAccounts(db: Handle, out: Invitee[]) {
  const mails = [...new Set(out.map((o) => o.email).filter((e): e is string => !!e))];
  const linked = [...new Set(out.map((o) => o.userId).filter((u): u is number => u !== null))];
  const users =
    mails.length || linked.length
      ? await db
          .selectFrom("app_user as u")
          .leftJoin("school as s", "s.id", "u.school_id")
          .select(["u.id", "u.email", "u.user_type", "u.school_id", "s.name as s_name", "s.province as s_province"])
          .where((eb) =>
            eb.or([...(mails.length ? [eb("u.email", "in", mails)] : []), ...(linked.length ? [eb("u.id", "in", linked)] : [])]),
          )
          .execute()
      : [];
  for (const o of out) {
    const u = users.find(
      (x) =>
        (o.userId !== null && x.id === o.userId) || (o.userId === null && o.email && x.email && normEmail(x.email) === o.email),
    );
    if (!u) continue;
    o.userId = u.id;
    o.userType = u.user_type;
    if (o.schoolId === null && !o.schoolName) {
      o.schoolId = u.school_id;
      o.schoolName = u.s_name;
    }
    if (o.province === null) o.province = u.s_province;
  }
}

/** Why some would not be invited: named twice, already a judge of the contest, an account that is not a judge's, an open invitation. */
async function markSkipped(db: Handle, contestId: number, out: Invitee[]) {
  const mails = [...new Set(out.map((o) => o.email).filter((e): e is string => !!e))];
  const members = new Set(
    (
      await db
        .selectFrom("contest_member")
        .select("user_id")
        .where("contest_id", "=", contestId)
        .where("role", "=", "judge")
        .execute()
    ).map((m) => m.user_id),
  );
  const open = mails.length
    ? await db
        .selectFrom("judge_invitation")
        .select(["email", "answer_by"])
        .where("contest_id", "=", contestId)
        .where("status", "=", "sent")
        .where("answer_by", ">=", new Date().toISOString())
        .where("email", "in", mails)
        .execute()
    : [];
  const seen = new Set<string>();
  for (const o of out) {
    if (o.skip) continue;
    const id = o.email ?? o.key;
    if (seen.has(id)) o.skip = "重复：同一邮箱在本次邀请中已出现";
    else if (o.userId !== null && members.has(o.userId)) o.skip = "已是本赛事的评委";
    else if (o.userType !== null && o.userType !== ROLE.judge)
      o.skip = `该邮箱已注册为「${ROLE_NAMES[o.userType as RoleCode] ?? o.userType}」账号，评委须使用评委账号，请联系超级管理员`;
    else {
      const pending = open.find((x) => x.email === o.email);
      if (pending) o.skip = `已有待答复的邀请（答复截止 ${bj(pending.answer_by)}）`;
    }
    seen.add(id);
  }
}
