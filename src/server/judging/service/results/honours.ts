/**
 * Teacher and school honours of a contest's result (优秀指导教师, 优秀组织奖): the contest
 * level's award levels of kind teacher and organisation, given to the advising teachers of
 * the contest's awarded works and to the schools with awarded works (contest_honour).
 *
 * - view: per level its cap and rule, the rows, and the pickers (the advising teachers of the
 *   contest's works, the schools with works in it).
 * - propose (按规则生成) one level: the rule's holders (proposeTeachers / proposeSchools, pure;
 *   in honour-rules.ts with the cap and the rule's text)
 *   within the cap = min(max_count, round(ratio × awarded works)) where set; rows set by hand
 *   are kept and count towards the cap; the other rows are replaced by the proposal.
 * - add by hand (a teacher must advise a work of the contest's results, a school must have
 *   one; duplicates and additions beyond the cap refused) and remove.
 * "Works of the contest" are its result rows (contest_result) whose work is not disqualified;
 * "awarded" ones carry a work award.
 * Every change runs like the other result changes (changeResults: managed contest, locked,
 * one transaction) but also while the result is published: then it goes through
 * changePublishedGroup (group h<award level id>), which records a result version with the
 * reason and re-syncs the certificates (certificate/issue.ts issues them from these rows).
 */
import type { Transaction } from "kysely";
import { badRequest, notFound } from "../../../../shared/errors";
import { CONTEST_LEVEL_NAMES } from "../../../../shared/contest/stages";
import type {
  HonourAdd,
  HonourLevel,
  HonourRow,
  HonourSchoolOption,
  HonourTeacherOption,
  HonourView,
} from "../../../../shared/certificate/print-schema";
import type { Db } from "../../../db";
import type { DB, User } from "../../../db/schema";
import { record } from "../../../common/audit";
import type { Handle } from "../../../work/repository";
import { requireManagedContest, type ContestInfo } from "../contest";
import { activePublication, changeResults } from "./change";
import { chunks, numOrNull, push, workAwardLevels } from "./load";
import {
  byMerit,
  honourCap,
  honourRule,
  proposeSchools,
  proposeTeachers,
  type ContestWork,
  type HonourKind,
  type HonourLevelRef,
  type WorkTeacher,
} from "./honour-rules";
import { changePublishedGroup, type VersionGroup } from "./versions";

export {
  awardPoints,
  byMerit,
  honourCap,
  honourRule,
  proposeSchools,
  proposeTeachers,
  type ContestWork,
  type HonourKind,
  type HonourLevelRef,
  type SchoolScore,
  type WorkTeacher,
} from "./honour-rules";

/** award_level.kind → the holder kind of its honours. */
const HOLDER_OF: Record<string, HonourKind> = { teacher: "teacher", organisation: "school" };

/** The contest level's teacher and school award levels, in order. */
export async function honourLevels(db: Handle, level: ContestInfo["level"]): Promise<HonourLevelRef[]> {
  const rows = await db
    .selectFrom("award_level")
    .select(["id", "name", "kind", "ratio", "max_count", "sort"])
    .where("contest_level", "=", level)
    .where("kind", "in", Object.keys(HOLDER_OF))
    .where("archived", "=", 0)
    .orderBy("sort")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    kind: HOLDER_OF[r.kind],
    ratio: numOrNull(r.ratio),
    maxCount: numOrNull(r.max_count),
    sort: Number(r.sort),
  }));
}

