/**
 * Issue 29, judges and their groups: accepting an invitation for a 大类 puts the judge into
 * that 大类's judge group (or a group created later takes them in); the add-judge picker
 * learns which judges must not judge a work (回避, with the reason), and a refused assignment
 * names the judge and says what to do — no internal ids.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, makeApp, type Client, type TestApp } from "../helpers/app";
import { catId, contestId, login } from "./works-fixtures";
import { insertUser, insertWork, joinContest, makeJudge } from "./judging-fixtures";

const JI = "/Backend/JudgeInvite";
const A = "/Backend/ContestAdmin/judging";
const ACCEPT = { schoolId: null, tags: [], conflicts: { schoolIds: [], workIds: [] } };

describe.each(DIALECTS)("judge invitations into groups, and the add-judge picker on %s", (dialect) => {
  let t: TestApp;
  let cadmin: Client;
  let js: number, soft: number, iot: number, rootId: number;
  let serial = 0;

  beforeAll(async () => {
    t = await makeApp(dialect);
    js = await contestId(t, "2026-JS");
    await joinContest(t, await insertUser(t, { username: "jg_admin", name: "苏组务", role: 1 }), js, "admin");
    cadmin = await login(t, "jg_admin");
    soft = await catId(t, "软件应用与开发");
    iot = await catId(t, "物联网应用");
    rootId = (await t.db.selectFrom("app_user").select("id").where("username", "=", "root").executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => t?.close());

  /** An invitation to a new judge account for these categories, accepted from 「我的邀请」. */
  async function acceptInvitation(username: string, name: string, categories: number[]) {
    const uid = await insertUser(t, { username, name, role: 4, school: null });
    const at = new Date().toISOString();
    await t.db
      .insertInto("judge_invitation")
      .values({
        contest_id: js,
        person_id: null,
        email: `${username}@test.local`,
        name,
        categories: JSON.stringify(categories),
        answer_by: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        code_hash: `test-${username}-${++serial}`,
        status: "sent",
        sent_at: at,
        invited_by: rootId,
        created_at: at,
      })
      .execute();
    const me = await login(t, username);
    const mine = await me.get(`${JI}/mine`);
    const r = await me.post(`${JI}/mine/${mine.body.data.invitations[0].id}/accept`, { ...ACCEPT, categoryIds: categories });
    expect(r.body.error, r.body.info).toBe(0);
    return uid;
  }
  const groupOf = async (name: string) =>
    ((await cadmin.get(`${A}/${js}/groups`)).body.data as { id: number; name: string; judges: { id: number }[] }[]).find(
      (g) => g.name === name,
    )!;

  it("accepting an invitation for 软件应用与开发 puts the judge into that category's group", async () => {
    const made = await cadmin.post(`${A}/${js}/groups`, { name: "软件评审组", categoryId: soft });
    expect(made.body.error, made.body.info).toBe(0);
    const uid = await acceptInvitation("jg_soft", "软评委", [soft]);
    expect((await groupOf("软件评审组")).judges.map((j) => j.id)).toContain(uid);
  });

  it("no group yet: the group created later for the category takes the judge in", async () => {
    const uid = await acceptInvitation("jg_iot", "物评委", [iot]);
    const made = await cadmin.post(`${A}/${js}/groups`, { name: "物联网评审组", categoryId: iot });
    expect(made.body.error, made.body.info).toBe(0);
    expect(made.body.data.judges.map((j: { id: number }) => j.id)).toEqual([uid]);
    // A second group of the same category does not take them again.
    const second = await cadmin.post(`${A}/${js}/groups`, { name: "物联网评审二组", categoryId: iot });
    expect(second.body.data.judges).toEqual([]);
  });

  it("the picker is told who must not judge a work, and a refusal names the judge without an id", async () => {
    const same = await makeJudge(t, "jg_nju", "钱新评", "南京大学", js);
    const g = await groupOf("软件评审组");
    expect((await cadmin.post(`${A}/group/${g.id}/judges`, { userIds: [same] })).body.error).toBe(0);
    const work = await insertWork(t, { contest: js, school: "南京大学", category: "软件应用与开发", status: "format_passed" });
    expect((await cadmin.post(`${A}/group/${g.id}/works`, { workIds: [work] })).body.error).toBe(0);
    const pool = await cadmin.get(`${A}/${js}/works?keyword=${work}`);
    expect(pool.body.error, pool.body.info).toBe(0);
    const row = (pool.body.data.list ?? pool.body.data).find((w: { id: number }) => w.id === work);
    expect(row.conflicts).toContainEqual({ judgeId: same, reasons: "同校" });
    const refused = await cadmin.post(`${A}/${js}/assignments`, { workId: work, judgeId: same });
    expect(refused.status).toBe(400);
    expect(refused.body.info).toMatch(
      /^不能分配：评委「钱新评」与作品 \d+「[^」]+」存在回避关系（同校），请改选其他评委；本次未做任何更改$/,
    );
    expect(refused.body.info).toContain("请改选其他评委");
    expect(refused.body.info).not.toContain(`（${same}）`);
  });
});
