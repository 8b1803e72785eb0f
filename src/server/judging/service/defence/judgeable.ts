/**
 * Which works of a defence session each judge may judge: no conflict of interest (own
 * school outside a school-level contest, advised or authored works, declared conflicts,
 * with the national option the own province) and the work not disqualified.
 */
import type { Handle } from "../../../work/repository";
import { conflictsFor, type JudgeFacts, type WorkFacts } from "../../conflict";
import { declaredOf, judgeSchoolFacts, settingsOf, type ContestInfo } from "../contest";
import type { SlotRow } from "./rows";

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
export async function judgeable(
  db: Handle,
  c: ContestInfo,
  slots: SlotRow[],
  userIds: number[],
): Promise<Map<number, Set<number>>> {
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
