/**
 * The offline defence (现场答辩) of a judge group: one session per group.
 *
 * - The contest admin (own contests and their children; root) arranges it: time, place or
 *   meeting link, what to prepare, minutes per work, and which of the group's works defend
 *   (default all). Each work gets a slot with an unguessable code: the authors' link
 *   /contest/reply/:code.
 * - The order is drawn at random by the admin or the group leader (专家组长): the seed comes
 *   from crypto random and is stored with who and when; the order follows from it by
 *   ../draw.ts, so anyone can re-check it. Slot times: start + (position − 1) × minutes.
 *   A redraw is refused once scoring has started.
 * - The group's judges (members) score each work they may judge: 0–100, 强烈推荐/推荐/不推荐
 *   and a comment, editable until the leader signs off. A judge never sees a work of the own
 *   school (outside a school-level contest), one the judge advises or authors, or one
 *   declared as a conflict (nor, with the national option, of the own province): 404.
 *   Every change of a score appends to the contest's score log in the same transaction.
 * - The leader sees the consolidated sheet (every member's score, the mean, the counts of
 *   each recommendation) and signs off; missing scores are refused unless the leader
 *   confirms with a note (a member may be absent). After the sign-off everything is
 *   read-only until the contest admin reopens it with a reason.
 *
 * Sessions, works and sheets a user may not see answer 404, whether they exist or not.
 */
import { randomBytes } from "node:crypto";
import { PostgresAdapter, sql } from "kysely";
import { conflict, forbidden, invalid, notFound } from "../../../shared/errors";
import {
  DEFENCE_FILE_KIND,
  RECOMMENDATION_NAMES,
  type AdminGroupDefence,
  type AdminSession,
  type DefenceFileView,
  type DrawView,
  type GroupSheet,
  type JudgeSession,
  type MyScore,
  type Recommendation,
  type ScoreBody,
  type SessionInput,
  type SheetRow,
  type SignOffBody,
} from "../../../shared/judging/defence-schema";
import type { Db } from "../../db";
import type { User } from "../../db/schema";
import { record } from "../../crud/audit";
import { adminContestIds } from "../../scope";
import type { Handle } from "../../work/repository";
import { conflictsFor, type JudgeFacts, type WorkFacts } from "../conflict";
import { DRAW_ALGORITHM, drawWorkOrder, slotTime } from "../draw";
import { contestJudges, declaredOf, judgeSchoolFacts, settingsOf, type ContestInfo } from "./contest";
import { managedGroup } from "./groups";
import { appendScoreLog } from "./score-log-store";

export const NO_SESSION = "答辩场次不存在或您不是该评审组的评委";
export const NO_DEFENCE_WORK = "作品不存在或不在您的答辩评审范围内";
export const NO_SHEET = "答辩场次不存在或您不是该评审组的专家组长";
export const NOT_JUDGED = "赛事不存在或您不是该赛事的评委";
const SIGNED = "专家组长已签署本组答辩结果，不能再修改；如需修改，请联系赛事管理员重新开放";
const SIGNED_ADMIN = "专家组长已签署本组答辩结果，不能再修改；如需修改，请先重新开放";

/** An unguessable link code: 18 random bytes, base64url (24 characters). */
export const newCode = () => randomBytes(18).toString("base64url");
/** The alphabet of draw codes: no 0/O, 1/I/L look-alikes. */
const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
/**
 * A draw seed: a short code people can read out and check (issue 15), "K7M2P-9QX4A": ten
 * characters of a 31-letter alphabet (~49 bits, without modulo bias), the seed of the draw as
 * it is. Older draws keep their 64-hex seeds; both are verified the same way.
 */
export function newSeed(): string {
  const out: string[] = [];
  while (out.length < 10) for (const b of randomBytes(16)) if (b < 248 && out.length < 10) out.push(CODE_ALPHABET[b % 31]);
  return `${out.slice(0, 5).join("")}-${out.slice(5).join("")}`;
}

