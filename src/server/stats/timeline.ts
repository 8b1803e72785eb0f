/**
 * Entries over time (GET /Backend/Stats/timeline): per Beijing day, the works created
 * (work.created_at) and the works whose FIRST submit, approve, recommend and accept fell on
 * that day (work_log), with running totals; the previous edition the same way, both placed on
 * days before their registration deadline. Counted in the database per UTC hour (substr of the
 * ISO text: the same SQL on both dialects; index work_log_stats, migration 0039), then moved
 * to Beijing days here.
 */
import { sql } from "kysely";
import {
  TIMELINE_SERIES,
  TIMELINE_SERIES_NAMES,
  type TimelineEdition,
  type TimelineSeries,
  type TimelineSeriesKey,
} from "../../shared/stats/schema";
import type { Handle } from "../work/repository";
import { num, worksOf, type Scope, type WorkFilter } from "./scope";

const ACTION_SERIES: Record<string, TimelineSeriesKey> = {
  submit: "submitted",
  approve: "approved",
  recommend: "recommended",
  accept: "accepted",
};

const DAY = 86_400_000;
/** "2026-03-01T15" (UTC hour) → the Beijing date of that hour. */
export const beijingDay = (utcHour: string) =>
  new Date(Date.parse(`${utcHour}:00:00Z`) + 8 * 3_600_000).toISOString().slice(0, 10);
/** The Beijing date of an ISO time. */
export const beijingDate = (iso: string) => new Date(Date.parse(iso) + 8 * 3_600_000).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY);

/**
 * The registration deadline of the filter's contests (Beijing date): the end of the
 * registration stage of the topmost contests in it (those whose parent is outside it), the
 * latest of them; for a whole year, the latest of the provincial and national contests'.
 */
export async function deadlineOf(db: Handle, f: WorkFilter): Promise<string | null> {
  let q = db
    .selectFrom("contest_stage")
    .innerJoin("contest", "contest.id", "contest_stage.contest_id")
    .select((eb) => eb.fn.max("contest_stage.ends_at").as("at"))
    .where("contest_stage.stage", "=", "registration")
    .where("contest.year", "=", f.year);
  if (f.contestIds !== null) {
    if (!f.contestIds.length) return null;
    const ids = f.contestIds;
    q = q
      .where("contest.id", "in", ids)
      .where((eb) => eb.or([eb("contest.parent_id", "is", null), eb("contest.parent_id", "not in", ids)]));
  } else q = q.where("contest.level", "!=", "school");
  const r = await q.executeTakeFirst();
  return r?.at ? beijingDate(String(r.at)) : null;
}

/** One edition's series. */
export async function edition(db: Handle, f: WorkFilter): Promise<TimelineEdition> {
  const hour = (col: string) => sql<string>`substr(${sql.ref(col)}, 1, 13)`;
  const [created, firsts, deadline] = await Promise.all([
    worksOf(db, f)
      .select([hour("work.created_at").as("h"), (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy(hour("work.created_at"))
      .execute(),
    db
      .selectFrom(
        db
          .selectFrom("work_log")
          .select(["work_log.action", "work_log.work_id", (eb) => eb.fn.min("work_log.at").as("first")])
          .where("work_log.action", "in", Object.keys(ACTION_SERIES))
          .where("work_log.work_id", "in", worksOf(db, f).select("work.id"))
          .groupBy(["work_log.action", "work_log.work_id"])
          .as("f"),
      )
      .select(["f.action", hour("f.first").as("h"), (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy(["f.action", hour("f.first")])
      .execute(),
    deadlineOf(db, f),
  ]);
  const perDay = new Map<TimelineSeriesKey, Map<string, number>>(TIMELINE_SERIES.map((k) => [k, new Map()]));
  const add = (key: TimelineSeriesKey, h: string, n: number) => {
    const m = perDay.get(key)!;
    const d = beijingDay(h);
    m.set(d, (m.get(d) ?? 0) + n);
  };
  for (const r of created) add("created", String(r.h), num(r.n));
  for (const r of firsts) add(ACTION_SERIES[r.action], String(r.h), num(r.n));
  const series: TimelineSeries[] = TIMELINE_SERIES.map((key) => {
    let cumulative = 0;
    const points = [...perDay.get(key)!.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([date, count]) => ({
        date,
        daysBefore: deadline === null ? null : daysBetween(date, deadline),
        count,
        cumulative: (cumulative += count),
      }));
    return { key, name: TIMELINE_SERIES_NAMES[key], points, total: cumulative };
  });
  return { year: f.year, deadline, series };
}

export async function timeline(db: Handle, s: Scope) {
  const [current, previous] = await Promise.all([edition(db, s.current), s.previous ? edition(db, s.previous) : null]);
  return { current, previous };
}
