/**
 * The contest admin's side of a defence session: the group's candidate works and its
 * session, arranging it (time, place or meeting link, what to prepare, minutes per work,
 * which works defend; each work gets a slot with an unguessable code), changing the
 * arrangement (a different set of works clears the draw; refused once scoring has started
 * or after the sign-off) and reopening a signed-off session with a reason.
 */
import { conflict, invalid } from "../../../../shared/errors";
import type { AdminGroupDefence, AdminSession, SessionInput } from "../../../../shared/judging/defence-schema";
import type { Db } from "../../../db";
import type { User } from "../../../db/schema";
import { record } from "../../../common/audit";
import type { Handle } from "../../../work/repository";
import { managedGroup } from "../groups";
import { newCode } from "./codes";
import { applyOrder, scoreCount } from "./draw";
import { findSession, lockSession, managedSession, sessionQuery, SIGNED_ADMIN } from "./rows";
import { adminSessionView } from "./views";

/** The group's works (candidates) and its session, for the contest admin. */
export async function adminGroupDefence(db: Db, user: User, groupId: number): Promise<AdminGroupDefence> {
  const { g } = await managedGroup(db, user, groupId);
  const s = await sessionQuery(db).where("s.group_id", "=", g.id).executeTakeFirst();
  const inSession = new Set(
    s
      ? (await db.selectFrom("defence_slot").select("work_id").where("session_id", "=", s.id).execute()).map((r) =>
          Number(r.work_id),
        )
      : [],
  );
  const works = await db
    .selectFrom("judge_group_work as gw")
    .innerJoin("work", "work.id", "gw.work_id")
    .innerJoin("school", "school.id", "work.school_id")
    .select(["work.id", "work.name", "school.name as school_name"])
    .where("gw.group_id", "=", g.id)
    .orderBy("work.id")
    .execute();
  const judges = await db
    .selectFrom("judge_group_member as m")
    .innerJoin("app_user as u", "u.id", "m.user_id")
    .select(["u.id", "u.name"])
    .where("m.group_id", "=", g.id)
    .orderBy("u.name")
    .execute();
  const leader =
    g.leader_id !== null
      ? await db.selectFrom("app_user").select(["id", "name"]).where("id", "=", g.leader_id).executeTakeFirst()
      : undefined;
  return {
    group: {
      id: g.id,
      name: g.name,
      contestId: g.contest_id,
      leader: leader ? { id: leader.id, name: leader.name } : null,
      judges,
    },
    works: works.map((w) => ({ id: Number(w.id), name: w.name, school: w.school_name, inSession: inSession.has(Number(w.id)) })),
    session: s ? await adminSessionView(db, s) : null,
  };
}

/** The start as ISO 8601; null to clear; undefined when not given. */
function checkStart(v: string | null | undefined): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null || !v.trim()) return null;
  const t = Date.parse(v);
  if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}T/.test(v.trim()))
    throw invalid("startsAt", "答辩开始时间格式不正确，请选择日期和时间");
  return new Date(t).toISOString();
}

const clean = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : v.trim() || null);

/** The works of the defence: the given ones, which must be the group's, or all of the group's. */
async function pickWorks(db: Handle, groupId: number, groupName: string, workIds: number[] | undefined): Promise<number[]> {
  const own = (await db.selectFrom("judge_group_work").select("work_id").where("group_id", "=", groupId).execute()).map((r) =>
    Number(r.work_id),
  );
  if (!own.length) throw invalid("workIds", `评审组「${groupName}」还没有作品，请先把作品分入评审组`);
  if (workIds === undefined) return own.sort((a, b) => a - b);
  const set = new Set(own);
  const foreign = [...new Set(workIds)].filter((id) => !set.has(id));
  if (foreign.length)
    throw invalid(
      "workIds",
      `作品 ${foreign.slice(0, 5).join("、")}${foreign.length > 5 ? " 等" : ""} 不在评审组「${groupName}」中`,
    );
  return [...new Set(workIds)].sort((a, b) => a - b);
}

