import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { APP_ROUTES as ROUTES } from "../../src/client/pages";
import {
  buildMenu,
  hasParam,
  matchEntry,
  menuItems,
  resolveRoutes,
  routableEntries,
  type RouteEntry,
} from "../../src/client/routing/model";
import { permissionSet, policyReady, ruleKey } from "../../src/client/providers/access-control";
import { afterLoginTarget, loginFor } from "../../src/client/routing/redirects";
import { ruleOfResource } from "../../src/client/rule-of";
import { createAccessControlProvider } from "../../src/client/providers/access-control";
import { CURRENT_USER_KEY, queryClient } from "../../src/client/providers/session";
import type { Principal } from "../../src/shared/access";
import { NOTICE_SECTIONS as NOTICE_CATALOGUE } from "../../src/shared/notice/sections";

const allEntries = (entries: readonly RouteEntry[]): RouteEntry[] =>
  entries.flatMap((e) => [e, ...(e.children ? allEntries(e.children) : [])]);

async function menuFor(p: Principal, complaintView = false) {
  const perms = await permissionSet(await policyReady(), p);
  return menuItems(
    buildMenu(
      resolveRoutes(ROUTES, (r) => perms.has(ruleKey(r))),
      { complaintView },
    ),
  ).map((m) => `${m.label}=${m.path}`);
}

const ACCOUNT = ["账号安全=/account/security", "退出登录=/account/logout"];
const OPEN = ["申诉入口=/complaint", "证书查询=/verify-cert"];
const user = (userType: number, flags: Partial<Principal> = {}): Principal => ({
  needToLogin: false,
  userType,
  hasComplaintRight: false,
  isSchoolContestJudge: false,
  ...flags,
});

describe("the route table", () => {
  test("every seed path is in it", () => {
    const paths = new Set(allEntries(ROUTES).map((e) => e.path));
    const seed = [
      "/complaint",
      "/test",
      "/",
      "/verify-email",
      "/verify-email-claim",
      "/verify-cert",
      "/query-work",
      "/WorkManagement",
      "/ComplaintManagement",
      "/account/StudentLogin",
      "/account/TeacherLogin",
      "/account/Login",
      "/account/Register",
      "/account/claim-account",
      "/account/security",
      "/account/logout",
      "/complaint-view/complaint",
      "/complaint-view/view-complaint",
      "/admin/NoticeManagement/:noticeSection",
      "/admin/UserManagement",
      "/admin/SchoolManagement",
      "/admin/WorkTypeManagement",
      "/admin/AwardManagement",
      "/admin/contest/:section",
      "/admin/contest/ProvinceContest",
      "/admin/contest/NationalContest",
      "/admin/PrintCertification",
      "/work/export",
      "/admin/EntryLock",
      "/admin/MajorManagement",
      "/Article",
      "/admin/BestWork",
      "/admin/ArbitrateManagement",
      "/author/WorkLog",
      "/admin/ElasticSearch",
      "/school/schoolInfo",
      "/school/WorkManagement",
      "/school/AuthorManagement",
      "/school/TeacherManagement",
      "/school/SchoolContest",
      "/ContestAdmin/NoticeManagement",
      "/ContestAdmin/UserManagement",
      "/ContestAdmin/news",
      "/ContestAdmin/ContestSettings",
      "/ContestAdmin/AddWork",
      "/contest-admin/check-group-setting",
      "/ContestAdmin/Group",
      "/ContestAdmin/ContestResult",
      "/ContestAdmin/PrintAward",
      "/ContestAdmin/SchoolManagement",
      "/ContestReviewer/SelectContest",
      "/ContestReviewer/Review/:contestId",
      "/judge/Info",
      "/judge",
      "/judge/yearWorkQuery",
      "/judge/Online/:contestId",
      "/judge/Offline/:contestId",
      "/judge/offline-group-result",
      "/teacher/info",
      "/teacher/SchoolContestJudge/:contestId",
      "/teacher/WorkManagement",
      "/author/info",
      "/author/work-management",
      "/Arbitrate",
      "/print/Registration/:workId",
      "/print/Copyright/:workId",
      "/reviewer/reviewDetail/:workId",
      "/reviewer/fastReview/:contestId/startFrom/:startWorkId",
      "/workDetail/:workId",
      "/index",
      "/mainpage/:section",
      "/mainpage/:section/:id",
      "/judgePool",
      "/inviteJudge/:code",
      "/dup-check",
      "/contest/reply/:code",
    ];
    expect(seed.filter((p) => !paths.has(p))).toEqual([]);
  });

  test("every rule is an (object, action) pair of casbin/policy.csv", () => {
    const policy = readFileSync(new URL("../../casbin/policy.csv", import.meta.url), "utf8");
    const pairs = new Set(
      policy
        .split("\n")
        .filter((l) => l.startsWith("p,"))
        .map((l) =>
          l
            .split(",")
            .slice(2)
            .map((s) => s.trim())
            .join(" "),
        ),
    );
    const used = allEntries(ROUTES).flatMap((e) => (e.authority ? [ruleKey(e.authority)] : []));
    expect(used.filter((k) => !pairs.has(k))).toEqual([]);
  });

  test("every route has a Chinese label and a page or a later-release note", () => {
    for (const e of routableEntries(ROUTES)) {
      expect(e.label, e.path).toMatch(/[\u4e00-\u9fa5]/);
      expect(!!e.element || !!e.feature, e.path).toBe(true);
    }
  });

  test("pure routes are the print, main page, invitation, defence, offline result and email pages", () => {
    const pure = routableEntries(ROUTES)
      .filter((e) => e.pure)
      .map((e) => e.path)
      .sort();
    expect(pure).toEqual(
      [
        "/contest/reply/:code",
        "/inviteJudge/:code",
        "/workInvite/:code",
        "/judge/offline-group-result",
        "/mainpage/:section",
        "/mainpage/:section/:id",
        "/print/Copyright/:workId",
        "/print/Registration/:workId",
        "/verify-email",
        "/verify-email-claim",
      ].sort(),
    );
  });

  test("hasParam and path matching", () => {
    expect(hasParam("/judge/Online/:contestId")).toBe(true);
    expect(hasParam("/judge")).toBe(false);
    expect(matchEntry(ROUTES, "/admin/contest/ProvinceContest")?.path).toBe("/admin/contest/:section");
    expect(matchEntry(ROUTES, "/judge")?.path).toBe("/judge");
    expect(matchEntry(ROUTES, "/nope")).toBeUndefined();
  });
});

