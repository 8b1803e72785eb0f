/**
 * What each caller sees of complaints: the filer's and the work party's view (the party
 * never sees the filer, nor the evidence), the handlers' list and detail (scope: the
 * contests they handle; root all), the arbitrator's list (sent to arbitration, minus
 * conflicts), root's arbitration review, and the counts per state.
 */
import { sql, type SelectQueryBuilder } from "kysely";
import {
  COMPLAINT_STATE_NAMES,
  COMPLAINT_STATES,
  COMPLAINT_TRANSITIONS,
  FINAL_STATES,
  complaintActionsFor,
  type ArbitrationOutcome,
  type ComplaintActor,
  type ComplaintCategory,
  type ComplaintState,
  type ComplaintType,
  type DecisionAction,
  type DecisionOutcome,
} from "../../shared/complaint/states";
import type {
  ArbitrationView,
  ComplaintCounts,
  ComplaintFilters,
  ComplaintListItem,
  DecisionView,
  EvidenceView,
  FilerComplaintView,
  HandlerComplaintView,
  HistoryEntry,
} from "../../shared/complaint/schema";
import type { PageOf } from "../../shared/crud/list";
import { notFound } from "../../shared/errors";
import { maskPhone } from "../../shared/mask";
import { filerWord } from "../../shared/complaint/labels";
import { ROLE, ROLE_NAMES, type RoleCode } from "../../shared/roles";
import type { Db } from "../db";
import type { DB, User } from "../db/schema";
import { publishedAward } from "../judging/service/results/publish";
import { evidenceUrl } from "./filing";
import {
  actorsOf,
  ARBITRATION_STATES,
  handledContests,
  memberContestIds,
  mayHandleView,
  NOT_FOUND,
  type Caller,
  type ComplaintRow,
  type Handle,
} from "./scope";

const isOverdue = (c: { due_at: string | null; state: string }, now: number) =>
  !!c.due_at && !FINAL_STATES.includes(c.state as ComplaintState) && Date.parse(c.due_at) < now;

const baseQuery = (db: Handle) =>
  db
    .selectFrom("complaint")
    .innerJoin("work", "work.id", "complaint.work_id")
    .innerJoin("school", "school.id", "work.school_id")
    .innerJoin("contest", "contest.id", "complaint.contest_id")
    .selectAll("complaint")
    .select([
      "work.name as work_name",
      "school.name as school_name",
      "contest.name as contest_name",
      "contest.level as contest_level",
    ]);
type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>["executeTakeFirstOrThrow"]>>;
type Query = SelectQueryBuilder<DB, "complaint" | "work" | "school" | "contest", Row>;

function common(r: Row, now: number) {
  return {
    id: r.id,
    type: r.type as ComplaintType,
    category: r.category as ComplaintCategory,
    state: r.state as ComplaintState,
    version: Number(r.version),
    contestId: r.contest_id,
    contestName: r.contest_name,
    contestLevel: r.contest_level,
    workId: Number(r.work_id),
    workName: r.work_name,
    schoolName: r.school_name,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    dueAt: FINAL_STATES.includes(r.state as ComplaintState) ? null : r.due_at,
    overdue: isOverdue(r, now),
    arbitrationDueAt: r.arbitration_due_at,
  };
}

async function awardName(db: Handle, id: number | null) {
  if (id === null) return null;
  const a = await db.selectFrom("award_level").select(["id", "name"]).where("id", "=", id).executeTakeFirst();
  return a ? { id: a.id, name: a.name } : null;
}

async function decisionOf(db: Handle, c: ComplaintRow): Promise<DecisionView | null> {
  if (!c.decision_at) return null;
  const rejudge = c.rejudge_judges
    ? { judgeIds: JSON.parse(c.rejudge_judges) as number[], appliedAt: c.rejudge_applied_at }
    : null;
  return {
    outcome: c.decision_outcome as DecisionOutcome,
    action: c.decision_action as DecisionAction,
    award: await awardName(db, c.decision_award_level_id),
    text: c.decision_text ?? "",
    at: c.decision_at,
    effect: c.decision_effect,
    rejudge,
  };
}

