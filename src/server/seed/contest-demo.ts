/**
 * Demo contest settings: codes, all 大类 open, quotas, and stages across the year with
 * registration open at seeding time (later stages move back when the year is advanced).
 */
import type { Transaction } from "kysely";
import type { DB } from "../db/schema";
import { STAGE_KEYS, type StageKey } from "../../shared/contest/stages";

const DAY = 86_400_000;
const PROVINCE_CODES: Record<string, string> = { 浙江省: "ZJ", 江苏省: "JS" };

/** [stage, start "MM-DD", end "MM-DD" (inclusive)], Beijing time. */
const TIMELINE: [StageKey, string, string][] = [
  ["registration", "01-01", "04-30"],
  ["school_review", "05-01", "05-15"],
  ["format_review", "05-16", "05-31"],
  ["online_judging", "06-01", "06-30"],
  ["offline_judging", "07-15", "08-20"],
  ["publicity", "09-01", "09-15"],
  ["complaint", "09-01", "09-30"],
];

export function demoStages(year: number, now = new Date()): { stage: StageKey; startsAt: string; endsAt: string }[] {
  const at = (md: string, endOfDay = false) => Date.parse(`${year}-${md}T00:00:00+08:00`) + (endOfDay ? DAY : 0);
  const regEnd = at("04-30", true);
  // Keep registration open for another month when the demo is seeded late in the year.
  const shift = now.getTime() >= at("01-01") ? Math.max(0, now.getTime() + 30 * DAY - regEnd) : 0;
  return TIMELINE.map(([stage, from, to]) => {
    const start = stage === "registration" ? at(from) : at(from) + shift;
    return { stage, startsAt: new Date(start).toISOString(), endsAt: new Date(at(to, true) + shift).toISOString() };
  }).sort((a, b) => STAGE_KEYS.indexOf(a.stage) - STAGE_KEYS.indexOf(b.stage));
}

/** Settings for the contests of the year (or only the contests `only`, e.g. ones a later demo adds). */
export async function seedContestSettings(trx: Transaction<DB>, year: number, now = new Date(), only?: number[]) {
  const categories = (
    await trx.selectFrom("work_category").select("id").where("parent_id", "is", null).orderBy("sort").execute()
  ).map((c) => c.id);
  let q = trx
    .selectFrom("contest")
    .leftJoin("school", "school.id", "contest.school_id")
    .select(["contest.id", "contest.level", "contest.province", "school.code as school_code"])
    .where("contest.year", "=", year);
  if (only) q = q.where("contest.id", "in", only.length ? only : [-1]);
  const contests = await q.execute();
  const stages = demoStages(year, now);
  for (const c of contests) {
    const code =
      c.level === "national"
        ? `${year}-CN`
        : c.level === "provincial"
          ? `${year}-${PROVINCE_CODES[c.province ?? ""] ?? `P${c.id}`}`
          : `${year}-${PROVINCE_CODES[c.province ?? ""] ?? "S"}-${c.school_code ?? c.id}`;
    // A provincial contest may recommend 200 works to the national one, a school 30 to its province.
    const quota = c.level === "provincial" ? 200 : c.level === "school" ? 30 : null;
    const perCategory = c.level === "provincial" ? 40 : c.level === "school" ? 10 : null;
    await trx
      .updateTable("contest")
      .set({
        code,
        description: c.level === "national" ? "中国大学生计算机设计大赛国赛，接收各省级赛推荐的作品。" : null,
        categories: JSON.stringify(categories),
        recommend_quota: quota,
        category_quotas: JSON.stringify(
          perCategory === null ? {} : Object.fromEntries(categories.map((id) => [String(id), perCategory])),
        ),
      })
      .where("id", "=", c.id)
      .execute();
    await trx
      .insertInto("contest_stage")
      .values(stages.map((s) => ({ contest_id: c.id, stage: s.stage, starts_at: s.startsAt, ends_at: s.endsAt })))
      .execute();
  }
}
