/**
 * The national round's leftovers (issue 14), on both dialects:
 * - a national return lets the first author edit the fields the NATIONAL contest's locks allow
 *   and resubmit the entry; the values are the entry's own (national_entry.fields), the work
 *   row — the provincial record — stays as it was; the national review and judges see them;
 * - the works-management list under the national contest shows the entry's state and name;
 * - a promotion cannot be withdrawn once the entry's national judging began (grouped,
 *   assigned, scored), neither by 撤回晋级 nor by withdrawing the provincial publication.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, makeApp, type Client, type TestApp } from "../helpers/app";
import { attachRequired, catId, contestId, login, setStage } from "./works-fixtures";
import { insertUser, insertWork, joinContest, makeJudge } from "./judging-fixtures";
import { syncNationalEntries } from "../../src/server/national/entries";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readXlsx } from "../../src/server/crud/excel";
import { waitJob } from "../helpers/jobs";

const R = "/Backend/Review";
const A = "/Backend/ContestAdmin/judging";
const N = "/Backend/ContestAdmin/national";
const W = "/Backend/Work/work";
const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

describe.each(DIALECTS)("national round on %s", (dialect) => {
  let t: TestApp;
  let js: number, cn: number, soft: number;
  let jsAdmin: Client, cnAdmin: Client, cnReviewer: Client, author: Client, teacher: Client;
  const w: number[] = [];
  const judges: number[] = [];

  const work = (id: number) => t.db.selectFrom("work").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const entry = (id: number) =>
    t.db
      .selectFrom("national_entry")
      .selectAll()
      .where("work_id", "=", id)
      .where("contest_id", "=", cn)
      .executeTakeFirstOrThrow();
  const adminList = async (contest: number, query = "") => {
    const r = await cnAdmin.get(`/Backend/Admin/work?contestId=${contest}&pageSize=50${query}`);
    expect(r.status).toBe(200);
    return r.body.data.list as { id: number; name: string; status: string; statusName: string; contest: { id: number } }[];
  };
  const userOf = async (workId: number, table: "work_author" | "work_teacher") =>
    (
      await t.db
        .selectFrom(table)
        .innerJoin("app_user", "app_user.id", `${table}.user_id`)
        .select("app_user.username")
        .where(`${table}.work_id`, "=", workId)
        .orderBy(`${table}.rank`)
        .executeTakeFirstOrThrow()
    ).username;

  beforeAll(async () => {
    t = await makeApp(dialect);
    js = await contestId(t, "2026-JS");
    cn = await contestId(t, "2026-CN");
    soft = await catId(t, "软件应用与开发");
    await joinContest(t, await insertUser(t, { username: "nr_js_admin", name: "苏赛务", role: 1 }), js, "admin");
    await joinContest(t, await insertUser(t, { username: "nr_cn_admin", name: "国赛务", role: 1 }), cn, "admin");
    await joinContest(t, await insertUser(t, { username: "nr_cn_reviewer", name: "国审查", role: 3 }), cn, "reviewer");
    [jsAdmin, cnAdmin, cnReviewer] = await Promise.all(["nr_js_admin", "nr_cn_admin", "nr_cn_reviewer"].map((u) => login(t, u)));
    for (const school of ["南京理工大学", "江南大学", "南京师范大学"])
      w.push(await insertWork(t, { contest: js, school, category: "软件应用与开发", status: "format_passed" }));
    const award = (
      await t.db
        .selectFrom("award_level")
        .select("id")
        .where("contest_level", "=", "provincial")
        .where("kind", "=", "work")
        .orderBy("id")
        .executeTakeFirstOrThrow()
    ).id;
    const at = new Date().toISOString();
    await t.db
      .insertInto("contest_result")
      .values(
        w.map((id, i) => ({
          contest_id: js,
          work_id: id,
          group_id: null,
          raw_mean: 90 - i,
          normalised: 90 - i,
          rank: i + 1,
          award_level_id: award,
          promoted: 1,
          updated_at: at,
        })),
      )
      .execute();
    const admin = (await t.db.selectFrom("app_user").select("id").where("username", "=", "nr_js_admin").executeTakeFirstOrThrow())
      .id;
    await t.db
      .insertInto("result_publication")
      .values({
        contest_id: js,
        published_at: at,
        published_by: admin,
        model: "m",
        model_version: 1,
        params: JSON.stringify({ publicity: null }),
        log_head: "h",
        log_seq: 0,
        note: null,
        withdrawn_at: null,
        withdrawn_by: null,
        withdraw_reason: null,
      })
      .execute();
    await syncNationalEntries(t.db, js, admin);
    await setStage(t, cn, "registration", -10, 5);
    await setStage(t, cn, "online_judging", -1, 10);
    for (const [i, school] of ["浙江大学", "浙江工业大学", "温州大学"].entries())
      judges.push(await makeJudge(t, `nr_judge${i}`, `国评委${i}`, school, cn));
    author = await login(t, await userOf(w[0], "work_author"));
    teacher = await login(t, await userOf(w[0], "work_teacher"));
    // The files it was submitted with (uploaded while it was still editable at school level).
    await t.db.updateTable("work").set({ status: "returned" }).where("id", "=", w[0]).execute();
    await attachRequired(author, w[0]);
    await t.db.updateTable("work").set({ status: "format_passed" }).where("id", "=", w[0]).execute();
    // The national contest locks 设计思路 from its registration on (started); the provincial contest locks nothing of it.
    await t.db.deleteFrom("entry_lock").where("contest_id", "is", null).execute();
    await t.db
      .insertInto("entry_lock")
      .values({ contest_id: cn, field: "designIdea", from_stage: "registration", created_at: at })
      .execute();
  });
  afterAll(() => t?.close());

  it("a national return lets the first author edit the allowed fields and resubmit; the provincial record stays as it was", async () => {
    const before = await work(w[0]);
    // Before the return the author cannot edit (the entry waits for review).
    let view = (await author.get(`${W}/${w[0]}`)).body.data;
    expect(view.viewer.canEdit).toBe(false);
    expect((await author.req("PATCH", `${W}/${w[0]}`, { version: view.version, summary: "改" })).status).toBe(400);
    const r = await cnReviewer.post(`${R}/work/${w[0]}/format_return`, {
      reasonCodes: ["missing_material"],
      reason: "请按国赛要求改写作品简介",
      deadline: inDays(3),
    });
    expect(r.body).toMatchObject({ error: 0, data: { status: "format_returned" } });

    view = (await author.get(`${W}/${w[0]}`)).body.data;
    expect(view).toMatchObject({
      status: "format_returned",
      statusName: "国赛形式审查退回修改",
      viewer: { canEdit: true, nationalRound: true },
    });
    expect(view.viewer.actions).toContain("format_resubmit");
    expect(view.viewer.lockedFields.map((f: { field: string }) => f.field)).toEqual(["designIdea"]);
    // The author's own list shows where the work stands now: returned by the national review.
    const mine = (await author.get(`${W}/mine?pageSize=50`)).body.data.list as {
      id: number;
      status: string;
      statusName: string;
    }[];
    expect(mine.find((x) => x.id === w[0])).toMatchObject({ status: "format_returned", statusName: "国赛形式审查退回修改" });

    const edit = await author.req("PATCH", `${W}/${w[0]}`, {
      version: view.version,
      name: "国赛版作品名",
      summary: "国赛版作品简介：面向全国的应用。",
    });
    expect(edit.body).toMatchObject({
      error: 0,
      data: { name: "国赛版作品名", summary: "国赛版作品简介：面向全国的应用。", status: "format_returned" },
    });
    // The national contest's lock binds; the 大类 stays the provincial one.
    const locked = await author.req("PATCH", `${W}/${w[0]}`, { version: view.version, designIdea: "新的设计思路" });
    expect(locked.status).toBe(403);
    expect(locked.body.info).toContain("「设计思路」已于");
    const other = (
      await t.db
        .selectFrom("work_category")
        .select("id")
        .where("parent_id", "is", null)
        .where("id", "!=", soft)
        .orderBy("id")
        .executeTakeFirstOrThrow()
    ).id;
    const cat = await author.req("PATCH", `${W}/${w[0]}`, { version: view.version, categoryId: other });
    expect(cat.status).toBe(403);
    expect(cat.body.info).toContain("国赛阶段不能修改");
    // The teacher writes 指导老师自评 for the entry too.
    expect(
      (
        await teacher.req("PATCH", `/Backend/Teacher/work/${w[0]}/review`, {
          version: view.version,
          teacherReview: "国赛自评：作品完成度高。",
        })
      ).body.error,
    ).toBe(0);

    // The provincial record is as it was, for the provincial admin too.
    expect(await work(w[0])).toEqual(before);
    expect((await jsAdmin.get(`${W}/${w[0]}`)).body.data).toMatchObject({
      name: before.name,
      summary: before.summary,
      status: "format_passed",
    });
    expect(JSON.parse((await entry(w[0])).fields!)).toEqual({
      name: "国赛版作品名",
      summary: "国赛版作品简介：面向全国的应用。",
      teacher_review: "国赛自评：作品完成度高。",
    });

    // Resubmitted through the works' transition function: the entry moves, the work does not.
    const re = await author.post(`${W}/${w[0]}/format-resubmit`, { version: view.version });
    expect(re.body).toMatchObject({ error: 0, data: { status: "format_resubmitted" } });
    expect((await entry(w[0])).format_status).toBe("resubmitted");
    expect((await work(w[0])).status).toBe("format_passed");
    const log = await t.db
      .selectFrom("work_log")
      .select(["action", "changes"])
      .where("work_id", "=", w[0])
      .where("action", "in", ["update", "format_resubmit"])
      .orderBy("id")
      .execute();
    expect(log.map((l) => [l.action, JSON.parse(l.changes).nationalContest])).toEqual([
      ["update", [null, cn]],
      ["format_resubmit", [null, cn]],
    ]);
    // Not editable any more.
    expect((await author.get(`${W}/${w[0]}`)).body.data.viewer.canEdit).toBe(false);

    // The national review sees the entry's own values.
    const list = (await cnReviewer.get(`${R}/contest/${cn}/works?pageSize=50`)).body.data.list as {
      id: number;
      name: string;
      status: string;
    }[];
    expect(list.find((x) => x.id === w[0])).toMatchObject({ name: "国赛版作品名", status: "format_resubmitted" });
    const sheet = (await cnReviewer.get(`${R}/work/${w[0]}`)).body.data;
    expect(JSON.stringify(sheet)).toContain("国赛版作品简介");
    expect((await cnReviewer.post(`${R}/work/${w[0]}/format_pass`, {})).body.data.status).toBe("format_passed");
  });

  it("the works-management list under the national contest shows the entries' national state and name", async () => {
    expect(
      (
        await cnReviewer.post(`${R}/work/${w[1]}/format_return`, {
          reasonCodes: ["missing_material"],
          reason: "请补交国赛演示视频",
          deadline: inDays(3),
        })
      ).body.error,
    ).toBe(0);
    const list = await adminList(cn);
    expect(list.map((x) => x.id).sort()).toEqual([...w].sort());
    expect(list.find((x) => x.id === w[0])).toMatchObject({
      status: "format_passed",
      statusName: "国赛形式审查通过",
      name: "国赛版作品名",
      contest: { id: cn },
    });
    expect(list.find((x) => x.id === w[1])).toMatchObject({ status: "format_returned", statusName: "国赛形式审查退回修改" });
    expect(list.find((x) => x.id === w[2])).toMatchObject({ status: "accepted", statusName: "国赛已接收" });
    // The status filter reads the entry's state: the provincial states do not match.
    expect((await adminList(cn, "&status=format_returned")).map((x) => x.id)).toEqual([w[1]]);
    expect((await adminList(cn, "&status=accepted")).map((x) => x.id)).toEqual([w[2]]);
    expect((await adminList(cn, "&status=format_passed")).map((x) => x.id)).toEqual([w[0]]);
    // The Excel export of the same filter says the same.
    const start = await cnAdmin.post("/Backend/Admin/work/export", { contestId: cn });
    expect(start.status).toBe(202);
    const job = await waitJob(cnAdmin, start.body.data.jobId);
    const file = await cnAdmin.get(job.downloadUrl);
    const dir = mkdtempSync(join(tmpdir(), "nr-export-"));
    const cells: Record<string, string>[] = [];
    try {
      writeFileSync(join(dir, "x.xlsx"), file.res.rawPayload);
      for await (const r of readXlsx(join(dir, "x.xlsx"))) if (!("headers" in r)) cells.push(r.cells);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(cells.find((c) => Number(c["作品编号"]) === w[0])).toMatchObject({
      作品名称: "国赛版作品名",
      状态: "国赛形式审查通过",
    });
    expect(cells.find((c) => Number(c["作品编号"]) === w[1])).toMatchObject({ 状态: "国赛形式审查退回修改" });
    // Under the provincial contest the provincial record shows.
    const prov = (await jsAdmin.get(`/Backend/Admin/work?contestId=${js}&pageSize=50`)).body.data.list as {
      id: number;
      status: string;
      name: string;
    }[];
    expect(prov.find((x) => x.id === w[0])).toMatchObject({ status: "format_passed", name: (await work(w[0])).name });
    expect(prov.every((x) => x.status === "format_passed")).toBe(true);
  });

  it("a judge of the national contest sees the entry's own values", async () => {
    expect((await cnReviewer.post(`${R}/work/${w[2]}/format_pass`, {})).body.error).toBe(0);
    const g = await cnAdmin.post(`${A}/${cn}/groups`, { name: "国赛软件组", categoryId: soft });
    expect((await cnAdmin.post(`${A}/group/${g.body.data.id}/judges`, { userIds: judges })).status).toBe(200);
    expect((await cnAdmin.post(`${A}/${cn}/group-works/auto`, {})).body.data.grouped).toBe(2);
    expect((await cnAdmin.post(`${A}/${cn}/assign`, {})).body.data).toMatchObject({ applied: true });
    const judge = await login(t, "nr_judge0");
    const mine = (await judge.get(`/Backend/Judge/contest/${cn}/works`)).body.data as { id: number; name: string }[];
    expect(mine.find((x) => x.id === w[0])?.name).toBe("国赛版作品名");
    const v = (await judge.get(`/Backend/Judge/contest/${cn}/work/${w[0]}`)).body.data;
    expect(v.name).toBe("国赛版作品名");
    expect(v.fields.find((f: { key: string }) => f.key === "summary").value).toBe("国赛版作品简介：面向全国的应用。");
  });

  it("a promotion cannot be withdrawn once its national judging began; one still in format review can", async () => {
    const refused = await jsAdmin.post(`${N}/${js}/promoted/${w[0]}/withdraw`, { reason: "作者放弃参加国赛" });
    expect(refused.status).toBe(400);
    expect(refused.body.info).toContain("已进入国赛评审");
    expect(refused.body.info).toContain("联系国赛管理员");
    expect((await entry(w[0])).status).toBe("entered");
    // Withdrawing the provincial publication would take the promotion back too: refused, nothing changes.
    const un = await jsAdmin.post(`${A}/${js}/results/unpublish`, { reason: "重新核对成绩" });
    expect(un.status).toBe(400);
    expect(un.body.info).toContain("已进入国赛评审");
    expect(
      (await t.db.selectFrom("result_publication").select("withdrawn_at").where("contest_id", "=", js).executeTakeFirstOrThrow())
        .withdrawn_at,
    ).toBeNull();
    expect(
      await t.db
        .selectFrom("judge_assignment")
        .select("work_id")
        .where("contest_id", "=", cn)
        .where("work_id", "=", w[0])
        .execute(),
    ).not.toHaveLength(0);
    // w[1] is still in national format review: it may leave.
    expect((await jsAdmin.post(`${N}/${js}/promoted/${w[1]}/withdraw`, { reason: "作者放弃参加国赛" })).status).toBe(200);
    expect((await entry(w[1])).status).toBe("withdrawn");
  });
});
