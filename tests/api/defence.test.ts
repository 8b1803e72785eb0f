/**
 * The offline defence (现场答辩) on both dialects: the contest admin arranges a group's
 * session; the group leader draws the order (recorded, reproducible from the seed, refused
 * once scoring started); the group's judges score the works they may judge — never a work
 * of their own school or a declared conflict (404, like a non-member) — and every change is
 * in the score log; the leader's consolidated sheet and sign-off (refused with missing
 * scores unless confirmed with a note; read-only afterwards until the admin reopens it);
 * the authors' link (work, slot and place only; upload by the work's authors only; judges
 * of the group download it); the judge profile and earlier years' works.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { readScoreLog, verifyScoreLog } from "../../src/server/judging/service/score-log-store";
import { drawWorkOrder } from "../../src/server/judging/draw";
import { nextWorkIds } from "../../src/server/work/repository";
import { multipart } from "../helpers/multipart";
import { catId, contestId, idOf, login, SAMPLE, schoolId } from "./works-fixtures";
import { insertUser, insertWork, joinContest, makeJudge } from "./judging-fixtures";

const A = "/Backend/ContestAdmin/judging";
const D = "/Backend/Defence";
const NO_WORK = { error: 404, info: "作品不存在或不在您的答辩评审范围内" };
const NO_SHEET = { error: 404, info: "答辩场次不存在或您不是该评审组的专家组长" };
const NO_LINK = { error: 404, info: "答辩链接无效或已失效，请向赛事管理员确认" };

describe.each(DIALECTS)("offline defence on %s", (dialect) => {
  let t: TestApp;
  let cadmin: Client, leader: Client, j2: Client, j3: Client, j4: Client, jsJudge: Client, otherAdmin: Client;
  let zj: number, group: number, session: number;
  let wZju: number, wZjut: number, wNbu: number, wWzu: number, wSpare: number;
  let ids: { judge: number; judge2: number; judge3: number };
  const codes = new Map<number, string>();

  const score = (c: Client, workId: number, body: unknown) => c.req("PUT", `${D}/session/${session}/work/${workId}/score`, body);
  const logCount = async () => (await readScoreLog(t.db, zj)).length;
  const authorOf = async (workId: number, rank = 1) => {
    const r = await t.db
      .selectFrom("work_author")
      .innerJoin("app_user", "app_user.id", "work_author.user_id")
      .select("app_user.username")
      .where("work_id", "=", workId)
      .where("rank", "=", rank)
      .executeTakeFirstOrThrow();
    return login(t, r.username);
  };
  const uploadTo = (c: Client, code: string, filename: string, content: Buffer) => {
    const m = multipart([{ name: "file", filename, content }]);
    return c.req("POST", `${D}/reply/${code}/files`, m.body, m.headers);
  };

  beforeAll(async () => {
    t = await makeApp(dialect);
    cadmin = await login(t, "contest_admin");
    zj = await contestId(t, "2026-ZJ");
    const js = await contestId(t, "2026-JS");
    ids = { judge: await idOf(t, "judge"), judge2: await idOf(t, "judge2"), judge3: await idOf(t, "judge3") };
    await makeJudge(t, "df_js", "苏评委", "南京大学", js);
    const jsAdmin = await insertUser(t, { username: "df_js_admin", name: "苏赛务", role: 1 });
    await joinContest(t, jsAdmin, js, "admin");

    const big = await catId(t, "大数据应用");
    // 李评审 浙江大学 (leader), 陈评审 浙江工业大学, 刘评审 杭州电子科技大学; 张评审 宁波大学 is a judge of the contest outside the group.
    const g = await cadmin.post(`${A}/${zj}/groups`, { name: "大数据应用答辩组", categoryId: big, leaderId: ids.judge });
    expect(g.status).toBe(201);
    group = g.body.data.id;
    await cadmin.post(`${A}/group/${group}/judges`, { userIds: [ids.judge, ids.judge2, ids.judge3] });
    const work = (school: string, name: string) =>
      insertWork(t, { contest: zj, school, category: "大数据应用", status: "format_passed", name });
    wZju = await work("浙江大学", "高校科研成果画像");
    wZjut = await work("浙江工业大学", "运河客流分析");
    wNbu = await work("宁波大学", "港口吞吐量预测");
    wWzu = await work("温州大学", "退货原因分析");
    wSpare = await work("宁波大学", "未进入答辩的作品");
    expect((await cadmin.post(`${A}/group/${group}/works`, { workIds: [wZju, wZjut, wNbu, wWzu, wSpare] })).status).toBe(200);

    [leader, j2, j3, j4, jsJudge, otherAdmin] = await Promise.all(
      ["judge", "judge2", "judge3", "judge4", "df_js", "df_js_admin"].map((u) => login(t, u)),
    );
    // 刘评审 declares a conflict with the 温州大学 work.
    expect((await j3.post("/Backend/Judging/conflicts", { workId: wWzu, note: "曾指导该团队" })).status).toBe(201);
  });
  afterAll(async () => t?.close());

  it("lets the contest admin arrange the group's defence, with clear refusals and nothing half-done", async () => {
    const before = await cadmin.get(`${D}/admin/group/${group}`);
    expect(before.body.data.session).toBeNull();
    expect(before.body.data.works.map((w: { id: number }) => w.id)).toEqual(
      [wZju, wZjut, wNbu, wWzu, wSpare].sort((a, b) => a - b),
    );
    expect(before.body.data.group).toMatchObject({ name: "大数据应用答辩组", leader: { id: ids.judge, name: "李评审" } });

    const P = `${D}/admin/group/${group}/session`;
    const base = {
      startsAt: "2026-07-20T01:00:00.000Z",
      place: "广知楼 B201",
      meetingLink: "https://meeting.example.com/j/1",
      prepareNote: "请两名作者到场",
      minutesPerWork: 20,
    };
    expect((await cadmin.post(P, { ...base, startsAt: "七月二十日" })).body).toMatchObject({
      error: 422,
      info: "答辩开始时间格式不正确，请选择日期和时间",
      data: { field: "startsAt" },
    });
    const foreign = await insertWork(t, {
      contest: zj,
      school: "宁波大学",
      category: "大数据应用",
      status: "format_passed",
      name: "组外作品",
    });
    expect((await cadmin.post(P, { ...base, workIds: [wZju, foreign] })).body).toMatchObject({
      error: 422,
      info: `作品 ${foreign} 不在评审组「大数据应用答辩组」中`,
    });
    expect((await cadmin.post(P, { ...base, meetingLink: "会议室" })).status).toBe(422);
    expect(await t.db.selectFrom("defence_session").select("id").execute()).toEqual([]);
    // Outside the admin's scope, or not an admin at all.
    expect((await otherAdmin.post(P, base)).body).toMatchObject({ error: 404, info: "评审组不存在或不在您的管理范围内" });
    expect((await leader.post(P, base)).status).toBe(403);

    const made = await cadmin.post(P, { ...base, workIds: [wZju, wZjut, wNbu, wWzu] });
    expect(made.status).toBe(201);
    const s = made.body.data;
    session = s.id;
    expect(s).toMatchObject({
      place: "广知楼 B201",
      minutesPerWork: 20,
      draw: null,
      signOff: null,
      group: { id: group, name: "大数据应用答辩组" },
    });
    expect(s.slots.map((x: { work: { id: number } }) => x.work.id).sort()).toEqual([wZju, wZjut, wNbu, wWzu].sort());
    for (const x of s.slots) {
      expect(x.code).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(x.position).toBeNull();
      codes.set(x.work.id, x.code);
    }
    expect(new Set(codes.values()).size).toBe(4);
    // 李评审 avoids the 浙江大学 work, 陈评审 the 浙江工业大学 one, 刘评审 the declared one.
    expect(Object.fromEntries(s.slots.map((x: { work: { id: number }; expected: number }) => [x.work.id, x.expected]))).toEqual({
      [wZju]: 2,
      [wZjut]: 2,
      [wNbu]: 3,
      [wWzu]: 2,
    });
    expect((await cadmin.post(P, base)).body).toMatchObject({
      error: 409,
      info: "评审组「大数据应用答辩组」已有答辩安排，请直接修改",
    });
    const log = await t.db
      .selectFrom("audit_log")
      .select(["action", "changes"])
      .where("entity", "=", "defence_session")
      .execute();
    expect(log.map((l) => l.action)).toEqual(["create"]);
  });

  it("records the draw of the group leader: seed, who, when; the order follows from the seed", async () => {
    // A member who is not the leader may not draw; a judge outside the group does not see the session.
    expect((await j2.post(`${D}/session/${session}/draw`, {})).body).toEqual({
      error: 403,
      info: "只有专家组长或赛事管理员可以抽签",
    });
    expect((await j4.post(`${D}/session/${session}/draw`, {})).body).toEqual({
      error: 404,
      info: "答辩场次不存在或您不是该评审组的评委",
    });
    expect((await leader.post(`${D}/session/999999/draw`, {})).status).toBe(404);

    const first = await leader.post(`${D}/session/${session}/draw`, {});
    expect(first.body).toMatchObject({
      error: 0,
      info: "已抽签，答辩顺序已确定",
      data: { algorithm: "sha256-fisher-yates-v1", drawnBy: { id: ids.judge, name: "李评审" }, verified: true },
    });
    expect(first.body.data.seed).toMatch(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
    // The leader avoids the own-school work: the draw's input names only the others.
    expect(first.body.data).toMatchObject({ input: [wZjut, wNbu, wWzu].sort((a, b) => a - b), withheld: 1 });
    expect(JSON.stringify(first.body)).not.toContain(String(wZju));
    const check = async (seed: string, by: number) => {
      const row = await t.db.selectFrom("defence_session").selectAll().where("id", "=", session).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ draw_seed: seed, drawn_by: by });
      const slots = await t.db
        .selectFrom("defence_slot")
        .select(["work_id", "position", "slot_time"])
        .where("session_id", "=", session)
        .orderBy("position")
        .execute();
      // Anyone can re-check: the order from the seed and the sorted work ids is the stored one.
      expect(slots.map((x) => Number(x.work_id))).toEqual(drawWorkOrder(seed, [wZju, wZjut, wNbu, wWzu]));
      expect(slots.map((x) => x.position)).toEqual([1, 2, 3, 4]);
      expect(slots.map((x) => x.slot_time)).toEqual([
        "2026-07-20T01:00:00.000Z",
        "2026-07-20T01:20:00.000Z",
        "2026-07-20T01:40:00.000Z",
        "2026-07-20T02:00:00.000Z",
      ]);
    };
    await check(first.body.data.seed, ids.judge);

    expect((await leader.post(`${D}/session/${session}/draw`, {})).body.error).toBe(409);
    const again = await cadmin.post(`${D}/session/${session}/draw`, { redraw: true });
    expect(again.body).toMatchObject({ error: 0, info: "已重新抽签，答辩顺序已更新", data: { verified: true } });
    expect(again.body.data.seed).not.toBe(first.body.data.seed);
    expect(again.body.data).toMatchObject({ input: [wZju, wZjut, wNbu, wWzu].sort((a, b) => a - b), withheld: 0 });
    await check(again.body.data.seed, await idOf(t, "contest_admin"));
    // The admin's schedule change moves the times with the order.
    expect(
      (await cadmin.req("PATCH", `${D}/admin/session/${session}`, { minutesPerWork: 15 })).body.data.slots.map(
        (x: { time: string }) => x.time,
      ),
    ).toEqual(["2026-07-20T01:00:00.000Z", "2026-07-20T01:15:00.000Z", "2026-07-20T01:30:00.000Z", "2026-07-20T01:45:00.000Z"]);
    const audit = await t.db
      .selectFrom("audit_log")
      .select("action")
      .where("entity", "=", "defence_session")
      .orderBy("id")
      .execute();
    expect(audit.map((a) => a.action)).toEqual(["create", "draw", "redraw", "update"]);
  });

  it("shows each judge the group's session blind, without the works the judge must avoid", async () => {
    const mine = async (c: Client) => (await c.get(`${D}/my/${zj}`)).body.data[0];
    const l = await mine(leader);
    expect(l).toMatchObject({
      id: session,
      isLeader: true,
      isMember: true,
      avoided: 1,
      scored: 0,
      place: "广知楼 B201",
      meetingLink: "https://meeting.example.com/j/1",
    });
    expect(l.slots.map((x: { work: { id: number } }) => x.work.id).sort()).toEqual([wZjut, wNbu, wWzu].sort());
    expect(l.slots.map((x: { position: number }) => x.position)).toEqual(
      [...l.slots.map((x: { position: number }) => x.position)].sort(),
    );
    expect((await mine(j2)).slots.map((x: { work: { id: number } }) => x.work.id).sort()).toEqual([wZju, wNbu, wWzu].sort());
    expect((await mine(j3)).slots.map((x: { work: { id: number } }) => x.work.id).sort()).toEqual([wZju, wZjut, wNbu].sort());
    // Nothing names a work the judge avoids, the draw's input included: only the count.
    expect(l.draw).toMatchObject({ input: [wZjut, wNbu, wWzu].sort((a, b) => a - b), withheld: 1, verified: true });
    expect((await mine(j3)).draw).toMatchObject({ input: [wZju, wZjut, wNbu].sort((a, b) => a - b), withheld: 1 });
    expect(JSON.stringify((await leader.get(`${D}/session/${session}`)).body)).not.toContain(String(wZju));
    expect(JSON.stringify((await j2.get(`${D}/my/${zj}`)).body)).not.toContain(String(wZjut));
    // Blind: no authors, teachers or schools anywhere in the reply.
    const text = JSON.stringify((await leader.get(`${D}/my/${zj}`)).body);
    expect(text).not.toContain(String(wZju));
    const w = await t.db
      .selectFrom("work")
      .select(["author_names", "teacher_names"])
      .where("id", "in", [wZjut, wNbu, wWzu])
      .execute();
    for (const secret of [
      ...w.flatMap((x) => x.author_names.split("、")),
      ...w.map((x) => x.teacher_names),
      "浙江工业大学",
      "宁波大学",
      "温州大学",
    ])
      expect(text).not.toContain(secret);

    // A judge of the contest outside the group sees no session; another contest's judge gets 404.
    expect((await j4.get(`${D}/my/${zj}`)).body).toEqual({ error: 0, info: "您所在的评审组尚未安排现场答辩", data: [] });
    expect((await j4.get(`${D}/session/${session}`)).body).toEqual({ error: 404, info: "答辩场次不存在或您不是该评审组的评委" });
    expect((await jsJudge.get(`${D}/my/${zj}`)).body).toEqual({ error: 404, info: "赛事不存在或您不是该赛事的评委" });
    expect((await (await login(t, "student")).get(`${D}/my/${zj}`)).status).toBe(403);
  });

  it("answers 404 for a work of the judge's own school, a declared conflict and a non-member, like a made-up work", async () => {
    const body = { score: 80, recommendation: "recommend", comment: "" };
    expect((await score(leader, wZju, body)).body).toEqual(NO_WORK);
    expect((await score(j2, wZjut, body)).body).toEqual(NO_WORK);
    expect((await score(j3, wWzu, body)).body).toEqual(NO_WORK);
    expect((await score(j4, wNbu, body)).body).toEqual(NO_WORK);
    expect((await score(leader, wSpare, body)).body).toEqual(NO_WORK);
    expect((await score(leader, 2026999999, body)).body).toEqual(NO_WORK);
    expect((await jsJudge.req("PUT", `${D}/session/${session}/work/${wNbu}/score`, body)).body).toEqual(NO_WORK);
    expect(await t.db.selectFrom("defence_score").select("id").execute()).toEqual([]);
    expect(await logCount()).toBe(0);
  });

  it("saves scores with checks, appends each change to the score log and nothing when unchanged", async () => {
    expect((await score(j2, wNbu, { score: 101, recommendation: "strong" })).body).toMatchObject({
      error: 422,
      data: { field: "score" },
    });
    expect((await score(j2, wNbu, { score: 85.55, recommendation: "strong" })).body).toEqual({
      error: 422,
      info: "评分为 0–100 的数，最多保留一位小数",
      data: { field: "score" },
    });
    expect((await score(j2, wNbu, { score: 85, recommendation: "maybe" })).body).toMatchObject({
      error: 422,
      data: { field: "recommendation" },
    });
    expect(await logCount()).toBe(0);

    const saved = await score(j2, wNbu, { score: 77.3, recommendation: "strong", comment: "  数据扎实 " });
    expect(saved.body).toMatchObject({
      error: 0,
      info: `已保存作品 ${wNbu} 的答辩评分`,
      data: { score: 77.3, recommendation: "strong", comment: "数据扎实" },
    });
    let log = await readScoreLog(t.db, zj);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      action: "defence_score",
      workId: wNbu,
      judgeId: ids.judge2,
      actorId: ids.judge2,
      score: 77.3,
      reason: "strong",
      comment: "数据扎实",
      contestId: zj,
    });
    expect((await score(j2, wNbu, { score: 77.3, recommendation: "strong", comment: "数据扎实" })).body.info).toBe(
      "评分没有变化",
    );
    expect(await logCount()).toBe(1);
    expect((await score(j2, wNbu, { score: 86, recommendation: "recommend", comment: "数据扎实" })).status).toBe(200);
    log = await readScoreLog(t.db, zj);
    expect(log.map((e) => [e.score, e.reason])).toEqual([
      [77.3, "strong"],
      [86, "recommend"],
    ]);
    expect(log[1].prevHash).toBe(log[0].hash);
    expect((await verifyScoreLog(t.db, zj)).ok).toBe(true);
    const mine = (await j2.get(`${D}/session/${session}`)).body.data;
    expect(mine.slots.find((x: { work: { id: number } }) => x.work.id === wNbu).mine).toMatchObject({
      score: 86,
      recommendation: "recommend",
    });
    expect(mine.scored).toBe(1);

    // Once scoring started the order stays, and the works of the defence too.
    expect((await leader.post(`${D}/session/${session}/draw`, { redraw: true })).body).toEqual({
      error: 409,
      info: "已有评委开始评分，不能重新抽签",
    });
    expect((await cadmin.req("PATCH", `${D}/admin/session/${session}`, { workIds: [wNbu, wWzu] })).body).toEqual({
      error: 409,
      info: "已有评委评分，不能再更改答辩作品",
    });
    expect((await t.db.selectFrom("defence_slot").select("id").where("session_id", "=", session).execute()).length).toBe(4);
  });

  it("gives the authors' link the work, slot and place only, and the upload to the work's authors only", async () => {
    const code = codes.get(wZjut)!;
    const anon = new Client(t);
    const v = await anon.get(`${D}/reply/${code}`);
    expect(v.body.data).toMatchObject({
      work: { id: wZjut, name: "运河客流分析", category: "大数据应用" },
      place: "广知楼 B201",
      meetingLink: "https://meeting.example.com/j/1",
      prepareNote: "请两名作者到场",
      drawn: true,
      closed: false,
      isAuthor: false,
      fileCount: 0,
      files: [],
      minutesPerWork: 15,
    });
    expect(v.body.data.position).toBeGreaterThanOrEqual(1);
    expect(v.body.data.time).toMatch(/^2026-07-20T0[12]:/);
    const w = await t.db
      .selectFrom("work")
      .select(["author_names", "teacher_names"])
      .where("id", "=", wZjut)
      .executeTakeFirstOrThrow();
    const text = JSON.stringify(v.body);
    for (const secret of [...w.author_names.split("、"), w.teacher_names, "浙江工业大学", "李评审", "陈评审"])
      expect(text).not.toContain(secret);
    // No other work through this link; an unknown code is a plain 404.
    expect(text).not.toContain(String(wNbu));
    expect((await anon.get(`${D}/reply/AAAAAAAAAAAAAAAAAAAAAAAA`)).body).toEqual(NO_LINK);

    const pdf = Buffer.concat([SAMPLE.pdf, Buffer.from("% 答辩材料\n")]);
    expect((await uploadTo(anon, code, "答辩.pdf", pdf)).status).toBe(401);
    const stranger = await login(t, "student2");
    expect((await uploadTo(stranger, code, "答辩.pdf", pdf)).body).toEqual({
      error: 403,
      info: "只有该作品的作者（已确认参赛）可以上传答辩材料，请用作者本人的账号登录",
    });
    const otherAuthor = await authorOf(wNbu);
    expect((await uploadTo(otherAuthor, code, "答辩.pdf", pdf)).status).toBe(403);
    const author = await authorOf(wZjut, 2);
    expect((await uploadTo(author, code, "答辩.txt", Buffer.from("hello"))).body).toMatchObject({
      error: 422,
      info: "答辩材料只接受 pdf、ppt、pptx、zip、mp4 格式的文件，「答辩.txt」不符合",
    });
    expect((await uploadTo(author, code, "假的.pdf", Buffer.from("not a pdf at all, just text"))).status).toBe(422);
    expect(await t.db.selectFrom("work_file").select("id").where("work_id", "=", wZjut).execute()).toEqual([]);

    const up = await uploadTo(author, code, "答辩.pdf", pdf);
    expect(up.status).toBe(201);
    expect(up.body.info).toMatch(/^已上传答辩材料：答辩\.pdf（/);
    const pptx = SAMPLE.zip;
    const rep = await uploadTo(author, code, "答辩.pptx", pptx);
    expect(rep.body.info).toMatch(/^已替换答辩材料：答辩\.pptx/);
    const rows = await t.db
      .selectFrom("work_file")
      .select(["kind", "filename", "replaced_at"])
      .where("work_id", "=", wZjut)
      .orderBy("id")
      .execute();
    expect(rows.map((r) => [r.kind, r.filename, r.replaced_at === null])).toEqual([
      ["defence", "答辩.pdf", false],
      ["defence", "答辩.pptx", true],
    ]);
    const wlog = await t.db.selectFrom("work_log").select("action").where("work_id", "=", wZjut).orderBy("id").execute();
    expect(wlog.map((r) => r.action)).toEqual(["upload_file", "replace_file"]);

    // The authors see their files; others only how many there are.
    const asAuthor = (await (await authorOf(wZjut)).get(`${D}/reply/${code}`)).body.data;
    expect(asAuthor).toMatchObject({ isAuthor: true, fileCount: 1 });
    expect(asAuthor.files.map((f: { filename: string; current: boolean }) => [f.filename, f.current])).toEqual([
      ["答辩.pptx", true],
      ["答辩.pdf", false],
    ]);
    expect((await anon.get(`${D}/reply/${code}`)).body.data).toMatchObject({ fileCount: 1, files: [] });
    const fileId = asAuthor.files[0].id;
    const own = await author.get(`${D}/reply/${code}/files/${fileId}`);
    expect(own.status).toBe(200);
    expect(own.res.rawPayload.equals(pptx)).toBe(true);
    expect((await anon.get(`${D}/reply/${code}/files/${fileId}`)).status).toBe(404);

    // Judges of the group download it — not 陈评审 (浙江工业大学), nor a judge outside the group.
    const dl = await leader.get(`${D}/session/${session}/work/${wZjut}/files/${fileId}`);
    expect(dl.status).toBe(200);
    expect(dl.res.headers["content-disposition"]).toContain("filename*=UTF-8''%E7%AD%94%E8%BE%A9.pptx");
    expect(dl.res.rawPayload.equals(pptx)).toBe(true);
    expect((await j2.get(`${D}/session/${session}/work/${wZjut}/files/${fileId}`)).body).toEqual(NO_WORK);
    expect((await j4.get(`${D}/session/${session}/work/${wZjut}/files/${fileId}`)).body).toEqual(NO_WORK);
    const listed = (await leader.get(`${D}/session/${session}`)).body.data.slots.find(
      (x: { work: { id: number } }) => x.work.id === wZjut,
    );
    expect(listed.files.map((f: { filename: string }) => f.filename)).toEqual(["答辩.pptx", "答辩.pdf"]);
  });

  it("gives the leader the consolidated sheet and refuses a sign-off with missing scores unless confirmed with a note", async () => {
    expect((await j2.get(`${D}/session/${session}/sheet`)).body).toEqual(NO_SHEET);
    expect((await j4.get(`${D}/session/${session}/sheet`)).body).toEqual(NO_SHEET);
    expect((await otherAdmin.get(`${D}/session/${session}/sheet`)).body).toEqual(NO_SHEET);

    // 李评审 scores the three works he may judge; 陈评审 one more; 刘评审 two of three.
    expect((await score(leader, wZjut, { score: 80, recommendation: "recommend", comment: "完成度较好" })).status).toBe(200);
    expect((await score(leader, wNbu, { score: 90, recommendation: "strong" })).status).toBe(200);
    expect((await score(leader, wWzu, { score: 70, recommendation: "not" })).status).toBe(200);
    expect((await score(j2, wZju, { score: 92, recommendation: "strong" })).status).toBe(200);
    expect((await score(j3, wZjut, { score: 90, recommendation: "strong" })).status).toBe(200);
    expect((await score(j3, wNbu, { score: 84, recommendation: "recommend" })).status).toBe(200);

    const sheet = (await leader.get(`${D}/session/${session}/sheet`)).body.data;
    // The leader's own-school work is not shown, only counted.
    expect(sheet.rows.map((r: { work: { id: number } }) => r.work.id).sort()).toEqual([wZjut, wNbu, wWzu].sort());
    expect(sheet.hidden).toEqual({ works: 1, missingScores: 1 });
    expect(sheet.draw).toMatchObject({ input: [wZjut, wNbu, wWzu].sort((a, b) => a - b), withheld: 1 });
    expect(JSON.stringify(sheet)).not.toContain(String(wZju));
    const row = (id: number) => sheet.rows.find((r: { work: { id: number } }) => r.work.id === id);
    expect(row(wZjut)).toMatchObject({ mean: 85, counts: { strong: 1, recommend: 1, not: 0 }, missing: [], avoiding: 1 });
    expect(row(wNbu)).toMatchObject({ mean: 86.67, counts: { strong: 1, recommend: 2, not: 0 }, missing: [], rank: 1 });
    expect(row(wWzu)).toMatchObject({ mean: 70, missing: [{ id: ids.judge2, name: "陈评审" }], rank: 3 });
    expect(
      row(wNbu)
        .scores.map((s: { judge: { name: string }; score: number }) => [s.judge.name, s.score])
        .sort(),
    ).toEqual(
      [
        ["李评审", 90],
        ["陈评审", 86],
        ["刘评审", 84],
      ].sort(),
    );
    expect(sheet).toMatchObject({ complete: false, canSignOff: true });
    expect(
      sheet.members.map((m: { name: string; scored: number; expected: number }) => [m.name, m.scored, m.expected]).sort(),
    ).toEqual(
      [
        ["李评审", 3, 3],
        ["刘评审", 2, 3],
        ["陈评审", 2, 3],
      ].sort(),
    );
    // The admin sees every work.
    expect((await cadmin.get(`${D}/session/${session}/sheet`)).body.data.rows).toHaveLength(4);

    const refused = await leader.post(`${D}/session/${session}/sign-off`, {});
    expect(refused.body.error).toBe(409);
    expect(refused.body.info).toContain(`陈评审（${wWzu}）`);
    expect(refused.body.info).toContain("刘评审（另有 1 件回避作品）");
    expect((await leader.post(`${D}/session/${session}/sign-off`, { confirmMissing: true })).body).toEqual({
      error: 422,
      info: "有评委尚未评完时，请在签署说明中写明原因（如评委缺席）",
      data: { field: "note" },
    });
    expect((await cadmin.post(`${D}/session/${session}/sign-off`, { confirmMissing: true, note: "x" })).body).toEqual({
      error: 403,
      info: "答辩结果由专家组长签署",
    });
    expect((await j2.post(`${D}/session/${session}/sign-off`, { confirmMissing: true, note: "x" })).body).toEqual(NO_SHEET);
    expect(
      (await t.db.selectFrom("defence_session").select("signed_off_at").where("id", "=", session).executeTakeFirstOrThrow())
        .signed_off_at,
    ).toBeNull();

    const signed = await leader.post(`${D}/session/${session}/sign-off`, {
      confirmMissing: true,
      note: "陈评审、刘评审下午缺席",
    });
    expect(signed.body).toMatchObject({
      error: 0,
      info: "已签署本组答辩结果",
      data: { signOff: { by: { id: ids.judge, name: "李评审" }, note: "陈评审、刘评审下午缺席" }, canSignOff: false },
    });
  });

  it("makes everything read-only after the sign-off until the contest admin reopens it with a reason", async () => {
    const logBefore = await logCount();
    expect((await score(j2, wWzu, { score: 75, recommendation: "recommend" })).body).toEqual({
      error: 409,
      info: "专家组长已签署本组答辩结果，不能再修改；如需修改，请联系赛事管理员重新开放",
    });
    expect((await score(j2, wNbu, { score: 60, recommendation: "not" })).status).toBe(409);
    expect((await cadmin.req("PATCH", `${D}/admin/session/${session}`, { place: "改地点" })).body.error).toBe(409);
    expect((await cadmin.post(`${D}/session/${session}/draw`, { redraw: true })).body.error).toBe(409);
    expect((await uploadTo(await authorOf(wNbu), codes.get(wNbu)!, "答辩.pdf", SAMPLE.pdf)).body).toEqual({
      error: 409,
      info: "本组答辩已结束（专家组长已签署结果），不能再上传答辩材料",
    });
    expect((await new Client(t).get(`${D}/reply/${codes.get(wNbu)}`)).body.data.closed).toBe(true);
    expect((await leader.post(`${D}/session/${session}/sign-off`, {})).body.error).toBe(409);
    expect(await logCount()).toBe(logBefore);

    expect((await leader.post(`${D}/admin/session/${session}/reopen`, { reason: "x" })).body).toEqual({
      error: 404,
      info: "答辩场次不存在或不在您的管理范围内",
    });
    expect((await cadmin.post(`${D}/admin/session/${session}/reopen`, { reason: "" })).status).toBe(422);
    const reopened = await cadmin.post(`${D}/admin/session/${session}/reopen`, { reason: "陈评审补评第 4 件作品" });
    expect(reopened.body.data).toMatchObject({
      signOff: null,
      reopened: { reason: "陈评审补评第 4 件作品", by: { name: "赵赛务" } },
    });
    expect((await score(j2, wWzu, { score: 75, recommendation: "recommend" })).status).toBe(200);
    expect((await score(j3, wZju, { score: 89, recommendation: "recommend" })).status).toBe(200);
    const complete = (await leader.get(`${D}/session/${session}/sheet`)).body.data;
    expect(complete).toMatchObject({ complete: true, hidden: { works: 1, missingScores: 0 } });
    expect((await leader.post(`${D}/session/${session}/sign-off`, {})).body).toMatchObject({
      error: 0,
      data: { signOff: { note: null } },
    });
    const audit = await t.db
      .selectFrom("audit_log")
      .select("action")
      .where("entity", "=", "defence_session")
      .orderBy("id")
      .execute();
    expect(audit.map((a) => a.action).slice(-3)).toEqual(["sign_off", "reopen", "sign_off"]);
    expect((await verifyScoreLog(t.db, zj)).ok).toBe(true);
    expect((await readScoreLog(t.db, zj)).filter((e) => e.action === "defence_score")).toHaveLength(await logCount());
  });

  it("keeps the judge's profile: school shown, expertise edited, conflicts listed", async () => {
    const p = await leader.get("/Backend/Judge/profile");
    expect(p.body.data).toMatchObject({
      username: "judge",
      name: "李评审",
      school: { name: "浙江大学" },
      province: "浙江省",
      expertise: null,
    });
    expect(p.body.data.contests).toEqual([
      { id: zj, name: "2026年中国大学生计算机设计大赛浙江省级赛", groups: ["软件应用与开发组", "大数据应用答辩组"] },
    ]);
    const saved = await leader.req("PUT", "/Backend/Judge/profile", { expertise: "  大数据分析、机器学习 " });
    expect(saved.body).toMatchObject({ error: 0, info: "评委资料已保存", data: { expertise: "大数据分析、机器学习" } });
    expect((await leader.req("PUT", "/Backend/Judge/profile", { expertise: "长".repeat(501) })).status).toBe(422);
    expect((await leader.get("/Backend/Judge/profile")).body.data.expertise).toBe("大数据分析、机器学习");
    expect(
      (
        await t.db
          .selectFrom("audit_log")
          .select("changes")
          .where("entity", "=", "app_user")
          .where("entity_id", "=", String(ids.judge))
          .executeTakeFirstOrThrow()
      ).changes,
    ).toContain("大数据分析");
    expect((await j3.get("/Backend/Judging/conflicts")).body.data.map((c: { work: { id: number } }) => c.work.id)).toEqual([
      wWzu,
    ]);
    for (const u of ["student", "teacher", "contest_admin"])
      expect((await (await login(t, u)).get("/Backend/Judge/profile")).status).toBe(403);
  });

  it("finds earlier years' works blind, with published awards only", async () => {
    const now = new Date().toISOString();
    const cn = (
      await t.db
        .insertInto("contest")
        .values({
          name: "2025年全国赛",
          level: "national",
          year: 2025,
          parent_id: null,
          province: null,
          school_id: null,
          archived: 1,
          code: "2025-CN",
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    const p25 = (
      await t.db
        .insertInto("contest")
        .values({
          name: "2025年浙江省级赛",
          level: "provincial",
          year: 2025,
          parent_id: cn,
          province: "浙江省",
          school_id: null,
          archived: 1,
          code: "2025-ZJ",
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    const big = await catId(t, "大数据应用");
    const soft = await catId(t, "软件应用与开发");
    const creator = await idOf(t, "student");
    const past = await nextWorkIds(t.db, 2025, 4);
    const specs: [number, string, number, string][] = [
      [past[0], "港口吞吐量预测（旧版）", big, "format_passed"],
      [past[1], "运河客流分析系统", big, "format_passed"],
      [past[2], "社区团购系统", soft, "format_passed"],
      [past[3], "草稿作品", big, "draft"],
    ];
    for (const [id, name, cat, status] of specs) {
      await t.db
        .insertInto("work")
        .values({
          id,
          year: 2025,
          contest_id: p25,
          category_id: cat,
          subcategory_id: null,
          group_type: "normal",
          name,
          status: status as "draft",
          school_id: await schoolId(t, "宁波大学"),
          created_by: creator,
          summary: null,
          design_idea: null,
          key_points: null,
          open_source: null,
          install_guide: null,
          teacher_review: null,
          other_notes: null,
          deploy_link1: null,
          deploy_link2: null,
          ai_declaration: null,
          return_reason: null,
          disqualify_reason: null,
          version: 1,
          created_at: now,
          updated_at: now,
          submitted_at: now,
        })
        .execute();
    }
    const award = (name: string) =>
      t.db
        .selectFrom("award_level")
        .select("id")
        .where("contest_level", "=", "provincial")
        .where("name", "=", name)
        .executeTakeFirstOrThrow();
    await t.db
      .insertInto("contest_result")
      .values({
        contest_id: p25,
        work_id: past[0],
        group_id: null,
        raw_mean: null,
        normalised: null,
        spread: null,
        rank: null,
        award_level_id: (await award("二等奖")).id,
        updated_at: now,
      })
      .execute();

    const Q = "/Backend/Judge/past-works";
    // Not published yet: no award shown.
    let r = await leader.get(`${Q}?keyword=${encodeURIComponent("港口")}`);
    expect(r.body.data).toEqual({
      list: [{ id: past[0], year: 2025, name: "港口吞吐量预测（旧版）", category: "大数据应用", subcategory: null, awards: [] }],
      total: 1,
      before: 2026,
    });
    await t.db
      .insertInto("result_publication")
      .values({
        contest_id: p25,
        published_at: now,
        published_by: await idOf(t, "root"),
        model: "manual",
        model_version: 1,
        params: "{}",
        log_head: "0".repeat(64),
        log_seq: 0,
        note: null,
      })
      .execute();
    r = await leader.get(`${Q}?keyword=${encodeURIComponent("港口")}`);
    expect(r.body.data.list[0].awards).toEqual(["省级赛 二等奖"]);
    // This year's works and drafts are not listed; category and year filter; the id works as keyword.
    r = await leader.get(`${Q}?categoryId=${big}`);
    expect(r.body.data.list.map((w: { id: number }) => w.id)).toEqual([past[0], past[1]]);
    expect((await leader.get(`${Q}?categoryId=${soft}&year=2025`)).body.data.list.map((w: { name: string }) => w.name)).toEqual([
      "社区团购系统",
    ]);
    expect((await leader.get(`${Q}?year=2026`)).body.data).toMatchObject({ list: [], total: 0 });
    expect((await leader.get(`${Q}?keyword=${past[1]}`)).body.data.list.map((w: { id: number }) => w.id)).toEqual([past[1]]);
    expect((await leader.get(`${Q}?keyword=${encodeURIComponent("草稿")}`)).body.data.total).toBe(0);
    // Blind: no authors or schools.
    const all = await leader.get(`${Q}?pageSize=100`);
    expect(Object.keys(all.body.data.list[0]).sort()).toEqual(["awards", "category", "id", "name", "subcategory", "year"]);
    expect(JSON.stringify(all.body)).not.toContain("宁波大学");
    expect((await (await login(t, "student")).get(Q)).status).toBe(403);
    expect((await cadmin.get(Q)).status).toBe(200);
  });
});
