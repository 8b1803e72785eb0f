/** Shared set-up of the duplicate-check API tests: works planted with a known text, and indexing them. */
import { expect } from "vitest";
import type { Client, TestApp } from "../helpers/app";
import { insertUser } from "./judging-fixtures";
import { insertDemoWork } from "../../src/server/seed/demo-helpers";

export const D = "/Backend/DupCheck";

/**
 * A work inserted directly (status accepted unless given) in the first subcategory of `categoryId`,
 * its text split between the summary and design fields, by `authors` new students of `school`
 * whose usernames start with `prefix` and the work's serial number.
 */
export async function plantWork(
  t: TestApp,
  w: {
    serial: number;
    prefix: string;
    name: string;
    contest: number;
    categoryId: number;
    school: string;
    text: string;
    authors: string[];
    year?: number;
    status?: "accepted" | "format_passed" | "draft";
  },
) {
  const schoolRow = await t.db.selectFrom("school").select("id").where("name", "=", w.school).executeTakeFirstOrThrow();
  const sub = await t.db
    .selectFrom("work_category")
    .select("id")
    .where("parent_id", "=", w.categoryId)
    .orderBy("sort")
    .executeTakeFirstOrThrow();
  const authors: number[] = [];
  for (const [i, name] of w.authors.entries())
    authors.push(await insertUser(t, { username: `${w.prefix}${w.serial}${"abcde"[i]}`, name, role: 100, school: w.school }));
  const half = Math.floor(w.text.length / 2);
  return insertDemoWork(t.db, {
    year: w.year ?? 2026,
    contestId: w.contest,
    categoryId: w.categoryId,
    subcategoryId: sub.id,
    name: w.name,
    status: w.status ?? "accepted",
    schoolId: schoolRow.id,
    authors,
    teachers: [],
    text: { summary: w.text.slice(0, half), design_idea: w.text.slice(half) },
    version: 1,
    at: new Date().toISOString(),
  });
}

/** Waits until the background task has indexed the work (its entry leaves pending); its final status. */
export async function indexedStatus(t: TestApp, id: number) {
  for (let i = 0; i < 400; i++) {
    const e = await t.db.selectFrom("dup_entry").select("status").where("work_id", "=", id).executeTakeFirst();
    if (e && e.status !== "pending") return e.status;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`work ${id} was not indexed`);
}

/** Indexes planted works through root's reindex route (the same background task) and waits for each. */
export async function reindexAll(t: TestApp, root: Client, ids: number[]) {
  for (const id of ids) expect((await root.post(`${D}/admin/work/${id}/reindex`)).status).toBe(200);
  for (const id of ids) expect(await indexedStatus(t, id)).toBe("indexed");
}
