/**
 * WCAG 2.1 AA on every page of the route table (issue 31), as a role that may open it: the list
 * is derived from src/client/routes.tsx with the policy (casbin/policy.csv), so a new route is
 * checked without touching this file. Each demo account logs in once (one browser, one context per
 * role) and opens, one after the other, every page its permissions allow that no earlier role has
 * checked yet (the roles' order below decides who checks a shared page; the user centre, whose
 * content is each role's own, is checked for every role). A parameter route gets its address from
 * the demo data (ADDRESS); a route that gets none fails the test, so a new one needs a line there.
 * Pages reached by a link without a rule (print pages, invitations) are opened by the account they
 * are for (BY) or by a visitor. axe-core (tests/e2e/axe.ts) runs once the page's data has arrived:
 * no critical or serious violation, except the accepted ones written there.
 *
 * A11Y_EVERY_ROLE=1 checks each page for every role that may open it (about twice the pages);
 * A11Y_REPORT=<file> writes the violations per page (JSON). While fixing: A11Y_ONLY=<regular
 * expression> checks only the routes whose pattern matches, A11Y_ACCOUNTS=student,root only
 * those accounts (the test then does not ask that every route was checked).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { login, startE2E, zhejiangContestId, type E2E } from "./harness";
import { reportResults, visitAll, type Visit } from "./axe";
import { seedScoringDemo } from "../../src/server/seed/scoring-demo";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { ROUTES } from "../../src/client/routes";
import { routableEntries, type RouteEntry } from "../../src/client/routing/model";
import { NOTICE_SECTIONS } from "../../src/client/admin/sections";
import { allowedRuleSet, makePolicy, type Principal } from "../../src/shared/access";
import { ruleKey } from "../../src/shared/rule-key";
import { sha256 } from "../../src/server/common/crypto";

const EVERY_ROLE = process.env.A11Y_EVERY_ROLE === "1";
const ONLY = process.env.A11Y_ONLY ? new RegExp(process.env.A11Y_ONLY) : undefined;
const ONLY_ACCOUNTS = process.env.A11Y_ACCOUNTS?.split(",");

/** The demo accounts (README), in the order that decides who checks a page several roles may open. */
const ACCOUNTS: { username: string; loginPage: string }[] = [
  { username: "student", loginPage: "/account/StudentLogin" },
  { username: "teacher", loginPage: "/account/TeacherLogin" },
  { username: "judge", loginPage: "/account/Login" },
  { username: "reviewer", loginPage: "/account/Login" },
  { username: "school_admin", loginPage: "/account/Login" },
  { username: "contest_admin", loginPage: "/account/Login" },
  { username: "complaint_reviewer", loginPage: "/account/Login" },
  { username: "complaint_admin", loginPage: "/account/Login" },
  { username: "arbitrator", loginPage: "/account/Login" },
  { username: "root", loginPage: "/account/Login" },
];

/** Routes without a rule that are for a signed-in user: the account that opens them. */
/** Open pages that send a signed-in user elsewhere (the home page → /index): checked as a visitor. */
const VISITORS_ONLY = new Set(["/"]);

const BY: Record<string, string> = {
  "/print/Registration/:workId": "student",
  "/print/Copyright/:workId": "student",
  "/workDetail/:workId": "student",
  "/reviewer/reviewDetail/:workId": "reviewer",
};

/** Routes not opened, with the reason. */
const SKIPPED: Record<string, string> = {
  "/account/logout": "signs the user out and leaves for the main page (checked as a visitor)",
};

/** Pages checked for every role: their content is each role's own. */
const EACH_ROLE = new Set(["/index"]);

/** The demo data the parameter routes' addresses are made of. */
interface Ids {
  zj: number;
  schoolContest: number;
  studentWork: number;
  reviewWork: number;
  otherReviewWork: number;
  news: number;
  judgeInvite: string;
  teamInvite: string;
  defence: string;
}

