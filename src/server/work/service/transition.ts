/**
 * Every state change of a work goes through applyTransition: load → check (who, state,
 * reason, stage window, submit rules, quota, format review's codes and deadlines — see
 * ../format-rules.ts) → change → record in the work log, inside
 * the caller's transaction. transitionWork runs one (a repeat of the caller's own last step —
 * a double-clicked submit — is answered as done, changing nothing); bulkTransition runs many in one
 * transaction, all or nothing, with a report per work. What other domains do about a step
 * (certificates, the duplicate check) they do as followers of the events emitted here
 * (src/server/events/, wired in src/server/effects.ts).
 */
import { badRequest, DomainError, forbidden, invalid, notFound } from "../../../shared/errors";
import type { BulkReport, QuotaView, TransitionBody } from "../../../shared/work/schema";
import {
  canTransition,
  SLOT_STATES,
  TRANSITIONS,
  WORK_STATE_NAMES,
  type Actor,
  type WorkAction,
  type WorkState,
} from "../../../shared/work/states";
import type { Db } from "../../db";
import type { User, WorkTable } from "../../db/schema";
import { ROLE } from "../../../shared/roles";
import * as repo from "../repository";
import { actorFor, submitRefusal, windowRefusal } from "../rules";
import {
  checkDeadline,
  checkReasonCodes,
  formatEffects,
  reopenRefusal,
  rejectReturnedRefusal,
  resubmitRefusal,
  type FormatDecision,
  type FormatInput,
} from "../format-rules";
import {
  checkVersion,
  findForFormat,
  inTransaction,
  loadVisible,
  writeAt,
  type Loaded,
  type TxCtx,
  type WorkCtx,
} from "./context";
import { entryFormatOf } from "../../../shared/national/types";
import type { Updateable } from "kysely";
import { emit } from "../../events";

async function loadGranted(t: TxCtx, id: number, format: boolean): Promise<Loaded> {
  const found: { work?: repo.WorkRow; entry?: repo.NationalEntryRow } | undefined = format
    ? await findForFormat(t.db, id)
    : { work: await repo.findWork(t.db, id) };
  if (!found?.work) throw notFound("作品不存在");
  const authors = await repo.authorsOf(t.db, id);
  const teachers = await repo.teachersOf(t.db, id);
  return { work: found.work, authors, teachers, relations: new Set(), entry: found.entry };
}

/** The recommendation quota of a school contest: all works holding a slot, in all and per 大类. */
async function checkQuota(t: TxCtx, w: repo.WorkRow) {
  if (w.contest_level !== "school") return;
  // Serialise recommendations of the contest, so two at once cannot both take the last slot.
  await repo.lockContest(t.db, w.contest_id);
  const counts = await repo.slotCounts(t.db, w.contest_id, SLOT_STATES);
  const used = [...counts.values()].reduce((s, n) => s + n, 0);
  const total = w.contest_recommend_quota;
  if (total !== null && used >= total)
    throw badRequest(`「${w.contest_name}」的推荐名额已用完（共 ${total} 个，已推荐 ${used} 个）`);
  const perCategory = (JSON.parse(w.contest_category_quotas) as Record<string, number>)[String(w.category_id)];
  const inCategory = counts.get(w.category_id) ?? 0;
  if (perCategory !== undefined && inCategory >= perCategory) {
    throw badRequest(
      `「${w.contest_name}」大类「${w.category_name}」的推荐名额已用完（共 ${perCategory} 个，已推荐 ${inCategory} 个）`,
    );
  }
}

const EFFECTS: Partial<Record<WorkAction, (reason: string | null, at: string) => Updateable<WorkTable>>> = {
  submit: (_r, at) => ({ submitted_at: at, return_reason: null }),
  return: (r) => ({ return_reason: r }),
  reject: (r) => ({ return_reason: r }),
  disqualify: (r) => ({ disqualify_reason: r }),
};

/** What a transition is given: the reason and version, and for format review its codes and deadline. */
export type TransitionInput = TransitionBody & FormatInput;

/** The format review checks of an action; the codes and deadline it records. */
async function checkFormat(t: TxCtx, l: Loaded, action: WorkAction, actor: Actor, body: FormatInput): Promise<FormatDecision> {
  const w = l.work;
  const d: FormatDecision = { codes: null, deadline: null };
  if (action === "format_return" || action === "format_reject") {
    const codes = checkReasonCodes(action, body.reasonCodes);
    if (codes instanceof DomainError) throw codes;
    d.codes = codes;
  }
  if (action === "format_return") {
    const deadline = checkDeadline(body.deadline, t.now);
    if (deadline instanceof DomainError) throw deadline;
    d.deadline = deadline;
  }
  const why =
    action === "format_resubmit"
      ? (resubmitRefusal(w, t.now) ??
        (await submitRefusal({ ...l, db: t.db, hasSubcategories: await repo.hasSubcategories(t.db, w.category_id) })))
      : action === "format_reject"
        ? rejectReturnedRefusal(w, actor, t.now)
        : action === "format_reopen"
          ? await reopenRefusal(t.db, w, l.entry ? l.entry.contest_id : undefined)
          : null;
  if (why) throw badRequest(why);
  return d;
}