/** The contest's works (its results, not disqualified) with their awards, and their teachers. */
export async function contestWorks(db: Handle, contestId: number) {
  const rows = await db
    .selectFrom("contest_result as r")
    .innerJoin("work as w", "w.id", "r.work_id")
    .innerJoin("school as s", "s.id", "w.school_id")
    .leftJoin("award_level as a", "a.id", "r.award_level_id")
    .select([
      "r.work_id",
      "w.name",
      "w.school_id",
      "s.name as school_name",
      "r.rank",
      "r.normalised",
      "a.id as award_id",
      "a.name as award_name",
      "a.sort as award_sort",
      "a.kind as award_kind",
    ])
    .where("r.contest_id", "=", contestId)
    .where("w.status", "!=", "disqualified")
    .execute();
  const works: ContestWork[] = rows.map((r) => ({
    id: Number(r.work_id),
    title: r.name,
    schoolId: r.school_id,
    schoolName: r.school_name,
    rank: numOrNull(r.rank),
    normalised: numOrNull(r.normalised),
    award:
      r.award_id !== null && r.award_kind === "work"
        ? { id: r.award_id, name: r.award_name ?? "", sort: Number(r.award_sort) }
        : null,
  }));
  const schoolOf = new Map(works.map((w) => [w.id, { id: w.schoolId, name: w.schoolName }]));
  const teachers = new Map<number, WorkTeacher[]>();
  for (const part of chunks(works.map((w) => w.id))) {
    const list = await db
      .selectFrom("work_teacher as t")
      .innerJoin("app_user as u", "u.id", "t.user_id")
      .leftJoin("school as us", "us.id", "u.school_id")
      .select(["t.work_id", "t.user_id", "u.name", "u.school_id", "us.name as school_name", "t.rank"])
      .where("t.work_id", "in", part)
      .orderBy("t.work_id")
      .orderBy("t.rank")
      .execute();
    for (const t of list) {
      const ws = schoolOf.get(Number(t.work_id))!;
      push(teachers, Number(t.work_id), {
        userId: t.user_id,
        name: t.name,
        schoolId: t.school_id ?? ws.id,
        schoolName: t.school_name ?? ws.name,
      });
    }
  }
  return { works, teachers };
}

type Loaded = Awaited<ReturnType<typeof contestWorks>>;

async function honourRows(db: Handle, contestId: number, levelId?: number): Promise<HonourRow[]> {
  let q = db
    .selectFrom("contest_honour as h")
    .innerJoin("award_level as a", "a.id", "h.award_level_id")
    .innerJoin("school as s", "s.id", "h.school_id")
    .leftJoin("app_user as u", "u.id", "h.teacher_user_id")
    .leftJoin("work as w", "w.id", "h.work_id")
    .select([
      "h.id",
      "h.award_level_id",
      "a.name as award_name",
      "a.sort",
      "h.holder_kind",
      "h.teacher_user_id",
      "h.school_id",
      "u.name as teacher_name",
      "s.name as school_name",
      "h.work_id",
      "w.name as work_title",
      "h.manual",
    ])
    .where("h.contest_id", "=", contestId);
  if (levelId !== undefined) q = q.where("h.award_level_id", "=", levelId);
  const rows = await q.orderBy("a.sort").orderBy("h.award_level_id").orderBy("h.id").execute();
  return rows.map((r) => ({
    id: r.id,
    awardLevelId: r.award_level_id,
    awardName: r.award_name,
    holderKind: r.holder_kind,
    teacherUserId: r.teacher_user_id,
    schoolId: r.school_id,
    holderName: r.holder_kind === "teacher" ? (r.teacher_name ?? "") : r.school_name,
    schoolName: r.school_name,
    workId: r.work_id === null ? null : Number(r.work_id),
    workTitle: r.work_title ?? null,
    manual: !!Number(r.manual),
  }));
}

function teacherOptions(loaded: Loaded): HonourTeacherOption[] {
  const by = new Map<number, HonourTeacherOption & { best: ContestWork }>();
  const ordered = [...loaded.works].sort(byMerit);
  for (const w of ordered) {
    for (const t of loaded.teachers.get(w.id) ?? []) {
      const o = by.get(t.userId) ?? {
        userId: t.userId,
        name: t.name,
        schoolId: t.schoolId,
        schoolName: t.schoolName,
        works: [],
        best: w,
      };
      o.works.push({ id: w.id, title: w.title, awardName: w.award?.name ?? null });
      by.set(t.userId, o);
    }
  }
  return [...by.values()].sort((a, b) => byMerit(a.best, b.best) || a.userId - b.userId).map(({ best: _best, ...o }) => o);
}

function schoolOptions(loaded: Loaded): HonourSchoolOption[] {
  const by = new Map<number, HonourSchoolOption>();
  for (const w of loaded.works) {
    const o = by.get(w.schoolId) ?? { schoolId: w.schoolId, name: w.schoolName, works: 0, awarded: 0 };
    o.works++;
    if (w.award) o.awarded++;
    by.set(w.schoolId, o);
  }
  return [...by.values()].sort((a, b) => b.awarded - a.awarded || b.works - a.works || a.schoolId - b.schoolId);
}

