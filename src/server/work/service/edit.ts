/**
 * Editing a work's fields: the first author while the work is editable, the teacher only
 * 指导老师自评. Every edit carries the version it is based on (a stale one is refused with
 * the newer version, so the form can show it and keep what was typed), and a field locked
 * from a stage on refuses changes; on any refusal nothing changes.
 */
import { badRequest, conflict, DomainError, forbidden } from "../../../shared/errors";
import { FIELDS, GROUP_NAMES, onePerCategoryMessage, type WorkField } from "../../../shared/work/fields";
import type { TeacherReviewBody, WorkUpdate, WorkView } from "../../../shared/work/schema";
import { isEditable, WORK_STATE_NAMES } from "../../../shared/work/states";
import type { WorkTable } from "../../db/schema";
import * as repo from "../repository";
import { refuseLocked, refuseLockedPart, workLocksOf } from "../rules";
import { checkVersion, inTransaction, loadVisible, writeAt, type Loaded, type TxCtx, type WorkCtx } from "./context";
import { checkCategory, checkGroup, checkSubcategory } from "./members";
import { viewOf } from "./read";
import { cleanText, textColumns, valueOf } from "./values";
import type { Updateable } from "kysely";
import { emit } from "../../events";

export function requireEditable(l: Loaded) {
  if (!isEditable(l.work.status))
    throw badRequest(`作品当前状态为「${WORK_STATE_NAMES[l.work.status]}」，不能修改；只有草稿和已退回修改的作品可以修改`);
}

export function requireFirstAuthor(l: Loaded, what = "修改作品信息") {
  if (!l.relations.has("first_author")) throw forbidden(`只有第一作者可以${what}`);
}

/** Refuses a change of the authors or the teachers while the contest locks that part. */
export async function refuseIfLocked(t: TxCtx, l: Loaded, part: "authors" | "teachers") {
  const locked = refuseLockedPart(part, await workLocksOf(t.db, l.work, t.now));
  if (locked) throw forbidden(locked);
}

/** Moves the authors' 大类 with the work; the one-per-大类 index refuses an author who has a work there. */
async function moveAuthors(t: TxCtx, l: Loaded, categoryId: number) {
  const r = await repo.guardOnePerCategory(t.db, () =>
    t.db.updateTable("work_author").set({ category_id: categoryId }).where("work_id", "=", l.work.id).execute(),
  );
  if (r !== "conflict") return;
  for (const a of l.authors) {
    const e = await repo.entryOf(t.db, a.user_id, categoryId, l.work.year, l.work.id);
    if (e) throw conflict(onePerCategoryMessage(e.name, e.id, a.name));
  }
  throw conflict("有作者在该大类已有作品，每位作者每个大类只能参加一件作品");
}

/**
 * Writes changed fields: to the work row, or — a work in the national round (loaded as its
 * national entry) — to the entry's own values (national_entry.fields, migration 0029), so the
 * provincial record on the work row stays as it was. The work's version still guards the
 * edit: the entry's write bumps nothing on the work row, and the version the client holds
 * stays the one it read.
 */
async function writeFields(t: TxCtx, l: Loaded, set: Updateable<WorkTable>) {
  if (!l.entry) return writeAt(t, l.work, set);
  const mine = await t.db.selectFrom("national_entry").select("fields").where("id", "=", l.entry.id).executeTakeFirstOrThrow();
  const fields = { ...repo.entryFields(mine.fields), ...(set as Record<string, string | null>) };
  await t.db
    .updateTable("national_entry")
    .set({ fields: JSON.stringify(fields), updated_at: t.now.toISOString() })
    .where("id", "=", l.entry.id)
    .execute();
}

/** The fields of a work that stay the provincial record's in the national round: the national groups and quota follow them. */
const PROVINCIAL_ONLY: readonly WorkField[] = ["categoryId", "subcategoryId", "group"];

/**
 * A save that lost a race (a co-author's save or another tab's came first, 409) is refused
 * with the newer version as the caller sees it (data.work), read after the refused
 * transaction; any other refusal is passed on as it was.
 */
async function withNewerVersion<T>(ctx: WorkCtx, id: number, given: number, save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (e) {
    if (!(e instanceof DomainError) || e.status !== 409) throw e;
    const l = await loadVisible(ctx, id, { format: true }).catch(() => undefined);
    if (!l || l.work.version === given) throw e;
    throw new DomainError(409, e.info, undefined, { work: await viewOf(ctx.db, l) });
  }
}

export function updateWork(ctx: WorkCtx, id: number, input: WorkUpdate): Promise<WorkView> {
  return withNewerVersion(ctx, id, input.version, () => saveWork(ctx, id, input));
}