describe("menus per demo role follow the policy", () => {
  test("anonymous", async () => {
    expect(await menuFor({ needToLogin: true })).toEqual([
      ...OPEN,
      "作品查询=/query-work",
      "学生登录=/account/StudentLogin",
      "教师登录=/account/TeacherLogin",
      "管理员登录=/account/Login",
      "注册=/account/Register",
      "找回密码=/account/claim-account",
    ]);
  });

  test("root (0)", async () => {
    const m = await menuFor(user(0));
    expect(m.slice(0, 14)).toEqual(NOTICE_CATALOGUE.map((s) => `${s.name}=/admin/NoticeManagement/${s.key}`));
    expect(m.slice(0, 14)).toContain("参赛人员管理说明=/admin/NoticeManagement/participant_management");
    expect(m.slice(0, 14)).toContain("作者（学生）公告=/admin/NoticeManagement/role_100");
    expect(m.slice(14)).toEqual([
      "用户管理=/admin/UserManagement",
      "学校管理=/admin/SchoolManagement",
      "作品类别管理=/admin/WorkTypeManagement",
      "奖项管理=/admin/AwardManagement",
      "省赛管理=/admin/contest/ProvinceContest",
      "国赛管理=/admin/contest/NationalContest",
      "证书打印=/admin/PrintCertification",
      "作品导出=/work/export",
      "字段锁定=/admin/EntryLock",
      "专业管理=/admin/MajorManagement",
      "新闻管理=/Article",
      "优秀作品=/admin/BestWork",
      "仲裁审核=/admin/ArbitrateManagement",
      "作品日志=/author/WorkLog",
      "个人信息保护=/admin/Privacy",
      "查重引擎=/admin/ElasticSearch",
      "作品管理=/WorkManagement",
      "申诉管理=/ComplaintManagement",
      "评委库=/judgePool",
      "作品查重=/dup-check",
      "统计=/statistics",
      ...OPEN,
      ...ACCOUNT,
    ]);
  });

  test("contest admin (1)", async () => {
    expect(await menuFor(user(1))).toEqual([
      "通知与说明=/ContestAdmin/NoticeManagement",
      "评委与审核员=/ContestAdmin/UserManagement",
      "省赛新闻=/ContestAdmin/news",
      "赛事设置=/ContestAdmin/ContestSettings",
      "添加作品=/ContestAdmin/AddWork",
      "分组回避检查=/contest-admin/check-group-setting",
      "设置分组=/ContestAdmin/Group",
      "比赛结果=/ContestAdmin/ContestResult",
      "证书打印=/ContestAdmin/PrintAward",
      "学校管理=/ContestAdmin/SchoolManagement",
      // 评审 → 选择赛事: the format review of the contests they manage (the national round starts there).
      "选择赛事=/ContestReviewer/SelectContest",
      "作品管理=/WorkManagement",
      "评委库=/judgePool",
      "作品查重=/dup-check",
      "统计=/statistics",
      ...OPEN,
      ...ACCOUNT,
    ]);
  });

  test("school admin (2)", async () => {
    expect(await menuFor(user(2))).toEqual([
      "学校信息=/school/schoolInfo",
      "本校作品=/school/WorkManagement",
      "学生管理=/school/AuthorManagement",
      "教师管理=/school/TeacherManagement",
      "校级赛=/school/SchoolContest",
      "统计=/statistics",
      ...OPEN,
      ...ACCOUNT,
    ]);
  });

  test("contest reviewer (3)", async () => {
    expect(await menuFor(user(3))).toEqual(["选择赛事=/ContestReviewer/SelectContest", ...OPEN, ...ACCOUNT]);
  });

  test("judge (4)", async () => {
    expect(await menuFor(user(4))).toEqual([
      "评委信息=/judge/Info",
      "评审赛事=/judge",
      "往年作品=/judge/yearWorkQuery",
      "评委库=/judgePool",
      "作品查重=/dup-check",
      ...OPEN,
      ...ACCOUNT,
    ]);
  });

  test("complaint reviewer (5) and complaint admin (6) with the complaint right", async () => {
    const expected = ["申诉管理=/ComplaintManagement", ...OPEN, ...ACCOUNT];
    expect(await menuFor(user(5, { hasComplaintRight: true }))).toEqual(expected);
    expect(await menuFor(user(6, { hasComplaintRight: true }))).toEqual(expected);
    expect(await menuFor(user(5))).toEqual([...OPEN, ...ACCOUNT]);
  });

  test("arbitrator (7)", async () => {
    expect(await menuFor(user(7))).toEqual(["赛事仲裁=/Arbitrate", ...OPEN, ...ACCOUNT]);
  });

  test("teacher (99) flagged as school contest judge", async () => {
    expect(await menuFor(user(99, { isSchoolContestJudge: true }))).toEqual([
      "评审赛事=/judge",
      "教师信息=/teacher/info",
      "指导作品=/teacher/WorkManagement",
      ...OPEN,
      ...ACCOUNT,
    ]);
    expect(await menuFor(user(99))).toEqual(["教师信息=/teacher/info", "指导作品=/teacher/WorkManagement", ...OPEN, ...ACCOUNT]);
  });

  test("author (100)", async () => {
    expect(await menuFor(user(100))).toEqual(["个人信息=/author/info", "我的作品=/author/work-management", ...OPEN, ...ACCOUNT]);
  });

  test("complaint-view mode shows only its area (its pages need a login; the exit is open)", async () => {
    const expected = ["申诉=/complaint-view/complaint", "查看申诉=/complaint-view/view-complaint", "退出申诉视图=/"];
    expect(await menuFor(user(0), true)).toEqual(expected);
    expect(await menuFor(user(100), true)).toEqual(expected);
    expect(await menuFor({ needToLogin: true }, true)).toEqual(["退出申诉视图=/"]);
  });
});