const awardedCount = (loaded: Loaded) => loaded.works.filter((w) => w.award).length;

async function buildView(db: Handle, c: ContestInfo, loaded?: Loaded): Promise<HonourView> {
  const data = loaded ?? (await contestWorks(db, c.id));
  const awarded = awardedCount(data);
  const workLevels = await workAwardLevels(db, c.level);
  const levels: HonourLevel[] = (await honourLevels(db, c.level)).map((l) => {
    const cap = honourCap(l, awarded);
    return {
      id: l.id,
      name: l.name,
      kind: l.kind,
      ratio: l.ratio,
      maxCount: l.maxCount,
      cap,
      rule: honourRule(l, workLevels, awarded, cap),
    };
  });
  return {
    levels,
    rows: await honourRows(db, c.id),
    published: !!(await activePublication(db, c.id)),
    awardedWorks: awarded,
    teachers: teacherOptions(data),
    schools: schoolOptions(data),
  };
}

export async function honoursView(db: Db, user: User, contestId: number): Promise<HonourView> {
  const c = await requireManagedContest(db, user, contestId);
  return buildView(db, c);
}

/** The result-version group of an honour level. */
const versionGroup = (trx: Handle, contestId: number, level: HonourLevelRef): VersionGroup => ({
  key: `h${level.id}`,
  name: level.name,
  rows: async () =>
    (await honourRows(trx, contestId, level.id)).map((r) => ({
      holderKind: r.holderKind,
      holderName: r.holderName,
      schoolName: r.schoolName,
      workId: r.workId,
      workTitle: r.workTitle,
      award: r.awardName,
      manual: r.manual,
    })),
});

export interface HonourOutcome {
  view: HonourView;
  /** what changed, in Chinese */
  info: string;
  /** the result version made (published results), else null */
  version: number | null;
}

/**
 * One change of a level's honours: in the results' transaction (also while published);
 * `plan` checks and returns what it will write (nothing written before it returns) with a
 * Chinese description, or null when nothing changes.
 */
async function changeHonours(
  db: Db,
  user: User,
  contestId: number,
  levelId: number | ((trx: Transaction<DB>, c: ContestInfo) => Promise<number>),
  reason: string | undefined,
  plan: (
    trx: Transaction<DB>,
    c: ContestInfo,
    level: HonourLevelRef,
    loaded: Loaded,
  ) => Promise<{ describe: string; audit: Record<string, [unknown, unknown]>; apply: () => Promise<void> } | null>,
): Promise<HonourOutcome> {
  return changeResults(
    db,
    user,
    contestId,
    async (trx, c) => {
      const id = typeof levelId === "number" ? levelId : await levelId(trx, c);
      const level = (await honourLevels(trx, c.level)).find((l) => l.id === id);
      if (!level) throw badRequest(`奖项 ${id} 不是${CONTEST_LEVEL_NAMES[c.level]}的优秀指导教师或优秀组织奖类奖项`);
      const loaded = await contestWorks(trx, c.id);
      const p = await plan(trx, c, level, loaded);
      if (!p) return { view: await buildView(trx, c, loaded), info: `「${level.name}」没有变化`, version: null };
      const why = reason?.trim();
      const text = `${level.name}：${p.describe}${why ? `（${why}）` : ""}`;
      const v = await changePublishedGroup(
        trx,
        { contestId: c.id, group: versionGroup(trx, c.id, level), reason: text, complaintId: null, userId: user.id },
        p.apply,
      );
      await record(trx, user.id, {
        entity: "contest_honour",
        entityId: `${c.id}:${level.id}`,
        action: "update",
        changes: { ...p.audit, ...(why ? { reason: [null, why] } : {}) },
      });
      const info = v.version !== null ? `${text}；已生成「${level.name}」结果第 ${v.version} 版，证书已同步` : text;
      return { view: await buildView(trx, c, loaded), info, version: v.version };
    },
    { whilePublished: true },
  );
}

