/**
 * The stages of a contest, in their usual order, with their Chinese names. A contest
 * sets a start and end time per stage; field locks apply from a stage's start.
 */
export const STAGE_KEYS = [
  "registration",
  "school_review",
  "format_review",
  "online_judging",
  "offline_judging",
  "publicity",
  "complaint",
] as const;
export type StageKey = (typeof STAGE_KEYS)[number];

export const STAGE_NAMES: Record<StageKey, string> = {
  registration: "报名",
  school_review: "校内审核",
  format_review: "形式审查",
  online_judging: "网络评审",
  offline_judging: "现场评审",
  publicity: "公示",
  complaint: "申诉",
};

export const STAGE_OPTIONS = STAGE_KEYS.map((key) => ({ key, name: STAGE_NAMES[key] }));

export const isStageKey = (s: unknown): s is StageKey => typeof s === "string" && (STAGE_KEYS as readonly string[]).includes(s);

/** A stage of one contest: ISO times, start before end. */
export interface StageTimes {
  stage: StageKey;
  startsAt: string;
  endsAt: string;
}

/** The stage running at `now` (the last one started and not yet ended), if any. */
export function currentStage(stages: readonly StageTimes[], now: Date = new Date()): StageKey | null {
  const t = now.getTime();
  let found: StageKey | null = null;
  for (const key of STAGE_KEYS) {
    const s = stages.find((x) => x.stage === key);
    if (s && Date.parse(s.startsAt) <= t && t < Date.parse(s.endsAt)) found = key;
  }
  return found;
}

export const CONTEST_LEVELS = ["national", "provincial", "school"] as const;
export type ContestLevelKey = (typeof CONTEST_LEVELS)[number];
export const CONTEST_LEVEL_NAMES: Record<ContestLevelKey, string> = { national: "国赛", provincial: "省赛", school: "校赛" };
/** The level a contest's parent must have. */
export const PARENT_LEVEL: Record<ContestLevelKey, ContestLevelKey | null> = {
  national: null,
  provincial: "national",
  school: "provincial",
};