const isPg = (db: Handle) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Serialises writers of one session on PostgreSQL (SQLite has one writer anyway). */
async function lockSession(trx: Handle, id: number) {
  if (isPg(trx)) await sql`select id from defence_session where id = ${id} for update`.execute(trx);
}

// ------------------------------------------------------------------------------ loading

const sessionQuery = (db: Handle) =>
  db
    .selectFrom("defence_session as s")
    .innerJoin("judge_group as g", "g.id", "s.group_id")
    .innerJoin("contest as c", "c.id", "s.contest_id")
    .leftJoin("app_user as leader", "leader.id", "g.leader_id")
    .leftJoin("app_user as drawer", "drawer.id", "s.drawn_by")
    .leftJoin("app_user as signer", "signer.id", "s.signed_off_by")
    .leftJoin("app_user as reopener", "reopener.id", "s.reopened_by")
    .selectAll("s")
    .select([
      "g.name as group_name",
      "g.leader_id",
      "leader.name as leader_name",
      "c.name as contest_name",
      "c.level as contest_level",
      "c.school_id as contest_school_id",
      "drawer.name as drawer_name",
      "signer.name as signer_name",
      "reopener.name as reopener_name",
    ]);
type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionQuery>["executeTakeFirstOrThrow"]>>;

const contestOf = (s: SessionRow): ContestInfo => ({
  id: s.contest_id,
  name: s.contest_name,
  level: s.contest_level,
  school_id: s.contest_school_id,
});

async function findSession(db: Handle, id: number) {
  return sessionQuery(db).where("s.id", "=", id).executeTakeFirst();
}

const slotQuery = (db: Handle) =>
  db
    .selectFrom("defence_slot as sl")
    .innerJoin("work", "work.id", "sl.work_id")
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .leftJoin("work_category as sub", "sub.id", "work.subcategory_id")
    .innerJoin("school", "school.id", "work.school_id")
    .select([
      "sl.id",
      "sl.session_id",
      "sl.work_id",
      "sl.position",
      "sl.slot_time",
      "sl.code",
      "work.name",
      "work.status",
      "work.school_id",
      "school.name as school_name",
      "school.province",
      "cat.name as category_name",
      "sub.name as subcategory_name",
    ]);
type SlotRow = Awaited<ReturnType<ReturnType<typeof slotQuery>["executeTakeFirstOrThrow"]>>;

/** The session's slots in order: drawn position, then work id. */
async function slotsOf(db: Handle, sessionId: number): Promise<SlotRow[]> {
  const rows = await slotQuery(db).where("sl.session_id", "=", sessionId).execute();
  return rows.sort((a, b) => (a.position ?? 1e9) - (b.position ?? 1e9) || Number(a.work_id) - Number(b.work_id));
}

async function isManager(db: Handle, user: User, contestId: number) {
  const scope = await adminContestIds(db, user);
  return scope === "all" || scope.includes(contestId);
}

async function memberIds(db: Handle, groupId: number): Promise<number[]> {
  return (await db.selectFrom("judge_group_member").select("user_id").where("group_id", "=", groupId).execute()).map(
    (r) => r.user_id,
  );
}

// ---------------------------------------------------------------------------- conflicts

/** The conflict facts of these works: school, province, advisors, authors. */
async function workFacts(db: Handle, slots: SlotRow[]): Promise<Map<number, WorkFacts>> {
  const ids = slots.map((s) => Number(s.work_id));
  const out = new Map<number, WorkFacts>(
    slots.map((s) => [
      Number(s.work_id),
      {
        id: Number(s.work_id),
        schoolId: s.school_id,
        province: s.province,
        advisorIds: [] as number[],
        authorIds: [] as number[],
      },
    ]),
  );
  if (!ids.length) return out;
  for (const t of await db.selectFrom("work_teacher").select(["work_id", "user_id"]).where("work_id", "in", ids).execute())
    (out.get(Number(t.work_id))!.advisorIds as number[]).push(t.user_id);
  for (const a of await db.selectFrom("work_author").select(["work_id", "user_id"]).where("work_id", "in", ids).execute())
    (out.get(Number(a.work_id))!.authorIds as number[]).push(a.user_id);
  return out;
}