/** 按规则生成: the level's rule fills it within the cap; rows set by hand kept (and counted). */
export async function proposeHonours(
  db: Db,
  user: User,
  contestId: number,
  body: { awardLevelId: number; reason?: string },
): Promise<HonourOutcome> {
  return changeHonours(db, user, contestId, body.awardLevelId, body.reason, async (trx, c, level, loaded) => {
    const awarded = awardedCount(loaded);
    if (!awarded) throw badRequest("本赛事还没有获奖作品，请先分配奖项，再按规则生成");
    const existing = await trx
      .selectFrom("contest_honour")
      .selectAll()
      .where("contest_id", "=", c.id)
      .where("award_level_id", "=", level.id)
      .execute();
    const manual = existing.filter((r) => Number(r.manual));
    const auto = existing.filter((r) => !Number(r.manual));
    const cap = honourCap(level, awarded);
    const slots = cap === null ? null : Math.max(0, cap - manual.length);
    const at = new Date().toISOString();
    type Want = { teacher_user_id: number | null; school_id: number; work_id: number | null; label: string };
    let wanted: Want[];
    if (level.kind === "teacher") {
      const taken = new Set(manual.map((r) => r.teacher_user_id!));
      wanted = proposeTeachers(loaded.works, loaded.teachers, slots, taken).map((p) => ({
        teacher_user_id: p.teacher.userId,
        school_id: p.teacher.schoolId,
        work_id: p.workId,
        label: p.teacher.name,
      }));
    } else {
      const taken = new Set(manual.map((r) => r.school_id));
      wanted = proposeSchools(loaded.works, await workAwardLevels(trx, c.level), slots, taken).map((s) => ({
        teacher_user_id: null,
        school_id: s.schoolId,
        work_id: null,
        label: s.schoolName,
      }));
    }
    const keyOf = (r: { teacher_user_id: number | null; school_id: number }) =>
      level.kind === "teacher" ? r.teacher_user_id! : r.school_id;
    const have = new Map(auto.map((r) => [keyOf(r), r]));
    const want = new Map(wanted.map((w) => [keyOf(w), w]));
    const removed = auto.filter((r) => !want.has(keyOf(r)));
    const added = wanted.filter((w) => !have.has(keyOf(w)));
    const moved = wanted.filter((w) => {
      const h = have.get(keyOf(w));
      return h && (Number(h.work_id) !== Number(w.work_id) || h.school_id !== w.school_id);
    });
    if (!removed.length && !added.length && !moved.length) return null;
    const parts = [
      added.length ? `按规则新增 ${added.length} 项` : "",
      removed.length ? `移除 ${removed.length} 项` : "",
      moved.length ? `更新 ${moved.length} 项的依据作品` : "",
    ].filter(Boolean);
    const kept = manual.length ? `，保留手动添加的 ${manual.length} 项` : "";
    return {
      describe: `${parts.join("，")}${kept}（${cap === null ? "不限名额" : `名额 ${cap}`}）`,
      audit: {
        propose: [
          null,
          { added: added.map((w) => w.label), removed: removed.map((r) => r.id), moved: moved.map((w) => w.label) },
        ],
      },
      apply: async () => {
        for (const part of chunks(removed.map((r) => r.id)))
          await trx.deleteFrom("contest_honour").where("id", "in", part).execute();
        for (const w of moved) {
          await trx
            .updateTable("contest_honour")
            .set({ work_id: w.work_id, school_id: w.school_id })
            .where("id", "=", have.get(keyOf(w))!.id)
            .execute();
        }
        for (const part of chunks(added)) {
          await trx
            .insertInto("contest_honour")
            .values(
              part.map((w) => ({
                contest_id: c.id,
                award_level_id: level.id,
                holder_kind: level.kind,
                teacher_user_id: w.teacher_user_id,
                school_id: w.school_id,
                work_id: w.work_id,
                manual: 0,
                created_at: at,
                created_by: user.id,
              })),
            )
            .execute();
        }
      },
    };
  });
}