export async function createSession(db: Db, user: User, groupId: number, input: SessionInput): Promise<AdminSession> {
  const id = await db.transaction().execute(async (trx) => {
    const { g, c } = await managedGroup(trx, user, groupId);
    if (await trx.selectFrom("defence_session").select("id").where("group_id", "=", g.id).executeTakeFirst())
      throw conflict(`评审组「${g.name}」已有答辩安排，请直接修改`);
    const works = await pickWorks(trx, g.id, g.name, input.workIds);
    const at = new Date().toISOString();
    const row = {
      contest_id: c.id,
      group_id: g.id,
      starts_at: checkStart(input.startsAt) ?? null,
      place: clean(input.place) ?? null,
      meeting_link: clean(input.meetingLink) ?? null,
      prepare_note: clean(input.prepareNote) ?? null,
      minutes_per_work: input.minutesPerWork ?? 15,
    };
    const { id } = await trx
      .insertInto("defence_session")
      .values({
        ...row,
        draw_seed: null,
        drawn_at: null,
        drawn_by: null,
        signed_off_at: null,
        signed_off_by: null,
        sign_off_note: null,
        reopened_at: null,
        reopened_by: null,
        reopen_reason: null,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("defence_slot")
      .values(
        works.map((w) => ({ session_id: id, work_id: w, position: null, slot_time: null, code: newCode(), created_at: at })),
      )
      .execute();
    await record(trx, user.id, {
      entity: "defence_session",
      entityId: id,
      action: "create",
      changes: {
        groupId: [null, g.id],
        works: [null, works],
        startsAt: [null, row.starts_at],
        place: [null, row.place],
        meetingLink: [null, row.meeting_link],
      },
    });
    return id;
  });
  return adminSessionView(db, (await findSession(db, id))!);
}

export async function updateSession(db: Db, user: User, sessionId: number, input: SessionInput): Promise<AdminSession> {
  await db.transaction().execute(async (trx) => {
    await lockSession(trx, sessionId);
    const s = await managedSession(trx, user, sessionId);
    if (s.signed_off_at) throw conflict(SIGNED_ADMIN);
    const next = {
      starts_at: input.startsAt !== undefined ? (checkStart(input.startsAt) ?? null) : s.starts_at,
      place: input.place !== undefined ? (clean(input.place) ?? null) : s.place,
      meeting_link: input.meetingLink !== undefined ? (clean(input.meetingLink) ?? null) : s.meeting_link,
      prepare_note: input.prepareNote !== undefined ? (clean(input.prepareNote) ?? null) : s.prepare_note,
      minutes_per_work: input.minutesPerWork ?? s.minutes_per_work,
    };
    const changes: Record<string, [unknown, unknown]> = {};
    for (const k of Object.keys(next) as (keyof typeof next)[]) if (next[k] !== s[k]) changes[k] = [s[k], next[k]];
    let seed = s.draw_seed;
    if (input.workIds !== undefined) {
      const want = await pickWorks(trx, s.group_id, s.group_name, input.workIds);
      const have = (await trx.selectFrom("defence_slot").select(["id", "work_id"]).where("session_id", "=", s.id).execute()).map(
        (r) => ({ id: r.id, workId: Number(r.work_id) }),
      );
      const removed = have.filter((h) => !want.includes(h.workId));
      const added = want.filter((w) => !have.some((h) => h.workId === w));
      if (removed.length || added.length) {
        if (await scoreCount(trx, s.id)) throw conflict("已有评委评分，不能再更改答辩作品");
        if (removed.length)
          await trx
            .deleteFrom("defence_slot")
            .where(
              "id",
              "in",
              removed.map((r) => r.id),
            )
            .execute();
        const at = new Date().toISOString();
        if (added.length)
          await trx
            .insertInto("defence_slot")
            .values(
              added.map((w) => ({
                session_id: s.id,
                work_id: w,
                position: null,
                slot_time: null,
                code: newCode(),
                created_at: at,
              })),
            )
            .execute();
        changes.works = [have.map((h) => h.workId).sort((a, b) => a - b), want];
        // A different set of works needs a new draw.
        if (seed) {
          changes.draw = [s.draw_seed, null];
          seed = null;
        }
      }
    }
    if (!Object.keys(changes).length) return;
    await trx
      .updateTable("defence_session")
      .set({
        ...next,
        ...(seed === null && s.draw_seed ? { draw_seed: null, drawn_at: null, drawn_by: null } : {}),
        updated_at: new Date().toISOString(),
      })
      .where("id", "=", s.id)
      .execute();
    await applyOrder(trx, s.id, seed, next.starts_at, next.minutes_per_work);
    await record(trx, user.id, { entity: "defence_session", entityId: s.id, action: "update", changes });
  });
  return adminSessionView(db, (await findSession(db, sessionId))!);
}

export async function reopenSession(db: Db, user: User, sessionId: number, reason: string): Promise<AdminSession> {
  await db.transaction().execute(async (trx) => {
    await lockSession(trx, sessionId);
    const s = await managedSession(trx, user, sessionId);
    if (!s.signed_off_at) throw conflict("本组答辩结果尚未签署，无需重新开放");
    const why = reason.trim();
    if (!why) throw invalid("reason", "请填写重新开放的原因");
    const at = new Date().toISOString();
    await trx
      .updateTable("defence_session")
      .set({
        signed_off_at: null,
        signed_off_by: null,
        sign_off_note: null,
        reopened_at: at,
        reopened_by: user.id,
        reopen_reason: why,
        updated_at: at,
      })
      .where("id", "=", s.id)
      .execute();
    await record(trx, user.id, {
      entity: "defence_session",
      entityId: s.id,
      action: "reopen",
      changes: { signedOffAt: [s.signed_off_at, null], signedOffBy: [s.signed_off_by, null], reason: [null, why] },
    });
  });
  return adminSessionView(db, (await findSession(db, sessionId))!);
}
