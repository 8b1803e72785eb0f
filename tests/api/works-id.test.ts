/** Work ids: 4-digit year + 6-digit sequence, unique and gap-free under concurrent creation. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { nextWorkIds } from "../../src/server/work/repository";
import { isWorkId, yearOfWorkId } from "../../src/shared/work/states";
import { account, catId, contestId, W } from "./works-fixtures";

describe.each(DIALECTS)("work ids on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp(dialect);
  });
  afterAll(async () => t?.close());

  it("gives 20 works created at the same moment 20 unique, well-formed, consecutive ids", async () => {
    const zjut = await contestId(t, "2026-ZJ-10337");
    const soft = await catId(t, "软件应用与开发");
    const students: Client[] = [];
    for (let i = 0; i < 20; i++) students.push(await account(t, `par_${i}`, `并行${i}号`));
    const before = Number(
      (await t.db.selectFrom("work_sequence").select("last").where("year", "=", 2026).executeTakeFirstOrThrow()).last,
    );
    const replies = await Promise.all(
      students.map((s, i) => s.post(W, { contestId: zjut, categoryId: soft, name: `并行作品${i}` })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(201));
    const ids = replies.map((r) => r.body.data.id as number);
    expect(new Set(ids).size).toBe(20);
    for (const id of ids) {
      expect(String(id)).toMatch(/^2026\d{6}$/);
      expect(isWorkId(id)).toBe(true);
      expect(yearOfWorkId(id)).toBe(2026);
    }
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => 2026_000_000 + before + 1 + i));
    // Each reply describes its own work.
    for (const [i, r] of replies.entries()) expect(r.body.data.name).toBe(`并行作品${i}`);
    expect(
      Number((await t.db.selectFrom("work_sequence").select("last").where("year", "=", 2026).executeTakeFirstOrThrow()).last),
    ).toBe(before + 20);
  });

  it("starts a new year's sequence at 000001, also when its first ids are taken at once", async () => {
    const got = await Promise.all(Array.from({ length: 10 }, () => t.db.transaction().execute((trx) => nextWorkIds(trx, 2031))));
    expect(got.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => 2031_000_001 + i));
    expect(await t.db.transaction().execute((trx) => nextWorkIds(trx, 2031, 3))).toEqual([2031000011, 2031000012, 2031000013]);
  });

  it("does not use up an id when the creation is refused", async () => {
    const zjut = await contestId(t, "2026-ZJ-10337");
    const a = await account(t, "gap_a", "编号甲");
    const last = async () =>
      Number((await t.db.selectFrom("work_sequence").select("last").where("year", "=", 2026).executeTakeFirstOrThrow()).last);
    const n = await last();
    const bad = await a.post(W, {
      contestId: zjut,
      categoryId: await catId(t, "大数据应用"),
      name: "有问题的作品",
      coAuthors: ["no_such_user"],
    });
    expect(bad.status).toBe(422);
    expect(await last()).toBe(n);
    const ok = await a.post(W, { contestId: zjut, categoryId: await catId(t, "大数据应用"), name: "正常的作品" });
    expect(ok.body.data.id).toBe(2026_000_000 + n + 1);
  });
});
