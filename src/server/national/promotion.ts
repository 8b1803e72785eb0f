/**
 * Promotion after a published provincial result changed (issue 29): a complaint's decision
 * or a confirmed arbitration that changes a work's award can change whether the work should
 * be promoted. The national module follows the results.changed event (src/server/effects.ts)
 * for the works whose result changed, before syncNationalEntries:
 *
 * - a work whose new award is one every promoted work of its 大类 also holds (at or above the
 *   lowest promoted award of that 大类 as published) and which is not promoted is promoted —
 *   within the contest's promotion quota (total and per 大类) and before the national
 *   registration ends; syncNationalEntries then enters it in the national contest;
 * - otherwise nothing changes by itself: the contest's admins get a to-do item (promotionItems)
 *   saying what to decide — a work that now qualifies but found no place, or a promoted work
 *   whose new award no longer qualifies (still entered in the national contest).
 *
 * - the contest admin may mark such an item 已处理 (todo/promotion.ts, promotion_todo_done): it
 *   stays hidden while the work's mismatch is the same (kind and award); a later change of the
 *   work's result that leaves it otherwise drops the mark (forgetOutdatedDone), so the item
 *   shows again when the eligibility changes again.
 *
 * Only rows changed after the publication count as changed (contest_result.updated_at later
 * than the publication in force), so works left out by the quota when the results were
 * promoted and published ask for nothing.
 */
import { record } from "../common/audit";
import type { Handle } from "../work/repository";
import { activePublication } from "../judging/service/results/change";
import { quotaState, workAwardLevels } from "../judging/service/results/load";

export interface PromotionMismatch {
  workId: number;
  workName: string;
  categoryId: number;
  award: string | null;
  /** "candidate": qualifies, not promoted; "loose": promoted and entered, no longer qualifies */
  kind: "candidate" | "loose";
}

interface State {
  contest: { id: number; name: string; parentId: number };
  quota: Awaited<ReturnType<typeof quotaState>>;
  rows: {
    work_id: number;
    name: string;
    category_id: number;
    award: string | null;
    sort: number | null;
    promoted: boolean;
    changed: boolean;
    disqualified: boolean;
  }[];
  /** the lowest promoted award (highest sort) per 大类, of the rows as published */
  threshold: Map<number, number>;
  /** any 大类's, for a 大类 none of whose works was promoted */
  anyThreshold: number | null;
  /** the national registration: open (or none) and its end */
  registration: { open: boolean; endsAt: string | null };
}

/** The promotion state of a published provincial contest with a national parent; null otherwise. */
async function stateOf(db: Handle, contestId: number, now: Date): Promise<State | null> {
  const c = await db
    .selectFrom("contest as c")
    .innerJoin("contest as n", "n.id", "c.parent_id")
    .select(["c.id", "c.name", "c.level", "n.id as parent_id", "n.level as parent_level"])
    .where("c.id", "=", contestId)
    .executeTakeFirst();
  if (!c || c.level !== "provincial" || c.parent_level !== "national") return null;
  const pub = await activePublication(db, c.id);
  if (!pub) return null;
  const levels = new Map((await workAwardLevels(db, "provincial")).map((l) => [l.id, l]));
  const raw = await db
    .selectFrom("contest_result as r")
    .innerJoin("work as w", "w.id", "r.work_id")
    .select(["r.work_id", "w.name", "w.category_id", "w.status", "r.award_level_id", "r.promoted", "r.updated_at"])
    .where("r.contest_id", "=", c.id)
    .execute();
  const rows = raw.map((r) => {
    const level = r.award_level_id !== null ? levels.get(r.award_level_id) : undefined;
    return {
      work_id: r.work_id,
      name: r.name,
      category_id: r.category_id,
      award: level?.name ?? null,
      sort: level?.sort ?? null,
      promoted: !!Number(r.promoted),
      changed: Date.parse(r.updated_at) > Date.parse(pub.published_at),
      disqualified: r.status === "disqualified",
    };
  });
  const threshold = new Map<number, number>();
  let anyThreshold: number | null = null;
  for (const r of rows)
    if (r.promoted && !r.changed && r.sort !== null) {
      threshold.set(r.category_id, Math.max(threshold.get(r.category_id) ?? r.sort, r.sort));
      anyThreshold = Math.max(anyThreshold ?? r.sort, r.sort);
    }
  const reg = await db
    .selectFrom("contest_stage")
    .select("ends_at")
    .where("contest_id", "=", c.parent_id)
    .where("stage", "=", "registration")
    .executeTakeFirst();
  return {
    contest: { id: c.id, name: c.name, parentId: c.parent_id },
    quota: await quotaState(db, c.id),
    rows,
    threshold,
    anyThreshold,
    registration: { open: !reg || Date.parse(reg.ends_at) > now.getTime(), endsAt: reg?.ends_at ?? null },
  };
}

const qualifies = (s: State, r: State["rows"][number]) => {
  const t = s.threshold.get(r.category_id) ?? s.anyThreshold;
  return t !== null && r.sort !== null && r.sort <= t && !r.disqualified;
};

