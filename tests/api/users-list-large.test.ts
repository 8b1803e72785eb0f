/**
 * The user list on a larger table (issue 15): the total is counted on app_user alone (without
 * the view's school and major joins) and the sorted pages walk the (column, id) indexes of
 * migration 0030. Every page, in every sort the list offers and with each filter, must equal
 * the plain ordered query over app_user, and the total its count — for root, a school admin
 * and a contest admin, including users without a school or major and many equal names.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROLE } from "../../src/shared/roles";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";

const P = "/Backend/Admin/user";
const COLUMNS: Record<string, string> = {
  id: "id",
  username: "username",
  name: "name",
  userType: "user_type",
  memberNo: "member_no",
  schoolId: "school_id",
  createdAt: "created_at",
};
const N = 400;

describe.each(DIALECTS)("user list of many users on %s", (dialect) => {
  let t: TestApp;
  let root: Client, sadmin: Client, cadmin: Client;
  let zjut: number;

  beforeAll(async () => {
    t = await makeApp(dialect);
    zjut = (await t.db.selectFrom("school").select("id").where("name", "=", "浙江工业大学").executeTakeFirstOrThrow()).id;
    const schools = (await t.db.selectFrom("school").select("id").orderBy("id").execute()).map((s) => s.id);
    const majors = (await t.db.selectFrom("major").select("code").limit(3).execute()).map((m) => m.code);
    const types = [ROLE.author, ROLE.teacher, ROLE.judge, ROLE.contestReviewer];
    const rows = Array.from({ length: N }, (_, i) => ({
      username: `bulk_${String((i * 7919) % N).padStart(4, "0")}`,
      password_hash: "!",
      // Few distinct names, times and numbers: the id decides the order within each tie.
      name: ["张三", "李四", "王五", "赵六", "Alice"][i % 5],
      user_type: types[i % types.length],
      email: i % 3 ? `bulk${i}@example.com` : null,
      email_verified: 0,
      phone: null,
      school_id: i % 10 === 0 ? null : i % 4 === 0 ? zjut : schools[i % schools.length],
      member_no: i % 6 === 0 ? null : String(2020000 + (i % 37)),
      major_code: i % 2 ? (majors[i % majors.length] ?? null) : null,
      has_complaint_right: i % 11 === 0 ? 1 : 0,
      is_school_contest_judge: 0,
      locked: i % 13 === 0 ? 1 : 0,
      created_at: `2026-0${(i % 5) + 1}-01T00:00:00.000Z`,
      updated_at: "2026-01-01T00:00:00.000Z",
    }));
    await t.db.insertInto("app_user").values(rows).execute();
    root = new Client(t);
    sadmin = new Client(t);
    cadmin = new Client(t);
    await root.login("root", "admin");
    await sadmin.login("school_admin", "admin");
    await cadmin.login("contest_admin", "admin");
  }, 60_000);
  afterAll(async () => t?.close());

  it("has an index for each sortable column of the user list", async () => {
    const names =
      dialect === "postgres"
        ? (
            await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'app_user'`.execute(t.db)
          ).rows.map((r) => r.name)
        : (
            await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'app_user'`.execute(
              t.db,
            )
          ).rows.map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(["app_user_name", "app_user_member_no", "app_user_type", "app_user_created"]));
  });

  /** The plain query over app_user that a page of root's list must equal. */
  async function expected(where: (q: any) => any, field: string, dir: "asc" | "desc", offset: number, limit: number) {
    const base = where(t.db.selectFrom("app_user"));
    const total = Number((await base.select((eb: any) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
    const col = COLUMNS[field];
    // NULLs sort as the database sorts them; the list leaves that to the database as well.
    const ids = (await base.select("id").orderBy(sql.ref(col), dir).orderBy("id").offset(offset).limit(limit).execute()).map(
      (r: { id: number }) => r.id,
    );
    return { total, ids };
  }

  const FILTERS: [string, string, (q: any) => any][] = [
    ["none", "", (q) => q],
    ["userType", "&userType=100&userType=99", (q) => q.where("user_type", "in", [100, 99])],
    ["schoolId", `&schoolId=__ZJUT__`, (q) => q.where("school_id", "=", zjut)],
    ["locked", "&locked=true", (q) => q.where("locked", "=", 1)],
    // The underscore is literal: bulk_00xx only (a wildcard would also match every bulk0… email).
    ["keyword", "&keyword=bulk_00", (q) => q.where(sql`substr(username, 1, 7)`, "=", "bulk_00")],
  ];

  it("gives root the same pages and totals as the plain ordered query, in every sort and filter", async () => {
    for (const [label, qs, where] of FILTERS) {
      for (const field of Object.keys(COLUMNS)) {
        for (const dir of ["asc", "desc"] as const) {
          for (const [current, pageSize] of [
            [1, 20],
            [3, 20],
            [2, 50],
          ] as const) {
            const r = await root.get(
              `${P}?current=${current}&pageSize=${pageSize}&sort=${dir === "desc" ? "-" : ""}${field}${qs.replace("__ZJUT__", String(zjut))}`,
            );
            expect(r.status, `${label} ${field} ${dir}`).toBe(200);
            const want = await expected(where, field, dir, (current - 1) * pageSize, pageSize);
            expect(
              { total: r.body.data.total, ids: r.body.data.list.map((u: { id: number }) => u.id) },
              `${label} ${field} ${dir} page ${current}`,
            ).toEqual(want);
          }
        }
      }
    }
  }, 120_000);

  it("counts only the users of the school admin's and contest admin's scope", async () => {
    const own = await sadmin.get(`${P}?pageSize=100&sort=name`);
    const ownIds = (
      await t.db
        .selectFrom("app_user")
        .select("id")
        .where("school_id", "=", zjut)
        .where("user_type", "in", [ROLE.teacher, ROLE.author])
        .orderBy("name")
        .orderBy("id")
        .execute()
    ).map((r) => r.id);
    expect(own.body.data.total).toBe(ownIds.length);
    expect(own.body.data.list.map((u: { id: number }) => u.id)).toEqual(ownIds.slice(0, 100));
    // The bulk judges are members of no contest: the contest admin's list neither shows nor counts them.
    const judges = await cadmin.get(`${P}?pageSize=100`);
    expect(judges.body.data.list.every((u: { username: string }) => !u.username.startsWith("bulk_"))).toBe(true);
    expect(judges.body.data.total).toBe(judges.body.data.list.length);
  });
});
