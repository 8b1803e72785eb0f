/**
 * Declared conflicts (申报回避): a judge–work, judge–school or judge–student pair with a
 * note (a student conflict, target "u:<user id>", avoids every work the student authors,
 * e.g. the judge's advised students or relatives). A judge
 * declares and withdraws their own; a contest admin those of the judges of the own
 * contests (and their children); root any. conflict.ts turns them into the "declared"
 * reason for the assigner, the writer's check and the check report.
 */
import { conflict, forbidden, invalid, notFound } from "../../../shared/errors";
import { ROLE } from "../../../shared/roles";
import type { DeclaredConflictCreate, DeclaredConflictView } from "../../../shared/judging/schema";
import type { Db } from "../../db";
import type { User } from "../../db/schema";
import { record } from "../../common/audit";
import { adminContestIds } from "../../scope";
import type { Handle } from "../../work/repository";

const NO_JUDGE = "评委不存在或不在您的管理范围内";
const NO_CONFLICT = "回避记录不存在或不在您的管理范围内";

/** Judge ids the user may manage conflicts of: "all" (root), own (judge), the own contests' judges (contest admin). */
async function judgeScope(db: Handle, user: User, contestId?: number): Promise<number[] | "all"> {
  if (user.user_type === ROLE.judge) return [user.id];
  const contests = await adminContestIds(db, user);
  if (contests === "all" && contestId === undefined) return "all";
  const ids = contests === "all" ? [contestId!] : contestId !== undefined ? contests.filter((c) => c === contestId) : contests;
  if (contestId !== undefined && !ids.length) throw notFound("赛事不存在或不在您的管理范围内");
  if (!ids.length) return [];
  return (
    await db
      .selectFrom("contest_member")
      .innerJoin("app_user", "app_user.id", "contest_member.user_id")
      .select("contest_member.user_id")
      .distinct()
      .where("contest_member.contest_id", "in", ids)
      .where("contest_member.role", "=", "judge")
      .where("app_user.user_type", "=", ROLE.judge)
      .execute()
  ).map((r) => r.user_id);
}

const rows = (db: Handle) =>
  db
    .selectFrom("declared_conflict as dc")
    .innerJoin("app_user as j", "j.id", "dc.judge_id")
    .leftJoin("work", "work.id", "dc.work_id")
    .leftJoin("school", "school.id", "dc.school_id")
    .leftJoin("app_user as st", "st.id", "dc.user_id")
    .leftJoin("school as sts", "sts.id", "st.school_id")
    .leftJoin("app_user as by", "by.id", "dc.created_by")
    .select([
      "dc.id",
      "dc.judge_id",
      "j.name as judge_name",
      "j.username as judge_username",
      "dc.work_id",
      "work.name as work_name",
      "dc.school_id",
      "school.name as school_name",
      "dc.note",
      "dc.created_by",
      "by.name as by_name",
      "dc.created_at",
    ])
    .select(["dc.user_id", "st.name as student_name", "sts.name as student_school"]);

type Row = Awaited<ReturnType<ReturnType<typeof rows>["executeTakeFirstOrThrow"]>>;
const toView = (r: Row): DeclaredConflictView => ({
  id: r.id,
  judge: { id: r.judge_id, name: r.judge_name, username: r.judge_username },
  work: r.work_id !== null ? { id: Number(r.work_id), name: r.work_name ?? "" } : null,
  school: r.school_id !== null ? { id: r.school_id, name: r.school_name ?? "" } : null,
  student: r.user_id !== null ? { id: r.user_id, name: r.student_name ?? "", school: r.student_school ?? null } : null,
  note: r.note,
  createdBy: r.created_by !== null ? { id: r.created_by, name: r.by_name ?? "" } : null,
  createdAt: r.created_at,
});

export async function listConflicts(
  db: Db,
  user: User,
  f: { judgeId?: number; contestId?: number },
): Promise<DeclaredConflictView[]> {
  const scope = await judgeScope(db, user, f.contestId);
  let q = rows(db);
  if (scope !== "all") {
    if (!scope.length) return [];
    q = q.where("dc.judge_id", "in", scope);
  }
  if (f.judgeId !== undefined) q = q.where("dc.judge_id", "=", f.judgeId);
  return (await q.orderBy("j.name").orderBy("dc.id").execute()).map(toView);
}

