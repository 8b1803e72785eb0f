/**
 * The rules of the teacher and school honours (优秀指导教师, 优秀组织奖), pure: the cap of a
 * level, the merit order of awarded works, the holders a rule proposes (proposeTeachers,
 * proposeSchools) and the rule's text in Chinese. honours.ts loads the facts and applies them.
 */
import type { AwardLevelRef } from "../../../../shared/judging/result-schema";

export type HonourKind = "teacher" | "school";

export interface HonourLevelRef {
  id: number;
  name: string;
  kind: HonourKind;
  ratio: number | null;
  maxCount: number | null;
  sort: number;
}

/** The cap for `awarded` awarded works: min(max count, round(ratio × awarded)) of those set; null when neither is. */
export function honourCap(level: { ratio: number | null; maxCount: number | null }, awarded: number): number | null {
  const byRatio = level.ratio === null ? null : Math.round(level.ratio * awarded);
  if (byRatio === null) return level.maxCount;
  return level.maxCount === null ? byRatio : Math.min(byRatio, level.maxCount);
}

/** A work of the contest's results (not disqualified), with its award when it has one. */
export interface ContestWork {
  id: number;
  title: string;
  schoolId: number;
  schoolName: string;
  rank: number | null;
  normalised: number | null;
  award: { id: number; name: string; sort: number } | null;
}

export interface WorkTeacher {
  userId: number;
  name: string;
  /** the teacher's own school, else the work's */
  schoolId: number;
  schoolName: string;
}

/** Best first: award (by sort), rank in its group, normalised score, work id. */
export function byMerit(a: ContestWork, b: ContestWork): number {
  const sa = a.award?.sort ?? Number.POSITIVE_INFINITY;
  const sb = b.award?.sort ?? Number.POSITIVE_INFINITY;
  if (sa !== sb) return sa - sb;
  const ra = a.rank ?? Number.POSITIVE_INFINITY;
  const rb = b.rank ?? Number.POSITIVE_INFINITY;
  if (ra !== rb) return ra - rb;
  const na = a.normalised ?? Number.NEGATIVE_INFINITY;
  const nb = b.normalised ?? Number.NEGATIVE_INFINITY;
  if (na !== nb) return nb - na;
  return a.id - b.id;
}

/**
 * 优秀指导教师 by rule: the awarded works best first, each work's teachers in their order,
 * one row per teacher (with the best awarded work they advised), until `slots` are filled;
 * teachers in `taken` (rows set by hand) are skipped.
 */
export function proposeTeachers(
  works: readonly ContestWork[],
  teachers: ReadonlyMap<number, readonly WorkTeacher[]>,
  slots: number | null,
  taken: ReadonlySet<number>,
) {
  const out: { teacher: WorkTeacher; workId: number }[] = [];
  const seen = new Set(taken);
  for (const w of [...works].filter((x) => x.award).sort(byMerit)) {
    for (const t of teachers.get(w.id) ?? []) {
      if (slots !== null && out.length >= slots) return out;
      if (seen.has(t.userId)) continue;
      seen.add(t.userId);
      out.push({ teacher: t, workId: w.id });
    }
  }
  return out;
}

/** The points of each work award: the lowest 1, each higher one more (一等奖 4 … 优秀奖 1 with four). */
export const awardPoints = (levels: readonly AwardLevelRef[]) => new Map(levels.map((l, i) => [l.id, levels.length - i]));

export interface SchoolScore {
  schoolId: number;
  schoolName: string;
  points: number;
  /** awarded works per work award, in the levels' order */
  counts: number[];
  awarded: number;
}

/**
 * 优秀组织奖 by rule: the schools with awarded works ranked by points (awardPoints), then by
 * their counts of each award from the highest, then by awarded works, then by id; the first
 * `slots`, skipping schools in `taken` (rows set by hand).
 */
export function proposeSchools(
  works: readonly ContestWork[],
  levels: readonly AwardLevelRef[],
  slots: number | null,
  taken: ReadonlySet<number>,
): SchoolScore[] {
  const points = awardPoints(levels);
  const index = new Map(levels.map((l, i) => [l.id, i]));
  const by = new Map<number, SchoolScore>();
  for (const w of works) {
    if (!w.award || !points.has(w.award.id)) continue;
    const s = by.get(w.schoolId) ?? {
      schoolId: w.schoolId,
      schoolName: w.schoolName,
      points: 0,
      counts: levels.map(() => 0),
      awarded: 0,
    };
    s.points += points.get(w.award.id)!;
    s.counts[index.get(w.award.id)!]++;
    s.awarded++;
    by.set(w.schoolId, s);
  }
  const ranked = [...by.values()].sort((a, b) => {
    if (a.points !== b.points) return b.points - a.points;
    for (let i = 0; i < a.counts.length; i++) if (a.counts[i] !== b.counts[i]) return b.counts[i] - a.counts[i];
    if (a.awarded !== b.awarded) return b.awarded - a.awarded;
    return a.schoolId - b.schoolId;
  });
  const free = ranked.filter((s) => !taken.has(s.schoolId));
  return slots === null ? free : free.slice(0, slots);
}

const pct = (r: number) => `${Math.round(r * 10000) / 100}%`;

/** How the cap is reached, in Chinese. */
function capText(level: HonourLevelRef, awarded: number, cap: number | null, unit: string): string {
  if (cap === null) return `不限${unit === "人" ? "人数" : "数量"}（本奖项未设比例和名额）`;
  const parts: string[] = [];
  if (level.ratio !== null)
    parts.push(`获奖作品 ${awarded} 件 × ${pct(level.ratio)} 四舍五入为 ${Math.round(level.ratio * awarded)}`);
  if (level.maxCount !== null) parts.push(`最多 ${level.maxCount} ${unit}`);
  return `名额 ${cap} ${unit}（${parts.join("，")}${parts.length > 1 ? "，取较小者" : ""}）`;
}

/** The rule of a level, in Chinese (HonourLevel.rule). */
export function honourRule(
  level: HonourLevelRef,
  workLevels: readonly AwardLevelRef[],
  awarded: number,
  cap: number | null,
): string {
  if (level.kind === "teacher") {
    return `获奖作品从高到低排列（先比奖项，同一奖项比组内名次、再比标准化成绩），依次取每件作品的指导教师，每位教师只计一次（记其最好的一件获奖作品）；${capText(level, awarded, cap, "人")}。手动添加的保留并占用名额。`;
  }
  const points = awardPoints(workLevels);
  const weights = workLevels.map((l) => `${l.name} ${points.get(l.id)} 分`).join("、");
  return `有获奖作品的学校按获奖作品计分排序（${weights || "没有作品奖项"}），同分时依次比较${workLevels.map((l) => l.name).join("、") || "各奖项"}的件数，再比较获奖作品总数；${capText(level, awarded, cap, "所")}。手动添加的保留并占用名额。`;
}