/** Why a qualifying work finds no place now, or null when it may be promoted. */
function noPlace(s: State, categoryId: number): string | null {
  if (!s.registration.open) return `国赛报名已于 ${s.registration.endsAt!.slice(0, 10)} 截止`;
  const promoted = s.rows.filter((r) => r.promoted);
  if (s.quota.total !== null && promoted.length >= s.quota.total) return `晋级名额已用完（共 ${s.quota.total} 个）`;
  const cap = s.quota.perCategory[String(categoryId)];
  if (cap !== undefined && promoted.filter((r) => r.category_id === categoryId).length >= cap)
    return `本大类的晋级名额已用完（共 ${cap} 个）`;
  return null;
}

/**
 * The results.changed follower: promotes the changed works that now qualify, within the quota
 * and before the national registration ends (in the change's transaction; syncNationalEntries
 * runs next and enters them). Returns the works it promoted.
 */
export async function promoteChangedWorks(
  trx: Handle,
  contestId: number,
  workIds: readonly number[],
  userId: number | null,
  now = new Date(),
): Promise<number[]> {
  if (!workIds.length) return [];
  const s = await stateOf(trx, contestId, now);
  if (!s) return [];
  const done: number[] = [];
  for (const r of s.rows) {
    if (!workIds.includes(r.work_id) || r.promoted || !qualifies(s, r) || noPlace(s, r.category_id)) continue;
    await trx
      .updateTable("contest_result")
      .set({ promoted: 1, updated_at: now.toISOString() })
      .where("contest_id", "=", s.contest.id)
      .where("work_id", "=", r.work_id)
      .execute();
    r.promoted = true;
    done.push(r.work_id);
    await record(trx, userId, {
      entity: "contest_result",
      entityId: `${s.contest.id}:${r.work_id}`,
      action: "promote",
      changes: { promoted: [0, 1], reason: [null, `获奖变更为「${r.award}」，与本大类已晋级作品相同，在名额内自动晋级`] },
    });
  }
  return done;
}

/** What the contest's admins must decide about promotion after changes of its published result. */
export async function promotionMismatches(
  db: Handle,
  contestId: number,
  now = new Date(),
  opts: { includeDone?: boolean } = {},
): Promise<{ contest: State["contest"]; items: (PromotionMismatch & { why: string | null })[] } | null> {
  const s = await stateOf(db, contestId, now);
  if (!s) return null;
  const entered = new Set(
    (
      await db
        .selectFrom("national_entry")
        .select("work_id")
        .where("from_contest_id", "=", s.contest.id)
        .where("status", "=", "entered")
        .execute()
    ).map((e) => e.work_id),
  );
  const items: (PromotionMismatch & { why: string | null })[] = [];
  for (const r of s.rows) {
    if (!r.changed) continue;
    const base = { workId: r.work_id, workName: r.name, categoryId: r.category_id, award: r.award };
    if (!r.promoted && qualifies(s, r)) items.push({ ...base, kind: "candidate", why: noPlace(s, r.category_id) });
    else if (r.promoted && !qualifies(s, r) && entered.has(r.work_id)) items.push({ ...base, kind: "loose", why: null });
  }
  if (opts.includeDone || !items.length) return { contest: s.contest, items };
  const done = await doneMarks(db, s.contest.id);
  return { contest: s.contest, items: items.filter((i) => !sameAsMarked(done.get(i.workId), i)) };
}

type DoneMark = { kind: string; award: string | null };
const sameAsMarked = (mark: DoneMark | undefined, m: PromotionMismatch | undefined) =>
  !!mark && !!m && mark.kind === m.kind && mark.award === m.award;

async function doneMarks(db: Handle, contestId: number, workIds?: readonly number[]): Promise<Map<number, DoneMark>> {
  let q = db.selectFrom("promotion_todo_done").select(["work_id", "kind", "award"]).where("contest_id", "=", contestId);
  if (workIds) q = q.where("work_id", "in", workIds);
  return new Map((await q.execute()).map((d) => [Number(d.work_id), { kind: d.kind, award: d.award }]));
}

/**
 * The results.changed follower's last step: a changed work whose promotion to-do was marked
 * 已处理 but whose mismatch is now another one (or none) loses the mark, so that the next
 * mismatch — even one like the marked one — is shown again.
 */
export async function forgetOutdatedDone(trx: Handle, contestId: number, workIds: readonly number[], now = new Date()) {
  if (!workIds.length) return;
  const marks = await doneMarks(trx, contestId, workIds);
  if (!marks.size) return;
  const current = new Map(
    (await promotionMismatches(trx, contestId, now, { includeDone: true }))?.items.map((i) => [i.workId, i]),
  );
  const outdated = [...marks].filter(([workId, mark]) => !sameAsMarked(mark, current.get(workId)));
  if (!outdated.length) return;
  await trx
    .deleteFrom("promotion_todo_done")
    .where("contest_id", "=", contestId)
    .where(
      "work_id",
      "in",
      outdated.map(([workId]) => workId),
    )
    .execute();
}