/** The address of each parameter route, from the demo data. */
const ADDRESS: Record<string, (i: Ids) => string> = {
  "/admin/NoticeManagement/:noticeSection": () => `/admin/NoticeManagement/${NOTICE_SECTIONS[0].key}`,
  "/admin/contest/:section": () => "/admin/contest/ProvinceContest",
  "/ContestAdmin/OnlineJudging/:contestId": (i) => `/ContestAdmin/OnlineJudging/${i.zj}`,
  "/ContestReviewer/Review/:contestId": (i) => `/ContestReviewer/Review/${i.zj}`,
  "/judge/Online/:contestId": (i) => `/judge/Online/${i.zj}`,
  "/judge/Offline/:contestId": (i) => `/judge/Offline/${i.zj}`,
  "/teacher/SchoolContestJudge/:contestId": (i) => `/teacher/SchoolContestJudge/${i.schoolContest}`,
  "/print/Registration/:workId": (i) => `/print/Registration/${i.studentWork}`,
  "/print/Copyright/:workId": (i) => `/print/Copyright/${i.studentWork}`,
  "/reviewer/reviewDetail/:workId": (i) => `/reviewer/reviewDetail/${i.reviewWork}`,
  "/reviewer/fastReview/:contestId/startFrom/:startWorkId": (i) => `/reviewer/fastReview/${i.zj}/startFrom/${i.reviewWork}`,
  "/workDetail/:workId": (i) => `/workDetail/${i.studentWork}`,
  "/dup-check/compare/:a/:b": (i) => `/dup-check/compare/${i.reviewWork}/${i.otherReviewWork}`,
  "/mainpage/:section": () => "/mainpage/home",
  "/mainpage/:section/:id": (i) => `/mainpage/news/${i.news}`,
  "/inviteJudge/:code": (i) => `/inviteJudge/${i.judgeInvite}`,
  "/workInvite/:code": (i) => `/workInvite/${i.teamInvite}`,
  "/contest/reply/:code": (i) => `/contest/reply/${i.defence}`,
};

/** The address of a route entry, or undefined for a parameter route without one. */
const addressOf = (r: RouteEntry, ids: Ids) => (/(^|\/)[:*]/.test(r.path) ? ADDRESS[r.path]?.(ids) : r.path);

/** Reads the ids, and plants a team and a judge invitation with known codes (only their hashes are stored). */
async function demoIds(e: E2E): Promise<Ids> {
  const db = e.db;
  const zj = await zhejiangContestId(db);
  const now = new Date().toISOString();
  const later = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const user = (username: string) =>
    db.selectFrom("app_user").select(["id", "school_id"]).where("username", "=", username).executeTakeFirstOrThrow();
  const student = await user("student");
  const teacher = await user("teacher");
  const studentWork = await db
    .selectFrom("work")
    .innerJoin("work_author", "work_author.work_id", "work.id")
    .select("work.id")
    .where("work_author.user_id", "=", student.id)
    .where("work.status", "!=", "draft")
    .orderBy("work.id")
    .executeTakeFirstOrThrow();
  const review = await db
    .selectFrom("work")
    .select("id")
    .where("contest_id", "=", zj)
    .where("status", "=", "accepted")
    .orderBy("id")
    .limit(2)
    .execute();
  const schoolContest = await db
    .selectFrom("contest")
    .select("id")
    .where("level", "=", "school")
    .where("school_id", "=", teacher.school_id)
    .where("archived", "=", 0)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  const news = await db.selectFrom("news").select("id").orderBy("id").executeTakeFirstOrThrow();
  const defence = await db.selectFrom("defence_slot").select("code").orderBy("id").executeTakeFirstOrThrow();
  const teamInvite = "a11yTeamInvite0123456789";
  await db
    .insertInto("work_invitation")
    .values({
      work_id: Number(studentWork.id),
      role: "author",
      email: "a11y-invitee@example.com",
      name: "无障碍",
      code_hash: sha256(teamInvite),
      status: "sent",
      expires_at: later,
      invited_by: student.id,
      accepted_user_id: null,
      created_at: now,
      answered_at: null,
    })
    .execute();
  const judgeInvite = "a11yJudgeInvite012345678";
  const admin = await user("contest_admin");
  const category = await db.selectFrom("work_category").select("id").orderBy("id").executeTakeFirstOrThrow();
  await db
    .insertInto("judge_invitation")
    .values({
      contest_id: zj,
      person_id: null,
      email: "a11y-judge@example.com",
      name: "无障碍评委",
      categories: JSON.stringify([category.id]),
      answer_by: later,
      code_hash: sha256(judgeInvite),
      status: "sent",
      status_reason: null,
      sent_at: now,
      opened_at: null,
      answered_at: null,
      reminded_at: null,
      accepted_user_id: null,
      invited_by: admin.id,
      created_at: now,
    })
    .execute();
  return {
    zj,
    schoolContest: Number(schoolContest.id),
    studentWork: Number(studentWork.id),
    reviewWork: Number(review[0].id),
    otherReviewWork: Number(review[1].id),
    news: Number(news.id),
    judgeInvite,
    teamInvite,
    defence: defence.code,
  };
}

