/**
 * The dashboards' replies: the caller's scope (scope.ts), then the figures, kept in the read
 * cache (db/changes.ts) under the scope's key while none of the tables they read changes —
 * a write to any of them (here or in another process, through the change bus) ends the entry,
 * as for the works lists.
 */
import type {
  BreakdownReply,
  ComplaintStatsReply,
  PipelineReply,
  ProgressReply,
  ScoresReply,
  StatsQuery,
  SummaryReply,
  TimelineReply,
} from "../../shared/stats/schema";
import type { User } from "../db/schema";
import type { Handle } from "../work/repository";
import { resolveScope, scopeKey, statsCache, type Scope } from "./scope";
import { timeline } from "./timeline";
import { pipeline } from "./pipeline";
import { breakdown } from "./breakdown";
import { progress } from "./progress";
import { scores } from "./scores";
import { complaints } from "./complaints";
import { summary } from "./summary";

const WORKS = ["work", "contest", "school"];
/** The tables each dashboard reads. */
export const STATS_TABLES = {
  timeline: [...WORKS, "work_log", "contest_stage"],
  pipeline: WORKS,
  breakdown: [...WORKS, "work_category", "work_author", "work_teacher"],
  progress: [
    ...WORKS,
    "work_log",
    "app_user",
    "judge_group",
    "judge_group_work",
    "judge_assignment",
    "judge_score",
    "defence_session",
    "defence_slot",
    "defence_score",
  ],
  scores: [
    ...WORKS,
    "app_user",
    "work_category",
    "judge_group",
    "judge_group_work",
    "judge_score",
    "result_setting",
    "contest_result",
    "award_level",
  ],
  complaints: [...WORKS, "complaint"],
  summary: [...WORKS, "work_log", "judge_assignment", "judge_score", "complaint"],
} as const;

export interface Replies {
  timeline: TimelineReply;
  pipeline: PipelineReply;
  breakdown: BreakdownReply;
  progress: ProgressReply;
  scores: ScoresReply;
  complaints: ComplaintStatsReply;
}
export type Dashboard = keyof Replies;

const COMPUTE: { [K in Dashboard]: (db: Handle, s: Scope) => Promise<Omit<Replies[K], "scope">> } = {
  timeline,
  pipeline,
  breakdown,
  progress,
  scores,
  complaints: (db, s) => complaints(db, s),
};

/** One dashboard's reply for the caller (403/404 from the scope). */
export async function dashboard<K extends Dashboard>(db: Handle, user: User, name: K, q: StatsQuery): Promise<Replies[K]> {
  const s = await resolveScope(db, user, q);
  return statsCache(db).get(`${name}:${scopeKey(s)}`, STATS_TABLES[name], async () => {
    const computedAt = new Date().toISOString();
    const figures = await COMPUTE[name](db, s);
    return { scope: { ...s.view, computedAt }, ...figures } as Replies[K];
  });
}

/** The user centre's three figures (the newest year in scope). */
export async function userSummary(db: Handle, user: User): Promise<SummaryReply> {
  const s = await resolveScope(db, user, {});
  return statsCache(db).get(`summary:${s.role}:${scopeKey(s)}`, STATS_TABLES.summary, () => summary(db, s));
}