async function arbitrationOf(db: Handle, c: ComplaintRow): Promise<ArbitrationView | null> {
  if (!c.arb_requested_at) return null;
  return {
    requestedAt: c.arb_requested_at,
    requestedBy: c.arb_requested_by === "filer" ? filerWord(c.type) : "作品方",
    reason: c.arb_reason ?? "",
    outcome: (c.arb_outcome as ArbitrationOutcome | null) ?? null,
    revised:
      c.arb_outcome === "revise"
        ? {
            outcome: c.arb_revised_outcome as DecisionOutcome,
            action: c.arb_revised_action as DecisionAction,
            award: await awardName(db, c.arb_award_level_id),
          }
        : null,
    text: c.arb_text,
    at: c.arb_at,
    confirmedAt: c.arb_confirmed_at,
    effect: c.arb_effect,
  };
}

const KIND_WORDS: Record<string, string> = { party: "作品方", system: "系统" };
const actorWord = (kind: string, type: string) => (kind === "filer" ? filerWord(type) : KIND_WORDS[kind]);

/** History; `blind`: the parties see role words, never names (and the filer is 申诉人 or 投诉人, by the kind). */
async function historyOf(db: Handle, id: number, type: string, blind: boolean): Promise<HistoryEntry[]> {
  const rows = await db
    .selectFrom("complaint_history as h")
    .leftJoin("app_user as u", "u.id", "h.actor_id")
    .select(["h.id", "h.at", "h.action", "h.from_state", "h.to_state", "h.actor_kind", "h.text", "u.name"])
    .where("h.complaint_id", "=", id)
    .orderBy("h.id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    at: r.at,
    action: r.action,
    actionName:
      r.action === "submit"
        ? "提交"
        : r.action === "rejudge_result"
          ? "重新评审成绩替换原成绩"
          : (COMPLAINT_TRANSITIONS[r.action as keyof typeof COMPLAINT_TRANSITIONS]?.name ?? r.action),
    from: (r.from_state as ComplaintState | null) ?? null,
    to: r.to_state as ComplaintState,
    by:
      blind || r.actor_kind === "filer" || r.actor_kind === "party"
        ? (actorWord(r.actor_kind, type) ?? "处理人员")
        : (r.name ?? actorWord(r.actor_kind, type) ?? ""),
    text: r.text,
  }));
}

async function evidenceOf(db: Handle, id: number, visitor: boolean): Promise<EvidenceView[]> {
  const rows = await db.selectFrom("complaint_evidence").selectAll().where("complaint_id", "=", id).orderBy("id").execute();
  return rows.map((e) => ({
    id: e.id,
    name: e.filename,
    size: Number(e.size),
    contentType: e.mime,
    uploadedAt: e.uploaded_at,
    url: evidenceUrl(e.id, visitor),
  }));
}

const loadRow = async (db: Handle, id: number) => {
  const r = await baseQuery(db).where("complaint.id", "=", id).executeTakeFirst();
  if (!r) throw notFound(NOT_FOUND);
  return r;
};

/** The filer's view, or the work party's (no filer identity, no evidence). */
export async function filerView(db: Handle, caller: Caller, id: number): Promise<FilerComplaintView> {
  const r = await loadRow(db, id);
  const actors = await actorsOf(db, caller, r);
  const relation = actors.has("filer") ? "filer" : actors.has("party") ? "party" : null;
  if (!relation) throw notFound(NOT_FOUND);
  const mine = new Set<ComplaintActor>([...actors].filter((a) => a === "filer" || a === "party"));
  return {
    ...common(r, Date.now()),
    relation,
    text: r.text,
    evidence: relation === "filer" ? await evidenceOf(db, r.id, !caller.user) : [],
    refusal: r.refusal,
    decision: await decisionOf(db, r),
    arbitration: await arbitrationOf(db, r),
    history: await historyOf(db, r.id, r.type, true),
    actions: complaintActionsFor(r.state as ComplaintState, [...mine]),
  };
}