/**
 * A national entry's format review step: the entry's own record changes (state, reasons,
 * deadline, note); the work row — the provincial record — stays as it was.
 */
async function writeEntry(t: TxCtx, e: repo.NationalEntryRow, set: Updateable<WorkTable>) {
  const status = entryFormatOf(String(set.status));
  if (!status) throw badRequest("国赛作品只能进行形式审查");
  await t.db
    .updateTable("national_entry")
    .set({
      format_status: status,
      ...("format_reasons" in set ? { format_reasons: set.format_reasons ?? null } : {}),
      ...("format_deadline" in set ? { format_deadline: set.format_deadline ?? null } : {}),
      ...("return_reason" in set ? { format_note: set.return_reason ?? null } : {}),
      updated_at: t.now.toISOString(),
    })
    .where("id", "=", e.id)
    .execute();
}

/**
 * `granted`: the step is taken on another service's authority (a complaint decision
 * disqualifies a work as root would): the work is loaded without the caller's relations and
 * the actor is the one granted; the caller is still the one in the work log.
 */
export async function applyTransition(
  t: TxCtx,
  id: number,
  action: WorkAction,
  body: TransitionInput,
  granted?: Actor,
): Promise<{ id: number; status: WorkState; nationalContestId?: number }> {
  // A format review step of a promoted work is the national contest's, on its national entry.
  const format = action.startsWith("format_");
  const l = granted ? await loadGranted(t, id, format) : await loadVisible(t, id, { format });
  const step = TRANSITIONS[action];
  const actor = granted ?? actorFor(action, l.relations);
  if (!actor) throw forbidden(`您不能对该作品执行「${step.name}」`);
  const from = l.work.status;
  if (!canTransition(action, from, actor)) throw badRequest(`作品当前状态为「${WORK_STATE_NAMES[from]}」，不能「${step.name}」`);
  checkVersion(l.work, body.version);
  const reason = body.reason?.trim() || null;
  if (step.reason && !reason) throw invalid("reason", `请填写「${step.name}」的原因`);
  const closed = windowRefusal(action, from, actor, await repo.stagesOf(t.db, l.work.contest_id), l.work.contest_name, t.now);
  if (closed) throw badRequest(closed);
  if (action === "submit") {
    const why = await submitRefusal({ ...l, db: t.db, hasSubcategories: await repo.hasSubcategories(t.db, l.work.category_id) });
    if (why) throw badRequest(why);
  }
  if (action === "recommend") await checkQuota(t, l.work);
  const decision = format ? await checkFormat(t, l, action, actor, body) : null;
  const at = t.now.toISOString();
  const set = { status: step.to, ...EFFECTS[action]?.(reason, at), ...(decision ? formatEffects(action, reason, decision) : {}) };
  if (l.entry) await writeEntry(t, l.entry, set);
  else await writeAt(t, l.work, set);
  const changes: Record<string, [unknown, unknown]> = { status: [from, step.to] };
  if (l.entry) changes.nationalContest = [null, l.entry.contest_id];
  if (reason) changes.reason = [null, reason];
  if (decision?.codes) changes.reasonCodes = [null, decision.codes];
  if (decision?.deadline) changes.deadline = [null, decision.deadline];
  await repo.appendLog(t.db, { workId: id, userId: t.user.id, action, changes });
  // Other domains follow in this transaction (src/server/effects.ts: a disqualified work's certificates are revoked).
  await emit(t.db, "work.transitioned", { workId: id, from, to: step.to, at: t.now });
  return l.entry ? { id, status: step.to, nationalContestId: l.entry.contest_id } : { id, status: step.to };
}

/** Steps after which the work's text is (again) what the duplicate check should hold. */
const INDEXING_ACTIONS: readonly WorkAction[] = ["submit", "format_resubmit"];

export async function transitionWork(ctx: WorkCtx, id: number, action: WorkAction, body: TransitionInput) {
  try {
    return await inTransaction(ctx, async (t) => {
      const moved = await applyTransition(t, id, action, body);
      // After the commit: the duplicate check indexes the work (background; src/server/effects.ts).
      if (INDEXING_ACTIONS.includes(action)) await emit(t.db, "work.textChanged", { workIds: [id] });
      return moved;
    });
  } catch (e) {
    // Refused for its state or version: it may be the same request twice (a double click, a retry).
    const done = e instanceof DomainError && (e.status === 400 || e.status === 409) ? await repeated(ctx, id, action) : null;
    if (done) return done;
    throw e;
  }
}