/** The conflict facts of these judges in the contest. */
async function judgeFacts(db: Handle, c: ContestInfo, userIds: number[]): Promise<Map<number, JudgeFacts>> {
  if (!userIds.length) return new Map();
  const users = await db
    .selectFrom("app_user")
    .leftJoin("school", "school.id", "app_user.school_id")
    .select(["app_user.id", "app_user.school_id", "school.province"])
    .where("app_user.id", "in", userIds)
    .execute();
  const declared = await declaredOf(db, userIds);
  return new Map(users.map((u) => [u.id, { id: u.id, ...judgeSchoolFacts(c, u), declared: declared.get(u.id) }]));
}

/** For each judge, the work ids of the slots the judge may judge (no conflict, work not disqualified). */
async function judgeable(db: Handle, c: ContestInfo, slots: SlotRow[], userIds: number[]): Promise<Map<number, Set<number>>> {
  const opts = { avoidProvince: (await settingsOf(db, c.id)).avoidProvince };
  const works = await workFacts(db, slots);
  const judges = await judgeFacts(db, c, userIds);
  const out = new Map<number, Set<number>>();
  for (const id of userIds) {
    const j = judges.get(id);
    const ok = new Set<number>();
    for (const s of slots) {
      if (s.status === "disqualified") continue;
      if (j && conflictsFor(j, works.get(Number(s.work_id))!, opts).length === 0) ok.add(Number(s.work_id));
    }
    out.set(id, ok);
  }
  return out;
}

// ------------------------------------------------------------------------------- views

/**
 * The session's common view. `shown`: the works the viewing judge may see — the draw's
 * input then lists only those (a judge learns no id of a work the judge must avoid, only
 * how many); the check that the positions follow the seed still runs on every work.
 */
function baseView(s: SessionRow, slots: SlotRow[], shown?: Set<number>) {
  const input = slots.map((x) => Number(x.work_id)).sort((a, b) => a - b);
  const listed = shown ? input.filter((id) => shown.has(id)) : input;
  const drawn = s.draw_seed !== null && s.drawn_at !== null;
  let verified = false;
  if (drawn) {
    const order = drawWorkOrder(s.draw_seed!, input);
    verified = slots.every((x) => x.position !== null && order[x.position - 1] === Number(x.work_id));
  }
  return {
    id: s.id,
    contest: { id: s.contest_id, name: s.contest_name },
    group: { id: s.group_id, name: s.group_name },
    leader: s.leader_id !== null ? { id: s.leader_id, name: s.leader_name ?? "" } : null,
    startsAt: s.starts_at,
    place: s.place,
    meetingLink: s.meeting_link,
    prepareNote: s.prepare_note,
    minutesPerWork: s.minutes_per_work,
    draw: drawn
      ? {
          seed: s.draw_seed!,
          algorithm: DRAW_ALGORITHM,
          drawnAt: s.drawn_at!,
          drawnBy: { id: s.drawn_by ?? 0, name: s.drawer_name ?? "" },
          input: listed,
          withheld: input.length - listed.length,
          verified,
        }
      : null,
    signOff: s.signed_off_at
      ? { at: s.signed_off_at, by: { id: s.signed_off_by ?? 0, name: s.signer_name ?? "" }, note: s.sign_off_note }
      : null,
    reopened: s.reopened_at
      ? { at: s.reopened_at, by: { id: s.reopened_by ?? 0, name: s.reopener_name ?? "" }, reason: s.reopen_reason ?? "" }
      : null,
  };
}

