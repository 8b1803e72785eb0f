/**
 * The check report of a contest's judging setting (/contest-admin/check-group-setting):
 * every current assignment checked against conflict.ts (with declared conflicts) and its
 * reasons; assignments outside the setting (judge not in the work's group, work no longer
 * judged, judge no longer of the contest); the load of each judge and of each group (min,
 * max, spread); works with fewer judges than the contest's N; judges and works without a
 * group. Each line names what to fix; the fixes are the assignment endpoints (remove,
 * replace, re-run the automatic assignment, which keeps existing rows and fills the gaps).
 */
import { conflictsFor, formatConflictReasons, type JudgeFacts, type WorkFacts } from "../conflict";
import type { CheckReport } from "../../../shared/judging/schema";
import { WORK_STATE_NAMES } from "../../../shared/work/states";
import type { Db } from "../../db";
import type { User } from "../../db/schema";
import { declaredOf, judgeSchoolFacts, requireManagedContest, settingsOf, type ContestInfo } from "./contest";
import { loadSnapshot } from "./snapshot";

/** Lists in the report stop here; the summary counts everything. */
const MAX_LINES = 2000;
const stats = (loads: number[]) => {
  if (!loads.length) return { min: 0, max: 0, spread: 0 };
  const min = Math.min(...loads);
  const max = Math.max(...loads);
  return { min, max, spread: max - min };
};

/** Facts of assigned works outside the snapshot (ungrouped, or no longer judged). */
async function factsOf(db: Db, ids: number[]) {
  const out = new Map<number, WorkFacts & { name: string; status: keyof typeof WORK_STATE_NAMES }>();
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const works = await db
      .selectFrom("work")
      .innerJoin("school", "school.id", "work.school_id")
      .select(["work.id", "work.name", "work.status", "work.school_id", "school.province"])
      .where("work.id", "in", part)
      .execute();
    const teachers = await db.selectFrom("work_teacher").select(["work_id", "user_id"]).where("work_id", "in", part).execute();
    const authors = await db.selectFrom("work_author").select(["work_id", "user_id"]).where("work_id", "in", part).execute();
    for (const w of works) {
      const id = Number(w.id);
      out.set(id, {
        id,
        name: w.name,
        status: w.status,
        schoolId: w.school_id,
        province: w.province,
        advisorIds: teachers.filter((t) => Number(t.work_id) === id).map((t) => t.user_id),
        authorIds: authors.filter((a) => Number(a.work_id) === id).map((a) => a.user_id),
      });
    }
  }
  return out;
}

type Snapshot = Awaited<ReturnType<typeof loadSnapshot>>;

/** The conflict facts of the contest's judges and of judges assigned but no longer of the contest. */
async function judgesOf(db: Db, c: ContestInfo, snap: Snapshot) {
  const judges = new Map<number, JudgeFacts & { name: string }>(
    snap.judges.map((j) => [j.id, { id: j.id, name: j.name, ...judgeSchoolFacts(c, j) }]),
  );
  const strangers = [...new Set(snap.assignments.map((a) => a.judge_id))].filter((id) => !judges.has(id));
  if (strangers.length) {
    const rows = await db
      .selectFrom("app_user")
      .leftJoin("school", "school.id", "app_user.school_id")
      .select(["app_user.id", "app_user.name", "app_user.school_id", "school.province"])
      .where("app_user.id", "in", strangers)
      .execute();
    for (const r of rows) judges.set(r.id, { id: r.id, name: r.name, ...judgeSchoolFacts(c, r) });
  }
  const declared = await declaredOf(db, [...judges.keys()]);
  for (const [id, j] of judges) j.declared = declared.get(id);
  return judges;
}

interface AssignmentFacts {
  works: Map<number, WorkFacts>;
  judges: Map<number, JudgeFacts & { name: string }>;
  extra: Awaited<ReturnType<typeof factsOf>>;
  opts: { avoidProvince: boolean };
  nameOfWork: (id: number) => string;
  groupOfWork: Map<number, number | null>;
  groupById: Map<number, Snapshot["groups"][number]>;
}

/** Every current assignment: its conflicts, and whether it lies outside the setting (misplaced). */
function checkAssignments(snap: Snapshot, f: AssignmentFacts) {
  const { works, judges, extra, opts, nameOfWork, groupOfWork, groupById } = f;
  const judgeIds = new Set(snap.judges.map((j) => j.id));
  const conflicts: CheckReport["conflicts"] = [];
  const misplaced: CheckReport["misplaced"] = [];
  for (const a of snap.assignments) {
    const j = judges.get(a.judge_id);
    const w = works.get(a.work_id);
    if (j && w) {
      const reasons = conflictsFor(j, w, opts);
      if (reasons.length)
        conflicts.push({
          assignmentId: a.id,
          workId: a.work_id,
          workName: nameOfWork(a.work_id),
          judgeId: a.judge_id,
          judgeName: j.name,
          reasons,
          reasonText: formatConflictReasons(reasons),
        });
    }
    const judgeName = j?.name ?? String(a.judge_id);
    if (!snap.works.has(a.work_id)) {
      const st = extra.get(a.work_id)?.status;
      misplaced.push({
        assignmentId: a.id,
        workId: a.work_id,
        judgeId: a.judge_id,
        message: `作品 ${a.work_id}「${nameOfWork(a.work_id)}」已不在评审作品中${st ? `（当前状态：${WORK_STATE_NAMES[st]}）` : ""}`,
      });
    } else if (!judgeIds.has(a.judge_id)) {
      misplaced.push({
        assignmentId: a.id,
        workId: a.work_id,
        judgeId: a.judge_id,
        message: `「${judgeName}」已不是本赛事的评委`,
      });
    } else {
      const g = groupOfWork.get(a.work_id);
      if (g != null && !groupById.get(g)?.judgeIds.includes(a.judge_id)) {
        misplaced.push({
          assignmentId: a.id,
          workId: a.work_id,
          judgeId: a.judge_id,
          message: `评委「${judgeName}」不在作品 ${a.work_id} 所属的评审组「${groupById.get(g)?.name ?? g}」中`,
        });
      }
    }
  }
  return { conflicts, misplaced };
}

