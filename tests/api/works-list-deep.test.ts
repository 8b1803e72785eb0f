/**
 * Deep pages of the works list (issue 30): a page in the second half of a list is read from
 * its end (src/server/work/list-page.ts, nearerEnd). Every such page — the last one, a short
 * last one, the one after the middle — must be the same slice of the whole list in the
 * requested order (NULL submission times and equal names included, which each dialect places
 * at its own end), and the total the direct count; for root with and without a status filter
 * and for a contest admin, in both of the list's plans (plain query, merged branches).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../src/server/account/password";
import { generateWorks } from "../../src/server/seed/works";
import { LIST_TUNING } from "../../src/server/work/list-page";
import { WORK_SORT } from "../../src/shared/work/schema";
import { DIALECTS, makeApp, type Client, type TestApp } from "../helpers/app";
import { login, orderedWorkIds } from "./works-fixtures";

const A = "/Backend/Admin/work";
const DEFAULT_TUNING = { ...LIST_TUNING.plainUpTo };

describe.each(DIALECTS)("deep pages of the works list on %s", (dialect) => {
  let t: TestApp;
  let root: Client, cadmin: Client;
  let zj: number[];
  beforeAll(async () => {
    t = await makeApp(dialect);
    await generateWorks(t.db, { count: 1500, seed: 11, year: 2026, passwordHash: await hashPassword("Seed@2026") });
    // NULLs (drafts are not submitted) and many ties: the id decides within each.
    await sql`update work set submitted_at = null where status = 'draft'`.execute(t.db);
    await sql`update work set updated_at = '2026-03-0' || (id % 9 + 1) || 'T08:00:00.000Z', submitted_at = case when submitted_at is null then null else '2026-02-1' || (id % 7) || 'T09:00:00.000Z' end, name = case when id % 3 = 0 then '同名作品' else name end`.execute(
      t.db,
    );
    [root, cadmin] = await Promise.all(["root", "contest_admin"].map((u) => login(t, u)));
    const zjContest = await t.db.selectFrom("contest").select("id").where("code", "=", "2026-ZJ").executeTakeFirstOrThrow();
    zj = (
      await t.db
        .selectFrom("contest")
        .select("id")
        .where((eb) => eb.or([eb("id", "=", zjContest.id), eb("parent_id", "=", zjContest.id)]))
        .execute()
    ).map((c) => c.id);
  }, 120_000);
  afterAll(async () => {
    LIST_TUNING.plainUpTo = { ...DEFAULT_TUNING };
    await t?.close();
  });

  /** The whole list in the requested order (the database's own ORDER BY), and its count. */
  const whole = (contests: number[] | null, status: string[] | null, field: string, dir: "asc" | "desc") =>
    orderedWorkIds(t, { contests, status }, field, dir);

  /** The pages past the middle: the one after it, the one before the last, the last (short with size 7). */
  const deepPages = (total: number, size: number) => {
    const last = Math.ceil(total / size);
    return [...new Set([Math.floor(total / 2 / size) + 1, last - 1, last])].filter((p) => p >= 1);
  };

  for (const [plan, plainUpTo] of [
    ["plain", 1e9],
    ["merged", 0],
  ] as const) {
    it(`gives root each deep page as the same slice of the whole ordered list, and the direct count (${plan} plan)`, async () => {
      LIST_TUNING.plainUpTo = { sqlite: plainUpTo, postgres: plainUpTo };
      for (const status of [null, ["submitted", "school_approved"]]) {
        for (const field of WORK_SORT) {
          for (const dir of ["asc", "desc"] as const) {
            const want = await whole(null, status, field, dir);
            expect(want.total).toBeGreaterThan(500);
            for (const size of [20, 7]) {
              for (const current of deepPages(want.total, size)) {
                const qs = `${status ? status.map((s) => `status=${s}&`).join("") : ""}sort=${dir === "desc" ? "-" : ""}${field}&current=${current}&pageSize=${size}`;
                const r = await root.get(`${A}?${qs}`);
                const slice = want.ids.slice((current - 1) * size, current * size);
                expect(slice.length).toBeGreaterThan(0);
                expect([qs, r.body.data.list.map((w: { id: number }) => w.id), r.body.data.total]).toEqual([
                  qs,
                  slice,
                  want.total,
                ]);
              }
            }
          }
        }
      }
    }, 180_000);

    it(`gives a contest admin every page, first to last, that together are the whole ordered list (${plan} plan)`, async () => {
      LIST_TUNING.plainUpTo = { sqlite: plainUpTo, postgres: plainUpTo };
      for (const [field, dir] of [
        ["submittedAt", "desc"],
        ["name", "asc"],
      ] as const) {
        const want = await whole(zj, null, field, dir);
        const got: number[] = [];
        for (let current = 1; current <= Math.ceil(want.total / 20); current++) {
          const r = await cadmin.get(`${A}?sort=${dir === "desc" ? "-" : ""}${field}&current=${current}&pageSize=20`);
          expect(r.body.data.total).toBe(want.total);
          got.push(...r.body.data.list.map((w: { id: number }) => w.id));
        }
        expect([field, got]).toEqual([field, want.ids]);
      }
    }, 180_000);
  }
});