/**
 * The step already taken by this caller: the work's last logged step is the caller's own
 * `action` and the work is in the state it leads to. Then the repeat is answered as done
 * (nothing changes, nothing is logged); anything else keeps its refusal.
 */
async function repeated(ctx: WorkCtx, id: number, action: WorkAction): Promise<{ id: number; status: WorkState } | null> {
  const last = await ctx.db
    .selectFrom("work_log")
    .select(["action", "user_id"])
    .where("work_id", "=", id)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!last || last.action !== action || last.user_id !== ctx.user.id) return null;
  const work = await repo.findWork(ctx.db, id);
  return work && work.status === TRANSITIONS[action].to ? { id, status: work.status } : null;
}

class BulkRefused extends Error {}

/** Many works, one action, one transaction: every work is checked; one refusal changes none. */
export async function bulkTransition(ctx: WorkCtx, ids: number[], action: WorkAction, reason?: string): Promise<BulkReport> {
  const results: BulkReport["results"] = [];
  try {
    await inTransaction(ctx, async (t) => {
      for (const id of [...new Set(ids)]) {
        try {
          const r = await applyTransition(t, id, action, { reason });
          results.push({ id, ok: true, info: `已${TRANSITIONS[action].name}`, status: r.status });
        } catch (e) {
          if (!(e instanceof DomainError)) throw e;
          results.push({ id, ok: false, info: e.info, status: null });
        }
      }
      if (results.some((r) => !r.ok)) throw new BulkRefused();
    });
  } catch (e) {
    if (!(e instanceof BulkRefused)) throw e;
    for (const r of results) if (r.ok) Object.assign(r, { info: "可以执行，但因其他作品未通过检查，本次未执行", status: null });
    return { done: false, results };
  }
  return { done: true, results };
}

/** The quota of a contest as a school sees it: a school contest's limits; none for direct entries. */
export async function quotaOf(db: repo.Handle, contest: repo.ContestRow, schoolId: number | null): Promise<QuotaView> {
  const limited = contest.level === "school";
  const counts = await repo.slotCounts(db, contest.id, SLOT_STATES, limited || schoolId === null ? undefined : schoolId);
  const used = [...counts.values()].reduce((s, n) => s + n, 0);
  const quotas = JSON.parse(contest.category_quotas) as Record<string, number>;
  const parent = contest.parent_id ? await repo.findContest(db, contest.parent_id) : undefined;
  const categoryIds = (JSON.parse(contest.categories) as number[]).map(Number);
  const names = categoryIds.length
    ? await db.selectFrom("work_category").select(["id", "name"]).where("id", "in", categoryIds).execute()
    : [];
  const left = (quota: number | null, n: number) => (quota === null ? null : Math.max(0, quota - n));
  const total = limited ? contest.recommend_quota : null;
  return {
    contestId: contest.id,
    contestName: contest.name,
    level: contest.level,
    parentName: limited ? (parent?.name ?? null) : contest.name,
    total,
    used,
    left: left(total, used),
    categories: categoryIds.map((id) => {
      const quota = limited && quotas[String(id)] !== undefined ? quotas[String(id)] : null;
      const n = counts.get(id) ?? 0;
      return {
        categoryId: id,
        categoryName: names.find((c) => c.id === id)?.name ?? `#${id}`,
        quota,
        used: n,
        left: left(quota, n),
      };
    }),
  };
}

/**
 * Quotas a school admin sees: the own school contests, and the provincial contests the
 * school entered directly. Root names the contest.
 */
export async function schoolQuotas(db: Db, user: User, contestId?: number): Promise<QuotaView[]> {
  if (user.user_type === ROLE.root) {
    if (contestId === undefined) throw invalid("contestId", "请选择赛事");
    const c = await repo.findContest(db, contestId);
    if (!c) throw notFound("赛事不存在");
    return [await quotaOf(db, c, null)];
  }
  const schoolId = user.school_id ?? -1;
  const direct = db.selectFrom("work").select("work.contest_id").where("work.school_id", "=", schoolId);
  let q = db
    .selectFrom("contest")
    .select([
      "id",
      "name",
      "level",
      "year",
      "parent_id",
      "province",
      "school_id",
      "archived",
      "categories",
      "recommend_quota",
      "category_quotas",
    ])
    .where("archived", "=", 0)
    .where((eb) => eb.or([eb.and([eb("level", "=", "school"), eb("school_id", "=", schoolId)]), eb("id", "in", direct)]));
  if (contestId !== undefined) q = q.where("id", "=", contestId);
  const contests = await q.orderBy("year", "desc").orderBy("id").execute();
  if (contestId !== undefined && !contests.length) throw notFound("赛事不存在或与本校无关");
  const out: QuotaView[] = [];
  for (const c of contests) out.push(await quotaOf(db, c, schoolId));
  return out;
}