async function saveWork(ctx: WorkCtx, id: number, input: WorkUpdate): Promise<WorkView> {
  const view = await inTransaction(ctx, async (t) => {
    // A work in the national round is edited as its national entry (returned by the national format review).
    const l = await loadVisible(t, id, { format: true });
    requireFirstAuthor(l);
    requireEditable(l);
    checkVersion(l.work, input.version);
    if (input.teacherReview !== undefined) throw forbidden(`「${FIELDS.teacherReview.label}」由指导教师填写`);
    const w = l.work;
    const set: Updateable<WorkTable> = {};
    const changes: Record<string, [unknown, unknown]> = {};
    /** Sets a column that changes; the log shows `shown` (a name) where the column holds an id or key. */
    const put = (f: WorkField, value: string | number | null, shown: unknown = value) => {
      if (value === w[repo.COLUMN[f]]) return;
      (set as Record<string, unknown>)[repo.COLUMN[f]] = value;
      changes[f] = [valueOf(w, f), f === "aiDeclaration" && typeof value === "string" ? JSON.parse(value) : shown];
    };

    let cat: repo.CategoryRow | undefined;
    if (input.categoryId !== undefined && input.categoryId !== w.category_id) {
      cat = await checkCategory(t, { name: w.contest_name, categories: w.contest_categories }, input.categoryId);
      put("categoryId", cat.id, cat.name);
      // A 小类 of the former 大类 cannot stay.
      if (input.subcategoryId === undefined) put("subcategoryId", null);
    }
    const category = cat ?? (await repo.findCategory(t.db, w.category_id))!;
    if (input.subcategoryId !== undefined) {
      const sub = await checkSubcategory(t, category, input.subcategoryId);
      put("subcategoryId", sub, sub === null ? null : (await repo.findCategory(t.db, sub))!.name);
    }
    if (input.group !== undefined || (cat && !cat.has_professional_group && w.group_type === "professional")) {
      const g = checkGroup(category, input.group ?? "normal");
      put("group", g, GROUP_NAMES[g]);
    }
    if (input.name !== undefined) put("name", input.name.trim() || w.name);
    const texts = textColumns(input as Record<string, unknown>);
    for (const [f, v] of Object.entries(texts) as [WorkField, string | null][]) put(f, v);

    const changed = Object.keys(changes) as WorkField[];
    if (!changed.length) return viewOf(t.db, l, t.now);
    const locked = refuseLocked(changed, await workLocksOf(t.db, w, t.now));
    if (locked) throw forbidden(locked);
    const fixed = l.entry && changed.find((f) => PROVINCIAL_ONLY.includes(f));
    if (fixed) throw forbidden(`国赛阶段不能修改「${FIELDS[fixed].label}」：作品按省赛推荐时的大类和组别参加国赛`);
    await writeFields(t, l, set);
    if (cat) await moveAuthors(t, l, cat.id);
    if (l.entry) changes.nationalContest = [null, l.entry.contest_id];
    await repo.appendLog(t.db, { workId: id, userId: t.user.id, action: "update", changes });
    return viewOf(t.db, await loadVisible(t, id, { format: true }), t.now);
  });
  // A returned work edited after submit: its index entry follows (drafts are not indexed).
  if (view.status !== "draft") await emit(ctx.db, "work.textChanged", { workIds: [id] });
  return view;
}

/** A teacher of the work writes 指导老师自评 while the work is editable. */
export function setTeacherReview(ctx: WorkCtx, id: number, input: TeacherReviewBody): Promise<WorkView> {
  return withNewerVersion(ctx, id, input.version, () => saveTeacherReview(ctx, id, input));
}

async function saveTeacherReview(ctx: WorkCtx, id: number, input: TeacherReviewBody): Promise<WorkView> {
  return inTransaction(ctx, async (t) => {
    const l = await loadVisible(t, id, { format: true });
    if (!l.relations.has("teacher")) throw forbidden(`只有该作品的指导教师可以填写「${FIELDS.teacherReview.label}」`);
    requireEditable(l);
    checkVersion(l.work, input.version);
    const value = cleanText(input.teacherReview);
    if (value === l.work.teacher_review) return viewOf(t.db, l, t.now);
    const locked = refuseLockedPart("teacherReview", await workLocksOf(t.db, l.work, t.now));
    if (locked) throw forbidden(locked);
    await writeFields(t, l, { teacher_review: value });
    const changes: Record<string, [unknown, unknown]> = { teacherReview: [l.work.teacher_review, value] };
    if (l.entry) changes.nationalContest = [null, l.entry.contest_id];
    await repo.appendLog(t.db, { workId: id, userId: t.user.id, action: "teacher_review", changes });
    return viewOf(t.db, await loadVisible(t, id, { format: true }), t.now);
  });
}