/** The caller's own complaints and those about the works they author or advise. */
export async function filerList(db: Handle, caller: Caller): Promise<FilerComplaintView[]> {
  let q = db.selectFrom("complaint").select("id");
  if (caller.user) {
    const uid = caller.user.id;
    q = q.where((eb) =>
      eb.or([
        eb("filer_user_id", "=", uid),
        eb("work_id", "in", eb.selectFrom("work_author").select("work_id").where("user_id", "=", uid)),
        eb("work_id", "in", eb.selectFrom("work_teacher").select("work_id").where("user_id", "=", uid)),
      ]),
    );
  } else {
    q = q.where("filer_user_id", "is", null).where("filer_email", "=", caller.visitorEmail ?? "");
  }
  const ids = (await q.orderBy("id", "desc").limit(200).execute()).map((r) => r.id);
  const out: FilerComplaintView[] = [];
  for (const id of ids) out.push(await filerView(db, caller, id));
  return out;
}

/** The filer's phone in full: the account's, or the one a visitor gave. */
async function filerPhoneOf(db: Handle, c: ComplaintRow): Promise<string | null> {
  if (c.filer_user_id === null) return c.filer_phone;
  const u = await db.selectFrom("app_user").select("phone").where("id", "=", c.filer_user_id).executeTakeFirst();
  return u?.phone ?? c.filer_phone;
}

/**
 * The filer's phone in full for a handler who must call back (GET …/complaints/:id/filer-phone):
 * the same rows as the handler view (anything else 404 like an unknown id); the caller records it
 * in the audit log. The handler view itself shows the phone masked.
 */
export async function revealFilerPhone(db: Handle, user: User, id: number): Promise<{ id: number; phone: string | null }> {
  const r = await loadRow(db, id);
  if (!(await mayHandleView(db, user, r, await actorsOf(db, { user }, r)))) throw notFound(NOT_FOUND);
  return { id: r.id, phone: await filerPhoneOf(db, r) };
}

async function filerIdentity(db: Handle, c: ComplaintRow) {
  // Masked: handlers reveal the number through revealFilerPhone (audited).
  if (c.filer_user_id === null)
    return {
      userId: null,
      name: c.filer_name,
      email: c.filer_email,
      phone: maskPhone(c.filer_phone),
      kind: "访客（已验证邮箱）",
    };
  const u = await db
    .selectFrom("app_user")
    .select(["id", "name", "email", "phone", "user_type"])
    .where("id", "=", c.filer_user_id)
    .executeTakeFirst();
  return {
    userId: c.filer_user_id,
    name: u?.name ?? c.filer_name,
    email: u?.email ?? c.filer_email,
    phone: maskPhone(u?.phone ?? c.filer_phone),
    kind: ROLE_NAMES[(u?.user_type ?? 100) as RoleCode] ?? "",
  };
}

