/**
 * The works list on a larger table, where a long list of root or a contest admin is read
 * by merging index-ordered (contest, status) branches (src/server/work/list-page.ts): every
 * page, in every sort the list offers, equals the plain ordered query, and so does the total.
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

describe.each(DIALECTS)("works list of many works on %s", (dialect) => {
  let t: TestApp;
  let root: Client, cadmin: Client;
  let zj: number[];
  beforeAll(async () => {
    t = await makeApp(dialect);
    await generateWorks(t.db, { count: 6000, seed: 7, year: 2026, passwordHash: await hashPassword("Seed@2026") });
    // Varied times, so the sorts by time are not decided by the id alone.
    await sql`update work set submitted_at = null where status = 'draft'`.execute(t.db);
    await sql`update work set updated_at = '2026-03-0' || (id % 9 + 1) || 'T08:00:00.000Z', submitted_at = case when submitted_at is null then null else '2026-02-1' || (id % 7) || 'T09:00:00.000Z' end`.execute(
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
  afterAll(async () => t?.close());

  /** The plain ordered query the page must equal. */
  const expected = (
    contests: number[] | null,
    status: string[] | null,
    field: string,
    dir: "asc" | "desc",
    offset: number,
    limit: number,
  ) => orderedWorkIds(t, { contests, status }, field, dir, { offset, limit });

  // Both plans: the plain query for every list, then merged branches for every list.
  for (const [plan, plainUpTo] of [
    ["plain", 1e9],
    ["merged", 0],
  ] as const) {
    it(`gives root every page in every sort exactly as the plain ordered query would (${plan} plan)`, async () => {
      LIST_TUNING.plainUpTo = { sqlite: plainUpTo, postgres: plainUpTo };
      expect(
        Number(
          (
            await t.db
              .selectFrom("work")
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      ).toBeGreaterThan(6000);
      for (const status of [null, ["submitted", "school_approved"], ["accepted"]]) {
        for (const field of WORK_SORT) {
          for (const dir of ["asc", "desc"] as const) {
            for (const [current, pageSize] of [
              [1, 20],
              [3, 20],
              [40, 50],
            ]) {
              const qs = `${status ? status.map((s) => `status=${s}&`).join("") : ""}sort=${dir === "desc" ? "-" : ""}${field}&current=${current}&pageSize=${pageSize}`;
              const r = await root.get(`${A}?${qs}`);
              const want = await expected(null, status, field, dir, (current - 1) * pageSize, pageSize);
              expect([qs, r.body.data.list.map((w: { id: number }) => w.id), r.body.data.total]).toEqual([
                qs,
                want.ids,
                want.total,
              ]);
            }
          }
        }
      }
    }, 120_000);

    it(`gives a contest admin the pages of the own contests only, in order (${plan} plan)`, async () => {
      LIST_TUNING.plainUpTo = { sqlite: plainUpTo, postgres: plainUpTo };
      for (const [field, dir] of [
        ["submittedAt", "desc"],
        ["name", "asc"],
        ["id", "desc"],
        ["updatedAt", "asc"],
      ] as const) {
        for (const current of [1, 2, 7]) {
          const r = await cadmin.get(`${A}?sort=${dir === "desc" ? "-" : ""}${field}&current=${current}&pageSize=20`);
          const want = await expected(zj, null, field, dir, (current - 1) * 20, 20);
          expect([field, current, r.body.data.list.map((w: { id: number }) => w.id), r.body.data.total]).toEqual([
            field,
            current,
            want.ids,
            want.total,
          ]);
        }
      }
      // Past the end: no rows, the right total.
      const far = await cadmin.get(`${A}?current=9999&pageSize=20`);
      expect(far.body.data).toEqual({ list: [], total: (await expected(zj, null, "id", "desc", 0, 1)).total });
    }, 120_000);
  }
  afterAll(() => {
    LIST_TUNING.plainUpTo = { ...DEFAULT_TUNING };
  });
});
