/**
 * Reads shared by the invitation use cases: a contest's open categories as a tree (大类 with
 * their 小类), the names of category ids, and invitation rows turned into their views.
 */
import type { CategoryNode, InvitationView } from "../../shared/judge-invite/schema";
import type { JudgeInvitationTable } from "../db/schema";
import type { Handle } from "../work/repository";
import { categoryIdsOf, stateOf } from "./codes";

export interface CategoryTree {
  nodes: CategoryNode[];
  /** every open id (大类 and 小类) → its name */
  names: Map<number, string>;
  /** every open id → its 大类 */
  topOf: Map<number, number>;
}

/** The contest's open 大类 (all 大类 when it lists none) with their 小类; archived ones left out. */
export async function contestCategories(db: Handle, contestId: number): Promise<CategoryTree> {
  const c = await db.selectFrom("contest").select("categories").where("id", "=", contestId).executeTakeFirst();
  const open = new Set(categoryIdsOf(c?.categories ?? "[]"));
  const all = await db
    .selectFrom("work_category")
    .select(["id", "parent_id", "name", "sort"])
    .where("archived", "=", 0)
    .orderBy("sort")
    .orderBy("id")
    .execute();
  const tops = all.filter((r) => r.parent_id === null && (!open.size || open.has(r.id)));
  const nodes = tops.map((t) => ({
    id: t.id,
    name: t.name,
    children: all.filter((r) => r.parent_id === t.id).map((r) => ({ id: r.id, name: r.name })),
  }));
  const names = new Map<number, string>();
  const topOf = new Map<number, number>();
  for (const n of nodes) {
    names.set(n.id, n.name);
    topOf.set(n.id, n.id);
    for (const ch of n.children) {
      names.set(ch.id, `${n.name} / ${ch.name}`);
      topOf.set(ch.id, n.id);
    }
  }
  return { nodes, names, topOf };
}

/** Names of any category ids (also closed or archived ones, as an old invitation may name them). */
export async function categoryNames(db: Handle, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom("work_category as c")
    .leftJoin("work_category as p", "p.id", "c.parent_id")
    .select(["c.id", "c.name", "p.name as parent"])
    .where("c.id", "in", [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.parent ? `${r.parent} / ${r.name}` : r.name]));
}

export const invitationRows = (db: Handle) =>
  db
    .selectFrom("judge_invitation as i")
    .innerJoin("contest", "contest.id", "i.contest_id")
    .innerJoin("app_user as by", "by.id", "i.invited_by")
    .leftJoin("app_user as acc", "acc.id", "i.accepted_user_id")
    .selectAll("i")
    .select([
      "contest.name as contest_name",
      "contest.year as contest_year",
      "by.name as by_name",
      "acc.name as acc_name",
      "acc.username as acc_username",
    ]);

export type InvitationRow = Awaited<ReturnType<ReturnType<typeof invitationRows>["executeTakeFirstOrThrow"]>>;

export async function toViews(db: Handle, rows: InvitationRow[]): Promise<InvitationView[]> {
  const names = await categoryNames(
    db,
    rows.flatMap((r) => categoryIdsOf(r.categories)),
  );
  const now = Date.now();
  return rows.map((r) => ({
    id: r.id,
    contestId: r.contest_id,
    contestName: r.contest_name,
    personId: r.person_id,
    name: r.name,
    email: r.email,
    categories: categoryIdsOf(r.categories).map((id) => ({ id, name: names.get(id) ?? String(id) })),
    message: r.message,
    answerBy: r.answer_by,
    state: stateOf(r as Pick<JudgeInvitationTable, "status" | "answer_by">, now),
    statusReason: r.status_reason,
    sentAt: r.sent_at,
    openedAt: r.opened_at,
    answeredAt: r.answered_at,
    remindedAt: r.reminded_at,
    invitedBy: { id: r.invited_by, name: r.by_name },
    acceptedUser:
      r.accepted_user_id !== null ? { id: r.accepted_user_id, name: r.acc_name ?? "", username: r.acc_username ?? "" } : null,
  }));
}

export async function viewOf(db: Handle, id: number): Promise<InvitationView> {
  return (await toViews(db, [await invitationRows(db).where("i.id", "=", id).executeTakeFirstOrThrow()]))[0];
}