export async function checkReport(db: Db, user: User, contestId: number): Promise<CheckReport> {
  const c = await requireManagedContest(db, user, contestId);
  const settings = await settingsOf(db, c.id);
  const snap = await loadSnapshot(db, c, settings);
  const opts = { avoidProvince: settings.avoidProvince };
  const N = settings.reviewsPerWork;

  const works = new Map<number, WorkFacts>(snap.input.works.map((w) => [w.id, w]));
  const missingWorks = [...new Set(snap.assignments.map((a) => a.work_id))].filter((id) => !works.has(id));
  const extra = await factsOf(db, missingWorks);
  for (const [id, f] of extra) works.set(id, f);

  const judges = await judgesOf(db, c, snap);

  const nameOfWork = (id: number) => snap.works.get(id)?.name ?? extra.get(id)?.name ?? String(id);
  const groupOfWork = new Map([...snap.works.values()].map((w) => [w.id, w.groupId]));
  const groupById = new Map(snap.groups.map((g) => [g.id, g]));

  const { conflicts, misplaced } = checkAssignments(snap, { works, judges, extra, opts, nameOfWork, groupOfWork, groupById });

  const load = new Map<number, number>();
  const have = new Map<number, number>();
  for (const a of snap.assignments) {
    load.set(a.judge_id, (load.get(a.judge_id) ?? 0) + 1);
    have.set(a.work_id, (have.get(a.work_id) ?? 0) + 1);
  }
  const groupsOfJudge = (id: number) => snap.groups.filter((g) => g.judgeIds.includes(id)).map((g) => g.name);
  const judgeLoads = snap.judges.map((j) => ({
    judgeId: j.id,
    name: j.name,
    schoolName: j.school_name,
    groups: groupsOfJudge(j.id),
    load: load.get(j.id) ?? 0,
    capacity: settings.judgeCapacity,
  }));

  const groupLoads = snap.groups.map((g) => {
    const inGroup = snap.assignments.filter((a) => groupOfWork.get(a.work_id) === g.id);
    const per = g.judgeIds.map((id) => inGroup.filter((a) => a.judge_id === id).length);
    return {
      groupId: g.id,
      name: g.name,
      judges: g.judgeIds.length,
      works: [...snap.works.values()].filter((w) => w.groupId === g.id).length,
      assignments: inGroup.length,
      ...stats(per),
    };
  });

  const short = [...snap.works.values()].filter((w) => (have.get(w.id) ?? 0) < N);
  const hasGroups = snap.groups.length > 0;
  const withoutGroup = hasGroups ? snap.judges.filter((j) => !snap.groups.some((g) => g.judgeIds.includes(j.id))) : [];
  const categoryNames = new Map(
    (await db.selectFrom("work_category").select(["id", "name"]).where("parent_id", "is", null).execute()).map((r) => [
      r.id,
      r.name,
    ]),
  );

  return {
    contest: { id: c.id, name: c.name },
    settings,
    summary: {
      works: snap.works.size,
      assignments: snap.assignments.length,
      judges: snap.judges.length,
      groups: snap.groups.length,
      conflicts: conflicts.length,
      misplaced: misplaced.length,
      shortWorks: short.length,
      judgesWithoutGroup: withoutGroup.length,
      worksWithoutGroup: snap.ungrouped.length,
    },
    conflicts: conflicts.slice(0, MAX_LINES),
    misplaced: misplaced.slice(0, MAX_LINES),
    judgeLoads,
    groupLoads,
    overall: stats(judgeLoads.map((l) => l.load)),
    shortWorks: short.slice(0, MAX_LINES).map((w) => ({
      workId: w.id,
      name: w.name,
      groupName: w.groupId !== null ? (groupById.get(w.groupId)?.name ?? null) : null,
      have: have.get(w.id) ?? 0,
      needed: N,
    })),
    judgesWithoutGroup: withoutGroup.map((j) => ({ id: j.id, name: j.name })),
    worksWithoutGroup: snap.ungrouped
      .slice(0, MAX_LINES)
      .map((w) => ({ id: w.id, name: w.name, categoryName: categoryNames.get(w.categoryId) ?? "" })),
  };
}
