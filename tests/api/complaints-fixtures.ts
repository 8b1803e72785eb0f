/**
 * Set-up of the complaints tests: the Jiangsu provincial contest with a published result —
 * 软件组 (judges 甲 南京大学, 乙 东南大学, 严 苏州大学, 丁 and 戊 without a school; two
 * reviews per work) and four works of other schools, w[0] with 一等奖 set by hand — published
 * by its own admin (which opens the publicity period). The demo complaint reviewer and admin
 * handle the contest and the demo arbitrator arbitrates it (set through the handlers route).
 */
import { Client, type TestApp } from "../helpers/app";
import { catId, contestId, login } from "./works-fixtures";
import { insertUser, insertWork, joinContest, makeJudge } from "./judging-fixtures";
import { makeGroup, setReviewsPerWork, submitScores } from "./results-fixtures";

export const A = "/Backend/ContestAdmin/judging";
export const M = "/Backend/ComplaintManagement";
export const PUB = "/Backend/Public/complaint";
export const F = "/Backend/Complaint";

export interface Fixture {
  js: number;
  w: number[];
  J: Record<string, number>;
  award: Map<string, number>;
  cadmin: Client;
  root: Client;
  reviewer: Client;
  admin: Client;
  arbitrator: Client;
}

export async function publishedContest(t: TestApp): Promise<Fixture> {
  const js = await contestId(t, "2026-JS");
  await joinContest(t, await insertUser(t, { username: "js_admin", name: "苏赛务", role: 1 }), js, "admin");
  const [cadmin, root, reviewer, admin, arbitrator] = await Promise.all(
    ["js_admin", "root", "complaint_reviewer", "complaint_admin", "arbitrator"].map((u) => login(t, u)),
  );
  await setReviewsPerWork(t, js, 2);
  const award = new Map<string, number>();
  for (const l of await t.db
    .selectFrom("award_level")
    .select(["id", "name"])
    .where("contest_level", "=", "provincial")
    .where("kind", "=", "work")
    .execute())
    award.set(l.name, l.id);
  const J: Record<string, number> = {};
  J.jia = await makeJudge(t, "c_jia", "甲评委", "南京大学", js);
  J.yi = await makeJudge(t, "c_yi", "乙评委", "东南大学", js);
  J.yan = await makeJudge(t, "c_yan", "严评委", "苏州大学", js);
  J.ding = await makeJudge(t, "c_ding", "丁评委", null, js);
  J.wu = await makeJudge(t, "c_wu", "戊评委", null, js);
  const w: number[] = [];
  for (const school of ["南京理工大学", "江南大学", "南京师范大学", "扬州大学"])
    w.push(await insertWork(t, { contest: js, school, category: "软件应用与开发", status: "format_passed" }));
  await makeGroup(t, js, "软件组", await catId(t, "软件应用与开发"), [J.jia, J.yi, J.yan, J.ding, J.wu], w);
  await submitScores(t, js, [
    [w[0], J.jia, 90],
    [w[0], J.yi, 88],
    [w[1], J.jia, 80],
    [w[1], J.yan, 70],
    [w[2], J.yi, 75],
    [w[2], J.yan, 72],
    [w[3], J.jia, 70],
    [w[3], J.yi, 68],
  ]);
  const R = `${A}/${js}/results`;
  const must = (r: { status: number; body: { error: number; info: string } }, what: string) => {
    if (r.body.error) throw new Error(`${what}: ${r.status} ${r.body.info}`);
  };
  must(await cadmin.post(`${R}/compute`, {}), "compute");
  must(await cadmin.req("PATCH", `${R}/work/${w[0]}`, { awardLevelId: award.get("一等奖") }), "award w0");
  must(await cadmin.req("PATCH", `${R}/work/${w[1]}`, { awardLevelId: award.get("二等奖") }), "award w1");
  must(await cadmin.post(`${R}/publish`, { confirmIncomplete: true }), "publish");
  const arbitratorId = (
    await t.db.selectFrom("app_user").select("id").where("username", "=", "arbitrator").executeTakeFirstOrThrow()
  ).id;
  const handlerIds = (
    await t.db.selectFrom("app_user").select("id").where("username", "in", ["complaint_reviewer", "complaint_admin"]).execute()
  ).map((r) => r.id);
  must(await root.req("PUT", `${M}/contests/${js}/handlers`, { userIds: [...handlerIds, arbitratorId] }), "handlers");
  return { js, w, J, award, cadmin, root, reviewer, admin, arbitrator };
}

/** The first author of a work, logged in. */
export async function authorOf(t: TestApp, workId: number, rank = 1) {
  const u = await t.db
    .selectFrom("work_author")
    .innerJoin("app_user", "app_user.id", "work_author.user_id")
    .select(["app_user.username", "app_user.name"])
    .where("work_author.work_id", "=", workId)
    .where("work_author.rank", "=", rank)
    .executeTakeFirstOrThrow();
  return { client: await login(t, u.username), name: u.name, username: u.username };
}

/** A visitor who verified an email: the token from the mailed code. */
export async function verifiedVisitor(t: TestApp, email: string) {
  const c = new Client(t);
  const sent = await c.post(`${PUB}/code`, { email });
  if (sent.body.error) throw new Error(`code: ${sent.body.info}`);
  const mail = t
    .mails()
    .filter((m) => m.to.includes(email))
    .at(-1)!;
  const code = /验证码是 (\d{6})/.exec(mail.text)![1];
  const v = await c.post(`${PUB}/verify`, { email, code });
  if (v.body.error) throw new Error(`verify: ${v.body.info}`);
  return { client: c, token: v.body.data.token as string, code };
}

export const TEXT = "<p>该作品的核心代码与某开源项目高度雷同，疑似抄袭，请核查。</p>";