/** Adds a holder by hand (kept by later proposals). */
export async function addHonour(db: Db, user: User, contestId: number, body: HonourAdd): Promise<HonourOutcome> {
  return changeHonours(db, user, contestId, body.awardLevelId, body.reason, async (trx, c, level, loaded) => {
    const existing = await trx
      .selectFrom("contest_honour")
      .selectAll()
      .where("contest_id", "=", c.id)
      .where("award_level_id", "=", level.id)
      .execute();
    const cap = honourCap(level, awardedCount(loaded));
    const full = () => {
      if (cap !== null && existing.length >= cap) throw badRequest(`「${level.name}」已达名额 ${cap}，请先移除一项再添加`);
    };
    let values: { teacher_user_id: number | null; school_id: number; work_id: number | null };
    let label: string;
    if (level.kind === "teacher") {
      if (!body.teacherUserId) throw badRequest(`请选择获得「${level.name}」的指导教师`);
      const advised = loaded.works
        .filter((w) => (loaded.teachers.get(w.id) ?? []).some((t) => t.userId === body.teacherUserId))
        .sort(byMerit);
      if (!advised.length) {
        const u = await trx.selectFrom("app_user").select("name").where("id", "=", body.teacherUserId).executeTakeFirst();
        throw badRequest(`${u ? `「${u.name}」` : `用户 ${body.teacherUserId} `}没有指导本赛事的作品，不能获得「${level.name}」`);
      }
      const work = body.workId !== undefined ? advised.find((w) => w.id === body.workId) : advised[0];
      if (!work) throw badRequest(`作品 ${body.workId} 不是该教师指导的本赛事作品`);
      const t = loaded.teachers.get(work.id)!.find((x) => x.userId === body.teacherUserId)!;
      if (existing.some((r) => r.teacher_user_id === t.userId)) throw badRequest(`「${t.name}」已获得本赛事的「${level.name}」`);
      full();
      values = { teacher_user_id: t.userId, school_id: t.schoolId, work_id: work.id };
      label = `${t.name}（${work.title}）`;
    } else {
      if (!body.schoolId) throw badRequest(`请选择获得「${level.name}」的学校`);
      const school = loaded.works.find((w) => w.schoolId === body.schoolId);
      if (!school) {
        const s = await trx.selectFrom("school").select("name").where("id", "=", body.schoolId).executeTakeFirst();
        throw badRequest(`${s ? `「${s.name}」` : `学校 ${body.schoolId} `}在本赛事没有参评作品，不能获得「${level.name}」`);
      }
      if (existing.some((r) => r.school_id === body.schoolId))
        throw badRequest(`「${school.schoolName}」已获得本赛事的「${level.name}」`);
      full();
      values = { teacher_user_id: null, school_id: school.schoolId, work_id: null };
      label = school.schoolName;
    }
    return {
      describe: `手动添加「${label}」`,
      audit: { add: [null, label] },
      apply: async () => {
        await trx
          .insertInto("contest_honour")
          .values({
            contest_id: c.id,
            award_level_id: level.id,
            holder_kind: level.kind,
            ...values,
            manual: 1,
            created_at: new Date().toISOString(),
            created_by: user.id,
          })
          .execute();
      },
    };
  });
}

const NO_HONOUR = "该荣誉记录不存在或已被移除";

/** Removes one holder (a rule's row comes back when the rule is run again). */
export async function removeHonour(db: Db, user: User, contestId: number, id: number, reason?: string): Promise<HonourOutcome> {
  const levelOf = async (trx: Transaction<DB>, c: ContestInfo) => {
    const row = await trx
      .selectFrom("contest_honour")
      .select("award_level_id")
      .where("contest_id", "=", c.id)
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw notFound(NO_HONOUR);
    return row.award_level_id;
  };
  return changeHonours(db, user, contestId, levelOf, reason, async (trx, c, level) => {
    const row = (await honourRows(trx, c.id, level.id)).find((r) => r.id === id);
    if (!row) throw notFound(NO_HONOUR);
    const label = row.holderKind === "teacher" && row.workTitle ? `${row.holderName}（${row.workTitle}）` : row.holderName;
    return {
      describe: `移除「${label}」${row.manual ? "（手动添加）" : ""}`,
      audit: { remove: [label, null] },
      apply: async () => {
        await trx.deleteFrom("contest_honour").where("id", "=", id).execute();
      },
    };
  });
}