/** Handlers', the arbitrator's and root's view; anyone else 404. */
export async function handlerView(db: Handle, user: User, id: number): Promise<HandlerComplaintView> {
  const r = await loadRow(db, id);
  const actors = await actorsOf(db, { user }, r);
  if (!(await mayHandleView(db, user, r, actors))) throw notFound(NOT_FOUND);
  const authors = await db
    .selectFrom("work_author")
    .innerJoin("app_user", "app_user.id", "work_author.user_id")
    .select("app_user.name")
    .where("work_id", "=", r.work_id)
    .orderBy("rank")
    .execute();
  const teachers = await db
    .selectFrom("work_teacher")
    .innerJoin("app_user", "app_user.id", "work_teacher.user_id")
    .select("app_user.name")
    .where("work_id", "=", r.work_id)
    .orderBy("rank")
    .execute();
  const work = await db
    .selectFrom("work")
    .innerJoin("work_category", "work_category.id", "work.category_id")
    .select(["work.status", "work_category.name as category_name"])
    .where("work.id", "=", r.work_id)
    .executeTakeFirstOrThrow();
  const judgeRows = await db
    .selectFrom("app_user")
    .select(["id", "name"])
    .where((eb) =>
      eb.or([
        eb("id", "in", eb.selectFrom("judge_assignment").select("judge_id").where("work_id", "=", r.work_id)),
        eb("id", "in", eb.selectFrom("judge_score").select("judge_id").where("work_id", "=", r.work_id)),
      ]),
    )
    .orderBy("id")
    .execute();
  const opinionBy = r.opinion_by
    ? ((await db.selectFrom("app_user").select("name").where("id", "=", r.opinion_by).executeTakeFirst())?.name ?? "")
    : "";
  // Handler actions only (the parties act in their own view).
  const handlerActors = [...actors].filter((a) => a !== "filer" && a !== "party");
  return {
    ...common(r, Date.now()),
    filer: await filerIdentity(db, r),
    text: r.text,
    evidence: await evidenceOf(db, r.id, false),
    work: {
      id: Number(r.work_id),
      name: r.work_name,
      status: work.status,
      schoolName: r.school_name,
      categoryName: work.category_name,
      authors: authors.map((a) => a.name),
      teachers: teachers.map((t) => t.name),
      award: await publishedAward(db, Number(r.work_id)),
      judges: judgeRows.map((j) => ({ id: j.id, name: j.name })),
    },
    refusal: r.refusal,
    opinion: r.opinion_at
      ? {
          outcome: r.opinion_outcome as DecisionOutcome,
          action: r.opinion_action as DecisionAction,
          text: r.opinion_text ?? "",
          by: opinionBy,
          at: r.opinion_at,
        }
      : null,
    decision: await decisionOf(db, r),
    arbitration: await arbitrationOf(db, r),
    history: await historyOf(db, r.id, r.type, false),
    actions: complaintActionsFor(r.state as ComplaintState, handlerActors),
  };
}

function applyFilters(q: Query, f: ComplaintFilters, nowIso: string): Query {
  if (f.contestId !== undefined) q = q.where("complaint.contest_id", "=", f.contestId);
  if (f.state) q = q.where("complaint.state", "=", f.state);
  if (f.type) q = q.where("complaint.type", "=", f.type);
  if (f.workId !== undefined) q = q.where("complaint.work_id", "=", f.workId);
  if (f.overdue)
    q = q.where("complaint.due_at", "<", nowIso).where("complaint.state", "not in", FINAL_STATES as ComplaintState[]);
  return q;
}

async function page(q: Query, f: ComplaintFilters, offset: number, limit: number): Promise<PageOf<ComplaintListItem>> {
  const now = new Date();
  const nowIso = now.toISOString();
  q = applyFilters(q, f, nowIso);
  const total = await q
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const finals = sql.join((FINAL_STATES as string[]).map((s) => sql.lit(s)));
  // Overdue first (earliest due first), then open ones by due time, then the rest newest first.
  const rows = await q
    .orderBy(
      sql`case when complaint.state not in (${finals}) and complaint.due_at < ${nowIso} then 0 when complaint.state not in (${finals}) then 1 else 2 end`,
    )
    .orderBy("complaint.due_at")
    .orderBy("complaint.id", "desc")
    .offset(offset)
    .limit(limit)
    .execute();
  return {
    list: rows.map((r) => ({
      ...common(r, now.getTime()),
      filerName: r.filer_name,
      stateName: COMPLAINT_STATE_NAMES[r.state as ComplaintState],
    })),
    total: Number(total.n),
  };
}

/** Handlers' scope as a query: the contests they handle; root all. */
async function handlerQuery(db: Handle, user: User): Promise<Query> {
  const ids = await handledContests(db, user);
  const q = baseQuery(db) as Query;
  if (ids === "all") return q;
  return q.where("complaint.contest_id", "in", ids.length ? ids : [-1]);
}

export async function handlerList(db: Handle, user: User, f: ComplaintFilters, offset: number, limit: number) {
  return page(await handlerQuery(db, user), f, offset, limit);
}