/** Defence material of works: current and earlier versions, newest first. */
export async function defenceFiles(db: Handle, workIds: number[]): Promise<Map<number, DefenceFileView[]>> {
  const out = new Map<number, DefenceFileView[]>();
  if (!workIds.length) return out;
  const rows = await db
    .selectFrom("work_file")
    .select(["id", "work_id", "filename", "size", "created_at", "replaced_at"])
    .where("work_id", "in", workIds)
    .where("kind", "=", DEFENCE_FILE_KIND)
    .where("deleted_at", "is", null)
    .orderBy("id", "desc")
    .execute();
  for (const r of rows) {
    const list = out.get(Number(r.work_id)) ?? [];
    list.push({ id: r.id, filename: r.filename, size: Number(r.size), createdAt: r.created_at, current: r.replaced_at === null });
    out.set(Number(r.work_id), list);
  }
  return out;
}

const workRef = (x: SlotRow) => ({
  id: Number(x.work_id),
  name: x.name,
  category: x.category_name,
  subcategory: x.subcategory_name,
});

// --------------------------------------------------------------------------- the admin

async function managedSession(db: Handle, user: User, sessionId: number) {
  const s = await findSession(db, sessionId);
  if (!s || !(await isManager(db, user, s.contest_id))) throw notFound("答辩场次不存在或不在您的管理范围内");
  return s;
}

async function adminSessionView(db: Handle, s: SessionRow): Promise<AdminSession> {
  const slots = await slotsOf(db, s.id);
  const c = contestOf(s);
  const members = await memberIds(db, s.group_id);
  const can = await judgeable(db, c, slots, members);
  const scores = slots.length
    ? await db
        .selectFrom("defence_score")
        .select(["slot_id", "judge_id"])
        .where(
          "slot_id",
          "in",
          slots.map((x) => x.id),
        )
        .execute()
    : [];
  const files = await defenceFiles(
    db,
    slots.map((x) => Number(x.work_id)),
  );
  return {
    ...baseView(s, slots),
    slots: slots.map((x) => ({
      position: x.position,
      time: x.slot_time,
      work: { id: Number(x.work_id), name: x.name, school: x.school_name },
      code: x.code,
      scores: scores.filter((r) => r.slot_id === x.id).length,
      expected: members.filter((m) => can.get(m)!.has(Number(x.work_id))).length,
      files: (files.get(Number(x.work_id)) ?? []).filter((f) => f.current).length,
    })),
    scores: scores.length,
  };
}

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

/** Positions and times of the slots from the stored seed (or cleared without one). */
async function applyOrder(trx: Handle, sessionId: number, seed: string | null, startsAt: string | null, minutes: number) {
  const slots = await trx.selectFrom("defence_slot").select(["id", "work_id"]).where("session_id", "=", sessionId).execute();
  if (!seed) {
    await trx.updateTable("defence_slot").set({ position: null, slot_time: null }).where("session_id", "=", sessionId).execute();
    return;
  }
  const order = drawWorkOrder(
    seed,
    slots.map((s) => Number(s.work_id)),
  );
  for (const [i, workId] of order.entries()) {
    const slot = slots.find((s) => Number(s.work_id) === workId)!;
    await trx
      .updateTable("defence_slot")
      .set({ position: i + 1, slot_time: slotTime(startsAt, i + 1, minutes) })
      .where("id", "=", slot.id)
      .execute();
  }
}