export async function createConflict(db: Db, user: User, input: DeclaredConflictCreate): Promise<DeclaredConflictView> {
  return db.transaction().execute(async (trx) => {
    const isJudge = user.user_type === ROLE.judge;
    if (isJudge && input.judgeId !== undefined && input.judgeId !== user.id) throw forbidden("评委只能申报本人的回避关系");
    const judgeId = isJudge ? user.id : input.judgeId;
    if (judgeId === undefined) throw invalid("judgeId", "请选择评委");
    const scope = await judgeScope(trx, user);
    const judge = await trx
      .selectFrom("app_user")
      .select(["id", "name"])
      .where("id", "=", judgeId)
      .where("user_type", "=", ROLE.judge)
      .executeTakeFirst();
    if (!judge || (scope !== "all" && !scope.includes(judgeId))) throw notFound(NO_JUDGE);
    const given = [input.workId, input.schoolId, input.userId].filter((x) => x !== undefined).length;
    if (given !== 1) throw invalid("workId", "请填写作品编号、选择学校或选择学生（三选一）");
    let target: string;
    let what: string;
    if (input.workId !== undefined) {
      if (!(await trx.selectFrom("work").select("id").where("id", "=", input.workId).executeTakeFirst()))
        throw invalid("workId", `作品 ${input.workId} 不存在`);
      target = `w:${input.workId}`;
      what = "作品";
    } else if (input.userId !== undefined) {
      if (
        !(await trx
          .selectFrom("app_user")
          .select("id")
          .where("id", "=", input.userId)
          .where("user_type", "=", ROLE.author)
          .executeTakeFirst())
      )
        throw invalid("userId", "学生不存在");
      target = `u:${input.userId}`;
      what = "学生";
    } else {
      if (!(await trx.selectFrom("school").select("id").where("id", "=", input.schoolId!).executeTakeFirst()))
        throw invalid("schoolId", "学校不存在");
      target = `s:${input.schoolId}`;
      what = "学校";
    }
    if (
      await trx
        .selectFrom("declared_conflict")
        .select("id")
        .where("judge_id", "=", judgeId)
        .where("target", "=", target)
        .executeTakeFirst()
    ) {
      throw conflict(`评委「${judge.name}」已申报过该${what}的回避关系`);
    }
    const { id } = await trx
      .insertInto("declared_conflict")
      .values({
        judge_id: judgeId,
        work_id: input.workId ?? null,
        school_id: input.schoolId ?? null,
        user_id: input.userId ?? null,
        target,
        note: input.note?.trim() ?? "",
        created_by: user.id,
        created_at: new Date().toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await record(trx, user.id, {
      entity: "declared_conflict",
      entityId: id,
      action: "create",
      changes: { judgeId: [null, judgeId], target: [null, target], note: [null, input.note ?? ""] },
    });
    return toView(await rows(trx).where("dc.id", "=", id).executeTakeFirstOrThrow());
  });
}

export async function deleteConflict(db: Db, user: User, id: number): Promise<DeclaredConflictView> {
  return db.transaction().execute(async (trx) => {
    const row = await rows(trx).where("dc.id", "=", id).executeTakeFirst();
    const scope = await judgeScope(trx, user);
    if (!row || (scope !== "all" && !scope.includes(row.judge_id))) throw notFound(NO_CONFLICT);
    await trx.deleteFrom("declared_conflict").where("id", "=", id).execute();
    await record(trx, user.id, {
      entity: "declared_conflict",
      entityId: id,
      action: "delete",
      changes: {
        judgeId: [row.judge_id, null],
        target: [
          row.work_id !== null ? `w:${row.work_id}` : row.user_id !== null ? `u:${row.user_id}` : `s:${row.school_id}`,
          null,
        ],
      },
    });
    return toView(row);
  });
}

export interface ConflictTargets {
  schoolIds?: readonly number[];
  workIds?: readonly number[];
  /** students (advised students): target "u:<user id>" */
  studentIds?: readonly number[];
}

/**
 * Declares a judge's conflicts inside the caller's transaction (accepting an invitation):
 * every target must exist (a student must be a student's account) — else a 422 and the caller's
 * transaction writes nothing; targets already declared are kept as they are. Returns how many
 * were added.
 */
export async function addDeclaredConflicts(
  trx: Handle,
  byUserId: number,
  judgeId: number,
  t: ConflictTargets,
  note: string,
): Promise<number> {
  const schools = [...new Set(t.schoolIds ?? [])];
  const works = [...new Set(t.workIds ?? [])];
  const students = [...new Set(t.studentIds ?? [])];
  if (schools.length) {
    const found = new Set((await trx.selectFrom("school").select("id").where("id", "in", schools).execute()).map((r) => r.id));
    const missing = schools.find((id) => !found.has(id));
    if (missing !== undefined) throw invalid("conflicts.schoolIds", `回避学校（编号 ${missing}）不存在`);
  }
  if (works.length) {
    const found = new Set(
      (await trx.selectFrom("work").select("id").where("id", "in", works).execute()).map((r) => Number(r.id)),
    );
    const missing = works.find((id) => !found.has(id));
    if (missing !== undefined) throw invalid("conflicts.workIds", `回避作品 ${missing} 不存在`);
  }
  if (students.length) {
    const found = new Set(
      (
        await trx.selectFrom("app_user").select("id").where("id", "in", students).where("user_type", "=", ROLE.author).execute()
      ).map((r) => r.id),
    );
    const missing = students.find((id) => !found.has(id));
    if (missing !== undefined) throw invalid("conflicts.studentIds", `回避学生（编号 ${missing}）不存在`);
  }
  const rows = [
    ...schools.map((id) => ({ target: `s:${id}`, school_id: id, work_id: null, user_id: null })),
    ...works.map((id) => ({ target: `w:${id}`, school_id: null, work_id: id, user_id: null })),
    ...students.map((id) => ({ target: `u:${id}`, school_id: null, work_id: null, user_id: id })),
  ];
  if (!rows.length) return 0;
  const have = new Set(
    (await trx.selectFrom("declared_conflict").select("target").where("judge_id", "=", judgeId).execute()).map((r) => r.target),
  );
  const fresh = rows.filter((r) => !have.has(r.target));
  if (!fresh.length) return 0;
  const at = new Date().toISOString();
  const ids = await trx
    .insertInto("declared_conflict")
    .values(fresh.map((r) => ({ judge_id: judgeId, ...r, note: note.trim(), created_by: byUserId, created_at: at })))
    .returning("id")
    .execute();
  await record(
    trx,
    byUserId,
    ids.map(({ id }, i) => ({
      entity: "declared_conflict",
      entityId: id,
      action: "create",
      changes: { judgeId: [null, judgeId], target: [null, fresh[i].target], note: [null, note.trim()] },
    })),
  );
  return fresh.length;
}
