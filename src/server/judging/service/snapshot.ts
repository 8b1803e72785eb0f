/**
 * Loads the plain snapshot the assigner and checkProposal read (assign/types.ts) from the
 * database, through the handle it is given (the writer's transaction): the pool's works
 * with their school, province, advisors, authors, judge group and existing judges; the
 * contest's judges with their school, province, declared conflicts, capacity and the load
 * they carry on works outside the snapshot; the groups and their judges.
 *
 * When the contest has judge groups, a work must be in one to be assigned: ungrouped works
 * are left out and listed. Without groups every judge may take every work.
 */
import type { JudgingSettings } from "../../../shared/judging/schema";
import type { AssignGroup, AssignInput, AssignJudge, AssignWork } from "../assign";
import type { Handle } from "../../work/repository";
import { contestJudges, declaredOf, judgeSchoolFacts, poolWorks, type ContestInfo, type JudgeRow } from "./contest";

export interface WorkMeta {
  id: number;
  name: string;
  groupId: number | null;
  categoryId: number;
}

export interface LoadedSnapshot {
  input: AssignInput;
  works: Map<number, WorkMeta>;
  judges: JudgeRow[];
  groups: { id: number; name: string; judgeIds: number[] }[];
  /** pool works left out because the contest has groups and they are in none */
  ungrouped: WorkMeta[];
  /** every current assignment of the contest */
  assignments: { id: number; work_id: number; judge_id: number; group_id: number | null }[];
}

const chunks = <T>(list: T[], n = 500) =>
  Array.from({ length: Math.ceil(list.length / n) }, (_, i) => list.slice(i * n, i * n + n));

export async function loadSnapshot(
  db: Handle,
  c: ContestInfo,
  settings: JudgingSettings,
  only?: readonly number[],
): Promise<LoadedSnapshot> {
  const pool = await poolWorks(db, c)
    .innerJoin("school", "school.id", "work.school_id")
    .select(["work.id", "work.name", "work.school_id", "work.category_id", "school.province"])
    .orderBy("work.id")
    .execute();
  const groupRows = await db
    .selectFrom("judge_group")
    .select(["id", "name"])
    .where("contest_id", "=", c.id)
    .orderBy("id")
    .execute();
  const members = groupRows.length
    ? await db
        .selectFrom("judge_group_member")
        .select(["group_id", "user_id"])
        .where(
          "group_id",
          "in",
          groupRows.map((g) => g.id),
        )
        .execute()
    : [];
  const placed = new Map(
    (await db.selectFrom("judge_group_work").select(["work_id", "group_id"]).where("contest_id", "=", c.id).execute()).map(
      (r) => [Number(r.work_id), r.group_id],
    ),
  );
  const assignments = (
    await db
      .selectFrom("judge_assignment")
      .select(["id", "work_id", "judge_id", "group_id"])
      .where("contest_id", "=", c.id)
      .execute()
  ).map((a) => ({ ...a, work_id: Number(a.work_id) }));

  const hasGroups = groupRows.length > 0;
  const onlySet = only ? new Set(only) : null;
  const metas = pool.map((w) => ({
    id: Number(w.id),
    name: w.name,
    groupId: placed.get(Number(w.id)) ?? null,
    categoryId: w.category_id,
  }));
  const ungrouped = hasGroups ? metas.filter((m) => m.groupId === null && (!onlySet || onlySet.has(m.id))) : [];
  const inSnapshot = new Set(
    metas.filter((m) => (!onlySet || onlySet.has(m.id)) && (!hasGroups || m.groupId !== null)).map((m) => m.id),
  );

  const ids = [...inSnapshot];
  const advisors = new Map<number, number[]>();
  const authors = new Map<number, number[]>();
  for (const part of chunks(ids)) {
    for (const t of await db.selectFrom("work_teacher").select(["work_id", "user_id"]).where("work_id", "in", part).execute())
      advisors.set(Number(t.work_id), [...(advisors.get(Number(t.work_id)) ?? []), t.user_id]);
    for (const a of await db.selectFrom("work_author").select(["work_id", "user_id"]).where("work_id", "in", part).execute())
      authors.set(Number(a.work_id), [...(authors.get(Number(a.work_id)) ?? []), a.user_id]);
  }
  const existing = new Map<number, number[]>();
  const outside = new Map<number, number>();
  for (const a of assignments) {
    if (inSnapshot.has(a.work_id)) existing.set(a.work_id, [...(existing.get(a.work_id) ?? []), a.judge_id]);
    else outside.set(a.judge_id, (outside.get(a.judge_id) ?? 0) + 1);
  }

  const needed = settings.reviewsPerWork;
  const works: AssignWork[] = pool
    .filter((w) => inSnapshot.has(Number(w.id)))
    .map((w) => {
      const id = Number(w.id);
      const groupId = placed.get(id);
      return {
        id,
        schoolId: w.school_id,
        province: w.province,
        advisorIds: advisors.get(id) ?? [],
        authorIds: authors.get(id) ?? [],
        needed,
        existingJudgeIds: existing.get(id) ?? [],
        ...(hasGroups && groupId !== undefined ? { groupId } : {}),
      };
    });

  const judgeRows = await contestJudges(db, c);
  const declared = await declaredOf(
    db,
    judgeRows.map((j) => j.id),
  );
  // No limit: a judge can take each work at most once anyway.
  const capacity = settings.judgeCapacity ?? Math.max(pool.length, 1);
  const judges: AssignJudge[] = judgeRows.map((j) => ({
    id: j.id,
    ...judgeSchoolFacts(c, j),
    declared: declared.get(j.id),
    capacity,
    load: outside.get(j.id) ?? 0,
  }));
  const judgeIds = new Set(judgeRows.map((j) => j.id));
  const groups = groupRows.map((g) => ({
    id: g.id,
    name: g.name,
    judgeIds: members.filter((m) => m.group_id === g.id && judgeIds.has(m.user_id)).map((m) => m.user_id),
  }));

  return {
    input: { works, judges, groups: groups as AssignGroup[], conflictOptions: { avoidProvince: settings.avoidProvince } },
    works: new Map(metas.map((m) => [m.id, m])),
    judges: judgeRows,
    groups,
    ungrouped,
    assignments,
  };
}