async function scoreCount(db: Handle, sessionId: number) {
  const r = await db
    .selectFrom("defence_score")
    .innerJoin("defence_slot", "defence_slot.id", "defence_score.slot_id")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("defence_slot.session_id", "=", sessionId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
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

/** The random draw of the order: the contest admin or the group leader. */
export async function drawSession(
  db: Db,
  user: User,
  sessionId: number,
  redraw: boolean,
): Promise<{ draw: DrawView; message: string }> {
  const admin = await db.transaction().execute(async (trx) => {
    await lockSession(trx, sessionId);
    const s = await findSession(trx, sessionId);
    if (!s) throw notFound(NO_SESSION);
    const admin = await isManager(trx, user, s.contest_id);
    if (!admin) {
      const leader = s.leader_id === user.id && (await contestJudges(trx, contestOf(s))).some((j) => j.id === user.id);
      if (!leader) {
        if ((await memberIds(trx, s.group_id)).includes(user.id)) throw forbidden("只有专家组长或赛事管理员可以抽签");
        throw notFound(NO_SESSION);
      }
    }
    if (s.signed_off_at) throw conflict(SIGNED);
    if (s.draw_seed && !redraw) throw conflict(`已于 ${s.drawn_at} 由${s.drawer_name ?? ""}抽签，如需重新抽签请确认`);
    if (s.draw_seed && (await scoreCount(trx, s.id))) throw conflict("已有评委开始评分，不能重新抽签");
    const seed = newSeed();
    const at = new Date().toISOString();
    await trx
      .updateTable("defence_session")
      .set({ draw_seed: seed, drawn_at: at, drawn_by: user.id, updated_at: at })
      .where("id", "=", s.id)
      .execute();
    await applyOrder(trx, s.id, seed, s.starts_at, s.minutes_per_work);
    await record(trx, user.id, {
      entity: "defence_session",
      entityId: s.id,
      action: s.draw_seed ? "redraw" : "draw",
      changes: { drawSeed: [s.draw_seed, seed] },
    });
    return admin;
  });
  const s = (await findSession(db, sessionId))!;
  const slots = await slotsOf(db, s.id);
  // The leader, a judge of the group, sees the input without the works the leader avoids.
  const shown = admin ? undefined : (await judgeable(db, contestOf(s), slots, [user.id])).get(user.id)!;
  const draw = baseView(s, slots, shown).draw!;
  return { draw, message: redraw ? "已重新抽签，答辩顺序已更新" : "已抽签，答辩顺序已确定" };
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

// ---------------------------------------------------------------------------- the judge

/** The session for a judge of its group (member or leader) who still judges the contest; 404 otherwise. */
async function judgeSession(db: Handle, user: User, sessionId: number, info = NO_SESSION) {
  const s = await findSession(db, sessionId);
  if (!s) throw notFound(info);
  const members = await memberIds(db, s.group_id);
  const isMember = members.includes(user.id);
  const isLeader = s.leader_id === user.id;
  if ((!isMember && !isLeader) || !(await contestJudges(db, contestOf(s))).some((j) => j.id === user.id)) throw notFound(info);
  return { s, isMember, isLeader, members };
}

async function judgeSessionView(db: Handle, user: User, s: SessionRow): Promise<JudgeSession> {
  const slots = await slotsOf(db, s.id);
  const members = await memberIds(db, s.group_id);
  const mine = (await judgeable(db, contestOf(s), slots, [user.id])).get(user.id)!;
  const visible = slots.filter((x) => mine.has(Number(x.work_id)));
  const scores = visible.length
    ? await db
        .selectFrom("defence_score")
        .select(["slot_id", "score", "recommendation", "comment", "updated_at"])
        .where("judge_id", "=", user.id)
        .where(
          "slot_id",
          "in",
          visible.map((x) => x.id),
        )
        .execute()
    : [];
  const files = await defenceFiles(
    db,
    visible.map((x) => Number(x.work_id)),
  );
  const isMember = members.includes(user.id);
  return {
    ...baseView(s, slots, mine),
    isLeader: s.leader_id === user.id,
    isMember,
    slots: visible.map((x) => {
      const sc = scores.find((r) => r.slot_id === x.id);
      return {
        position: x.position,
        time: x.slot_time,
        work: workRef(x),
        files: files.get(Number(x.work_id)) ?? [],
        mine: sc
          ? { score: Number(sc.score), recommendation: sc.recommendation, comment: sc.comment, updatedAt: sc.updated_at }
          : null,
      };
    }),
    avoided: slots.length - visible.length,
    scored: isMember ? scores.length : 0,
  };
}

/** The defence sessions of the judge's groups in the contest. */
export async function mySessions(db: Db, user: User, contestId: number): Promise<JudgeSession[]> {
  const c = await db
    .selectFrom("contest")
    .select(["id", "name", "level", "school_id"])
    .where("id", "=", contestId)
    .executeTakeFirst();
  if (!c || !(await contestJudges(db, c)).some((j) => j.id === user.id)) throw notFound(NOT_JUDGED);
  const rows = await sessionQuery(db)
    .where("s.contest_id", "=", c.id)
    .where((eb) =>
      eb.or([
        eb("g.leader_id", "=", user.id),
        eb("s.group_id", "in", eb.selectFrom("judge_group_member").select("group_id").where("user_id", "=", user.id)),
      ]),
    )
    .orderBy("s.id")
    .execute();
  const out: JudgeSession[] = [];
  for (const s of rows) out.push(await judgeSessionView(db, user, s));
  return out;
}

export async function judgeSessionById(db: Db, user: User, sessionId: number): Promise<JudgeSession> {
  const { s } = await judgeSession(db, user, sessionId);
  return judgeSessionView(db, user, s);
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Saves the judge's score of one work; appends to the score log when anything changed. */
export async function saveScore(
  db: Db,
  user: User,
  sessionId: number,
  workId: number,
  body: ScoreBody,
): Promise<{ score: MyScore; changed: boolean }> {
  if (!Number.isFinite(body.score) || round1(body.score) !== body.score)
    throw invalid("score", "评分为 0–100 的数，最多保留一位小数");
  const comment = (body.comment ?? "").trim();
  return db.transaction().execute(async (trx) => {
    await lockSession(trx, sessionId);
    const { s, isMember } = await judgeSession(trx, user, sessionId, NO_DEFENCE_WORK);
    const slot = await slotQuery(trx).where("sl.session_id", "=", s.id).where("sl.work_id", "=", workId).executeTakeFirst();
    if (!slot || !(await judgeable(trx, contestOf(s), [slot], [user.id])).get(user.id)!.has(workId))
      throw notFound(NO_DEFENCE_WORK);
    if (!isMember) throw forbidden("您不是本组的评委成员，不能评分");
    if (s.signed_off_at) throw conflict(SIGNED);
    if (!s.draw_seed) throw conflict("答辩顺序尚未抽签，抽签后才能评分");
    const at = new Date().toISOString();
    const old = await trx
      .selectFrom("defence_score")
      .selectAll()
      .where("slot_id", "=", slot.id)
      .where("judge_id", "=", user.id)
      .executeTakeFirst();
    const same = old && Number(old.score) === body.score && old.recommendation === body.recommendation && old.comment === comment;
    if (!same) {
      if (old) {
        await trx
          .updateTable("defence_score")
          .set({ score: body.score, recommendation: body.recommendation, comment, updated_at: at })
          .where("id", "=", old.id)
          .execute();
      } else {
        await trx
          .insertInto("defence_score")
          .values({
            slot_id: slot.id,
            judge_id: user.id,
            score: body.score,
            recommendation: body.recommendation,
            comment,
            created_at: at,
            updated_at: at,
          })
          .execute();
      }
      await appendScoreLog(trx, {
        at,
        actorId: user.id,
        contestId: s.contest_id,
        workId,
        judgeId: user.id,
        action: "defence_score",
        score: body.score,
        comment,
        reason: body.recommendation,
      });
    }
    return {
      score: { score: body.score, recommendation: body.recommendation, comment, updatedAt: same ? old!.updated_at : at },
      changed: !same,
    };
  });
}

/** A defence file of a work the judge may judge in the session. */
export async function judgeDefenceFile(db: Db, user: User, sessionId: number, workId: number, fileId: number) {
  const { s } = await judgeSession(db, user, sessionId, NO_DEFENCE_WORK);
  const slot = await slotQuery(db).where("sl.session_id", "=", s.id).where("sl.work_id", "=", workId).executeTakeFirst();
  if (!slot || !(await judgeable(db, contestOf(s), [slot], [user.id])).get(user.id)!.has(workId)) throw notFound(NO_DEFENCE_WORK);
  const f = await db
    .selectFrom("work_file")
    .select(["id", "filename", "size", "mime", "sha256"])
    .where("id", "=", fileId)
    .where("work_id", "=", workId)
    .where("kind", "=", DEFENCE_FILE_KIND)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!f) throw notFound("答辩材料不存在");
  return f;
}

// ---------------------------------------------------------------------- the group sheet

async function sheetAccess(db: Handle, user: User, sessionId: number) {
  const s = await findSession(db, sessionId);
  if (!s) throw notFound(NO_SHEET);
  if (await isManager(db, user, s.contest_id)) return { s, asLeader: false };
  if (s.leader_id === user.id && (await contestJudges(db, contestOf(s))).some((j) => j.id === user.id))
    return { s, asLeader: true };
  throw notFound(NO_SHEET);
}

interface Consolidated {
  rows: (SheetRow & { hidden: boolean })[];
  members: GroupSheet["members"];
  /** missing scores per member: names and work ids (all works) */
  missing: Map<number, { name: string; workIds: number[] }>;
}

async function consolidate(db: Handle, s: SessionRow, viewerId: number | null): Promise<Consolidated> {
  const c = contestOf(s);
  const slots = await slotsOf(db, s.id);
  const members = await db
    .selectFrom("judge_group_member as m")
    .innerJoin("app_user as u", "u.id", "m.user_id")
    .select(["u.id", "u.name"])
    .where("m.group_id", "=", s.group_id)
    .orderBy("u.name")
    .orderBy("u.id")
    .execute();
  const ids = members.map((m) => m.id);
  const viewerCan = viewerId !== null ? (await judgeable(db, c, slots, [viewerId])).get(viewerId)! : null;
  const can = await judgeable(db, c, slots, ids);
  const scores = slots.length
    ? await db
        .selectFrom("defence_score as ds")
        .innerJoin("app_user as u", "u.id", "ds.judge_id")
        .select(["ds.slot_id", "ds.judge_id", "u.name", "ds.score", "ds.recommendation", "ds.comment", "ds.updated_at"])
        .where(
          "ds.slot_id",
          "in",
          slots.map((x) => x.id),
        )
        .orderBy("u.name")
        .execute()
    : [];
  const missing = new Map<number, { name: string; workIds: number[] }>();
  const rows = slots
    .filter((x) => x.status !== "disqualified")
    .map((x) => {
      const workId = Number(x.work_id);
      const own = scores.filter((r) => r.slot_id === x.id);
      const expected = members.filter((m) => can.get(m.id)!.has(workId));
      const lacking = expected.filter((m) => !own.some((r) => r.judge_id === m.id));
      for (const m of lacking) {
        const e = missing.get(m.id) ?? { name: m.name, workIds: [] };
        e.workIds.push(workId);
        missing.set(m.id, e);
      }
      const mean = own.length ? Math.round((own.reduce((a, r) => a + Number(r.score), 0) / own.length) * 100) / 100 : null;
      const counts = { strong: 0, recommend: 0, not: 0 };
      for (const r of own) counts[r.recommendation as Recommendation]++;
      return {
        hidden: viewerCan !== null && !viewerCan.has(workId),
        position: x.position,
        time: x.slot_time,
        work: workRef(x),
        scores: own.map((r) => ({
          judge: { id: r.judge_id, name: r.name },
          score: Number(r.score),
          recommendation: r.recommendation,
          comment: r.comment,
          updatedAt: r.updated_at,
        })),
        missing: lacking.map((m) => ({ id: m.id, name: m.name })),
        avoiding: members.length - expected.length,
        mean,
        counts,
        rank: null as number | null,
      };
    });
  return {
    rows,
    members: members.map((m) => {
      const expected = slots.filter((x) => x.status !== "disqualified" && can.get(m.id)!.has(Number(x.work_id))).length;
      return { id: m.id, name: m.name, scored: scores.filter((r) => r.judge_id === m.id).length, expected };
    }),
    missing,
  };
}

export async function groupSheet(db: Db, user: User, sessionId: number): Promise<GroupSheet> {
  const { s, asLeader } = await sheetAccess(db, user, sessionId);
  const slots = await slotsOf(db, s.id);
  const { rows, members } = await consolidate(db, s, asLeader ? user.id : null);
  const hidden = rows.filter((r) => r.hidden);
  const shown = rows.filter((r) => !r.hidden);
  // Standard competition ranking by mean (1, 2, 2, 4) among the shown works with a score.
  const ranked = shown.filter((r) => r.mean !== null).sort((a, b) => b.mean! - a.mean!);
  for (const r of ranked) r.rank = ranked.findIndex((o) => o.mean === r.mean) + 1;
  return {
    ...baseView(s, slots, asLeader ? new Set(shown.map((r) => r.work.id)) : undefined),
    members,
    rows: shown.map(({ hidden: _h, ...r }) => r),
    hidden: { works: hidden.length, missingScores: hidden.reduce((a, r) => a + r.missing.length, 0) },
    complete: rows.every((r) => r.missing.length === 0),
    canSignOff: asLeader && !s.signed_off_at && !!s.draw_seed,
  };
}

export async function signOff(db: Db, user: User, sessionId: number, body: SignOffBody): Promise<GroupSheet> {
  await db.transaction().execute(async (trx) => {
    await lockSession(trx, sessionId);
    const s = await findSession(trx, sessionId);
    const leader = !!s && s.leader_id === user.id && (await contestJudges(trx, contestOf(s))).some((j) => j.id === user.id);
    if (!s || !leader) {
      if (s && (await isManager(trx, user, s.contest_id))) throw forbidden("答辩结果由专家组长签署");
      throw notFound(NO_SHEET);
    }
    if (s.signed_off_at) throw conflict(`本组答辩结果已于 ${s.signed_off_at} 签署`);
    if (!s.draw_seed) throw conflict("答辩顺序尚未抽签，不能签署");
    const { rows, missing } = await consolidate(trx, s, user.id);
    if (!rows.some((r) => r.scores.length)) throw conflict("还没有评委评分，不能签署");
    const note = body.note?.trim() ?? "";
    if (missing.size) {
      const visible = new Set(rows.filter((r) => !r.hidden).map((r) => r.work.id));
      const list = [...missing.values()]
        .map((m) => {
          const shown = m.workIds.filter((w) => visible.has(w));
          const other = m.workIds.length - shown.length;
          return `${m.name}（${[...shown.map(String), ...(other ? [`另有 ${other} 件回避作品`] : [])].join("、")}）`;
        })
        .join("；");
      if (!body.confirmMissing) throw conflict(`以下评委尚未评完：${list}。如有评委缺席，请在签署说明中写明原因并确认签署`);
      if (!note) throw invalid("note", "有评委尚未评完时，请在签署说明中写明原因（如评委缺席）");
    }
    const at = new Date().toISOString();
    await trx
      .updateTable("defence_session")
      .set({ signed_off_at: at, signed_off_by: user.id, sign_off_note: note || null, updated_at: at })
      .where("id", "=", s.id)
      .execute();
    await record(trx, user.id, {
      entity: "defence_session",
      entityId: s.id,
      action: "sign_off",
      changes: {
        signedOffAt: [null, at],
        note: [null, note || null],
        missing: [null, [...missing.entries()].map(([id, m]) => ({ judgeId: id, workIds: m.workIds }))],
      },
    });
  });
  return groupSheet(db, user, sessionId);
}

export const recommendationName = (r: string) => RECOMMENDATION_NAMES[r as Recommendation] ?? r;