describe("WCAG 2.1 AA on every page of the route table, as its role (axe-core)", () => {
  let e: E2E;
  let ids: Ids;
  const policy = makePolicy(readFileSync("casbin/model.conf", "utf8"), readFileSync("casbin/policy.csv", "utf8"));
  const routes = routableEntries(ROUTES).filter((r) => !SKIPPED[r.path] && (!ONLY || ONLY.test(r.path)));
  /** Patterns checked, by anyone. */
  const done = new Set<string>();

  beforeAll(async () => {
    e = await startE2E();
    expect(await seedScoringDemo(e.db)).toBe(true);
    await seedComplaintsDemo(e.db, e.base);
    ids = await demoIds(e);
  });
  afterAll(async () => {
    reportResults();
    await e?.close();
  });

  it("every page a role may open, as that role", { timeout: 1_200_000 }, async () => {
    const failures: string[] = [];
    for (const account of ACCOUNTS) {
      if (ONLY_ACCOUNTS && !ONLY_ACCOUNTS.includes(account.username)) continue;
      const page = await login(e, account.username, account.loginPage);
      const me = (await (await page.request.get(`${e.base}/Backend/Common/user/get-current`)).json()).data as Principal;
      const allowed = await allowedRuleSet(await policy, me);
      const visits: Visit[] = [];
      for (const r of routes) {
        const mine = r.authority ? allowed.has(ruleKey(r.authority)) : BY[r.path] === account.username;
        // Guests' pages (the logins) send a signed-in user on; the visitors' test checks them.
        if (!mine || r.authority?.[0] === "page.guestAccount") continue;
        if (done.has(r.path) && !EVERY_ROLE && !EACH_ROLE.has(r.path)) continue;
        const url = addressOf(r, ids);
        if (!url) continue;
        done.add(r.path);
        visits.push({ url });
      }
      // Open pages (no rule), shown inside the layout to a signed-in user: checked by the first role.
      for (const r of routes) {
        if (r.authority || BY[r.path] || r.pure || VISITORS_ONLY.has(r.path) || (done.has(`u:${r.path}`) && !EVERY_ROLE))
          continue;
        const url = addressOf(r, ids);
        if (!url) continue;
        done.add(`u:${r.path}`);
        visits.push({ url });
      }
      failures.push(...(await visitAll(page, e, account.username, visits, { again: true, stay: true })));
      await page.context().close();
    }
    // What no role opens: pages without a rule outside the layout, and the visitors' own pages
    // (not the logins, which a11y.test.ts checks), as a visitor.
    const anonymous = await allowedRuleSet(await policy, null);
    const visitor = await e.newPage();
    const visits: Visit[] = [];
    for (const r of routes) {
      const open = r.authority
        ? anonymous.has(ruleKey(r.authority)) && r.authority[0] !== "page.guestAccount"
        : !BY[r.path] && (!!r.pure || VISITORS_ONLY.has(r.path));
      if (!open || done.has(r.path)) continue;
      const url = addressOf(r, ids);
      if (!url) continue;
      done.add(r.path);
      visits.push({ url });
    }
    failures.push(...(await visitAll(visitor, e, "visitor", visits, { stay: true })));
    await visitor.context().close();

    // Every route was checked by someone (or is a guest's page, which a11y.test.ts checks).
    const missed = routes
      .filter((r) => r.authority?.[0] !== "page.guestAccount" && !done.has(r.path) && !done.has(`u:${r.path}`))
      .map((r) => `${r.path}${addressOf(r, ids) ? "" : "（ADDRESS 中没有它的演示地址）"}`);
    if (!ONLY && !ONLY_ACCOUNTS) expect(missed).toEqual([]);
    expect(failures).toEqual([]);
  });
});