/** The arbitrator's list: sent to arbitration in the contests they arbitrate, minus conflicts. */
async function arbitratorQuery(db: Handle, user: User): Promise<Query> {
  const ids = await memberContestIds(db, user.id, "arbitrator");
  let q = (baseQuery(db) as Query)
    .where("complaint.contest_id", "in", ids.length ? ids : [-1])
    .where("complaint.state", "in", ARBITRATION_STATES as ComplaintState[])
    .where("complaint.arb_requested_at", "is not", null)
    .where((eb) => eb.or([eb("complaint.arbitrator_id", "is", null), eb("complaint.arbitrator_id", "=", user.id)]))
    .where((eb) => eb.or([eb("complaint.opinion_by", "is", null), eb("complaint.opinion_by", "!=", user.id)]))
    .where((eb) => eb.or([eb("complaint.decision_by", "is", null), eb("complaint.decision_by", "!=", user.id)]))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("work_teacher")
            .select("work_teacher.id")
            .whereRef("work_teacher.work_id", "=", "complaint.work_id")
            .where("work_teacher.user_id", "=", user.id),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("work_author")
            .select("work_author.id")
            .whereRef("work_author.work_id", "=", "complaint.work_id")
            .where("work_author.user_id", "=", user.id),
        ),
      ),
    );
  if (user.school_id !== null) q = q.where("work.school_id", "!=", user.school_id);
  return q;
}

export async function arbitratorList(db: Handle, user: User, f: ComplaintFilters, offset: number, limit: number) {
  if (user.user_type !== ROLE.arbitrator) return { list: [], total: 0 };
  return page(await arbitratorQuery(db, user), f, offset, limit);
}

/** Root's arbitration review: every complaint that went to arbitration. */
export async function arbitrationReviewList(db: Handle, f: ComplaintFilters, offset: number, limit: number) {
  return page((baseQuery(db) as Query).where("complaint.arb_requested_at", "is not", null), f, offset, limit);
}

export async function counts(db: Db, user: User, contestId?: number): Promise<ComplaintCounts> {
  let q = (await handlerQuery(db, user)).clearSelect();
  if (contestId !== undefined) q = q.where("complaint.contest_id", "=", contestId);
  const rows = await q
    .select(["complaint.state", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy("complaint.state")
    .execute();
  const nowIso = new Date().toISOString();
  const overdue = await q
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("complaint.due_at", "<", nowIso)
    .where("complaint.state", "not in", FINAL_STATES as ComplaintState[])
    .executeTakeFirstOrThrow();
  const by = new Map(rows.map((r) => [r.state, Number(r.n)]));
  return {
    byState: COMPLAINT_STATES.map((s) => ({ state: s, name: COMPLAINT_STATE_NAMES[s], count: by.get(s) ?? 0 })),
    overdue: Number(overdue.n),
    total: [...by.values()].reduce((a, b) => a + b, 0),
  };
}

/** Contests in the handler's scope (for the filter). */
export async function handlerContests(db: Handle, user: User) {
  const ids = await handledContests(db, user);
  let q = db.selectFrom("contest").select(["id", "name", "level", "year"]).where("archived", "=", 0);
  if (ids !== "all") q = q.where("id", "in", ids.length ? ids : [-1]);
  return q.orderBy("year", "desc").orderBy("id").execute();
}

/** An evidence file the caller may download: the filer (own or not yet attached), handlers, the arbitrator, root. */
export async function evidenceFor(db: Handle, caller: Caller, evidenceId: number) {
  const e = await db.selectFrom("complaint_evidence").selectAll().where("id", "=", evidenceId).executeTakeFirst();
  if (!e) throw notFound("证据材料不存在或您无权查看");
  const own = caller.user
    ? e.owner_user_id === caller.user.id
    : e.owner_user_id === null && e.owner_email === caller.visitorEmail;
  if (own) return e;
  if (e.complaint_id === null || !caller.user) throw notFound("证据材料不存在或您无权查看");
  const c = (await db.selectFrom("complaint").selectAll().where("id", "=", e.complaint_id).executeTakeFirst())!;
  const actors = await actorsOf(db, caller, c);
  if (!(await mayHandleView(db, caller.user, c, actors))) throw notFound("证据材料不存在或您无权查看");
  return e;
}