describe("redirects and refine access control", () => {
  test("anonymous visitors of guarded pages go to the matching login page", () => {
    expect(loginFor({ authority: ["page.author", "view"] }, "/author/info")).toBe("/account/StudentLogin?to=%2Fauthor%2Finfo");
    expect(loginFor({ authority: ["page.teacher", "view"] }, "/teacher/info")).toBe("/account/TeacherLogin?to=%2Fteacher%2Finfo");
    expect(loginFor({ authority: ["page.admin", "view"] }, "/admin/UserManagement")).toBe(
      "/account/Login?to=%2Fadmin%2FUserManagement",
    );
    expect(loginFor({ authority: ["page.account", "view"], deniedRedirect: "/" }, "/account/logout")).toBe("/");
  });

  test("after login: a safe ?to= or the user centre", () => {
    expect(afterLoginTarget("?to=%2FWorkManagement")).toBe("/WorkManagement");
    expect(afterLoginTarget("?to=%2F%2Fevil.example")).toBe("/index");
    expect(afterLoginTarget("")).toBe("/index");
  });

  test("the return address is a same-origin path only: no open redirect, no login loop", () => {
    expect(afterLoginTarget("?to=%2Fprint%2FRegistration%2F2026000001%3Fx%3D1")).toBe("/print/Registration/2026000001?x=1");
    for (const bad of [
      "https://evil.example/",
      "//evil.example",
      "/\\evil.example",
      "/\\/evil.example",
      "\\evil.example",
      "javascript:alert(1)",
      "/a\u0000b",
      "/account/StudentLogin?to=/x",
      "/account/Login",
      "evil",
      "/" + "a".repeat(2001),
    ]) {
      expect(afterLoginTarget(`?to=${encodeURIComponent(bad)}`), bad).toBe("/index");
    }
    // A control character decoded from the query is refused.
    expect(afterLoginTarget("?to=/a%0D%0Ab")).toBe("/index");
  });

  test("pages without a rule that need a login send anonymous visitors to their login page with the return address", () => {
    expect(loginFor({ signIn: "student" }, "/print/Registration/2026000001")).toBe(
      "/account/StudentLogin?to=%2Fprint%2FRegistration%2F2026000001",
    );
    expect(loginFor({ signIn: "admin" }, "/reviewer/reviewDetail/2026000001")).toBe(
      "/account/Login?to=%2Freviewer%2FreviewDetail%2F2026000001",
    );
    const print = routableEntries(ROUTES).find((e) => e.path === "/print/Registration/:workId")!;
    const detail = routableEntries(ROUTES).find((e) => e.path === "/workDetail/:workId")!;
    expect([print.signIn, detail.signIn]).toEqual(["student", "student"]);
  });

  test("ruleOfResource maps paths to their rule; unknown paths are null", () => {
    expect(ruleOfResource("/WorkManagement")).toEqual(["page.workManagement", "view"]);
    expect(ruleOfResource("/judge/Online/3")).toEqual(["page.judge", "view"]);
    expect(ruleOfResource("/verify-cert")).toBeUndefined();
    expect(ruleOfResource("/nope")).toBeNull();
  });

  test("refine's can() maps a route path or a policy object to the policy, for the server's current user", async () => {
    const provider = createAccessControlProvider(ruleOfResource);
    const as = (u: Principal) =>
      queryClient.setQueryData(CURRENT_USER_KEY, { hasComplaintRight: false, isSchoolContestJudge: false, userType: null, ...u });
    as(user(0));
    expect((await provider.can({ resource: "/WorkManagement", action: "list" })).can).toBe(true);
    expect((await provider.can({ resource: "page.noticeManagement", action: "view" })).can).toBe(true);
    as(user(100));
    expect((await provider.can({ resource: "/WorkManagement", action: "list" })).can).toBe(false);
    expect((await provider.can({ resource: "/author/info", action: "list" })).can).toBe(true);
    expect((await provider.can({ resource: "/verify-cert", action: "list" })).can).toBe(true);
    expect((await provider.can({ resource: "/no/such/page", action: "list" })).can).toBe(false);
    as({ needToLogin: true });
    expect((await provider.can({ resource: "api.session", action: "create" })).can).toBe(true);
    expect((await provider.can({ resource: "/account/security", action: "list" })).can).toBe(false);
  });
});
