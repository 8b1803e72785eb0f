/** Cell texts of the award sheet: "省级赛/一等奖" keys, kinds and ratios in Chinese. */
import {
  AWARD_KIND_LABELS,
  CONTEST_LEVEL_LABELS,
  type AwardContestLevel,
  type AwardKind,
  type AwardView,
} from "../../shared/award/schema";

const LEVEL_ALIASES: Record<AwardContestLevel, string[]> = {
  national: ["国赛", "国家级", "全国", "national"],
  provincial: ["省级赛", "省赛", "省级", "provincial"],
  school: ["校级赛", "校赛", "校级", "school"],
};

const KIND_ALIASES: Record<AwardKind, string[]> = {
  work: ["作品奖", "作品", "work"],
  teacher: ["教师奖", "教师", "指导教师", "teacher"],
  organisation: ["组织奖", "组织", "organisation"],
};

/** "省级赛/一等奖" → { provincial, 一等奖 }; undefined when it is not of that form. */
export function parseRef(text: string): { contestLevel: AwardContestLevel; name: string } | undefined {
  const m = /^\s*([^/／]+?)\s*[/／]\s*(.+?)\s*$/.exec(text);
  if (!m || m[2].length > 20) return undefined;
  const level = (Object.keys(LEVEL_ALIASES) as AwardContestLevel[]).find((l) => LEVEL_ALIASES[l].includes(m[1]));
  return level ? { contestLevel: level, name: m[2] } : undefined;
}

export const refOf = (v: AwardView) => `${CONTEST_LEVEL_LABELS[v.contestLevel]}/${v.name}`;

export function parseKind(text: string): AwardKind {
  const kind = (Object.keys(KIND_ALIASES) as AwardKind[]).find((k) => KIND_ALIASES[k].includes(text));
  if (!kind) throw new Error(`应为${Object.values(AWARD_KIND_LABELS).join("、")}之一`);
  return kind;
}

/** 0.1 → "10%" */
export const formatRatio = (r: number) => `${Math.round(r * 10000) / 100}%`;

/** "10%" or "0.1" → 0.1 */
export function parseRatio(text: string): number {
  const pct = /^([0-9]+(?:\.[0-9]+)?)\s*[%％]$/.exec(text);
  const n = pct ? Number(pct[1]) / 100 : /^[0-9]*\.?[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new Error("应为 0% 到 100% 之间的比例，如 10% 或 0.1");
  return Math.round(n * 1e6) / 1e6;
}
