/**
 * THE route table (seed section 2), its METADATA: every screen with its label, path, icon, hide,
 * pure, authority rule (an [object, action] of casbin/policy.csv; none = open), children and the
 * key of its page. Menus, guards, useCanNow (rule-of.ts) and the light login entry's guest menu are
 * built from it without loading any page; the lazily loaded page components are in the PAGE MAP
 * (pages.ts), which only the router (App.tsx) and the light login entry attach (APP_ROUTES).
 */
import type { LoaderFunctionArgs } from "react-router";
import {
  AuditOutlined,
  BankOutlined,
  AppstoreOutlined,
  CopyOutlined,
  ExceptionOutlined,
  FileSearchOutlined,
  FormOutlined,
  KeyOutlined,
  LoginOutlined,
  LogoutOutlined,
  NotificationOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  SolutionOutlined,
  TeamOutlined,
  TrophyOutlined,
  UserAddOutlined,
  UserOutlined,
  ApartmentOutlined,
  RollbackOutlined,
  BarChartOutlined,
} from "@ant-design/icons";
import type { AccessRule, PageObject } from "../shared/access";
import { CONTEST_SECTIONS, NOTICE_SECTIONS, findSection, type Section } from "./admin/sections";
import type { RouteEntry } from "./routing/model";
import { LOGIN_CHOICE } from "./public/home-choice";

// The print loaders load with their first use: the route table stays free of react-router (the
// light login entry builds its guest menu from it, src/client/login).
const registrationLoader = (args: LoaderFunctionArgs) => import("./print/loaders").then((m) => m.registrationLoader(args));
const copyrightLoader = (args: LoaderFunctionArgs) => import("./print/loaders").then((m) => m.copyrightLoader(args));

const view = (obj: PageObject): AccessRule => [obj, "view"];

/** A parameter route whose section must be one of the known ones: others are a 404. */
const sectionLoader =
  (sections: readonly Section[], param: string) =>
  ({ params }: LoaderFunctionArgs) => {
    if (!findSection(sections, params[param])) throw new Response("Not Found", { status: 404, statusText: "Not Found" });
    return null;
  };

const ADMIN = view("page.admin");

/** Root admin pages (the 系统管理 group). */
const adminGroup: RouteEntry = {
  label: "系统管理",
  path: "/admin",
  icon: <SettingOutlined />,
  disableRoute: true,
  children: [
    {
      label: "公告管理",
      path: "/admin/NoticeManagement/:noticeSection",
      icon: <NotificationOutlined />,
      authority: view("page.noticeManagement"),
      page: "noticeSection",
      loader: sectionLoader(NOTICE_SECTIONS, "noticeSection"),
      children: NOTICE_SECTIONS.map((s) => ({
        label: s.label,
        path: `/admin/NoticeManagement/${s.key}`,
        authority: view("page.noticeManagement"),
        disableRoute: true,
      })),
    },
    { label: "用户管理", path: "/admin/UserManagement", authority: ADMIN, page: "allUsers" },
    { label: "学校管理", path: "/admin/SchoolManagement", authority: ADMIN, page: "schools" },
    { label: "作品类别管理", path: "/admin/WorkTypeManagement", authority: ADMIN, page: "workTypes" },
    { label: "奖项管理", path: "/admin/AwardManagement", authority: ADMIN, page: "awards" },
    ...CONTEST_SECTIONS.map((s) => ({
      label: s.label,
      path: `/admin/contest/${s.key}`,
      authority: view("page.contestMenu"),
      disableRoute: true,
    })),
    {
      label: "赛事管理",
      path: "/admin/contest/:section",
      hide: true,
      authority: ADMIN,
      page: "contestSection",
      loader: sectionLoader(CONTEST_SECTIONS, "section"),
    },
    { label: "证书打印", path: "/admin/PrintCertification", authority: ADMIN, page: "printCertification" },
    { label: "作品导出", path: "/work/export", authority: ADMIN, page: "workExport" },
    { label: "字段锁定", path: "/admin/EntryLock", authority: ADMIN, page: "entryLocks" },
    { label: "专业管理", path: "/admin/MajorManagement", authority: ADMIN, page: "majors" },
    { label: "新闻管理", path: "/Article", authority: ADMIN, page: "news" },
    { label: "优秀作品", path: "/admin/BestWork", authority: ADMIN, page: "bestWork" },
    { label: "仲裁审核", path: "/admin/ArbitrateManagement", authority: ADMIN, page: "arbitrateManagement" },
    { label: "作品日志", path: "/author/WorkLog", authority: ADMIN, page: "workLogAdmin" },
    { label: "个人信息保护", path: "/admin/Privacy", authority: ADMIN, page: "privacy" },
    // The seed's path is kept; the engine is the platform's own (no Elasticsearch).
    { label: "查重引擎", path: "/admin/ElasticSearch", authority: ADMIN, page: "dupAdmin" },
  ],
};

const SCHOOL = view("page.school");
const schoolGroup: RouteEntry = {
  label: "学校管理",
  path: "/school",
  icon: <BankOutlined />,
  disableRoute: true,
  children: [
    { label: "学校信息", path: "/school/schoolInfo", authority: SCHOOL, page: "schoolInfo" },
    { label: "本校作品", path: "/school/WorkManagement", authority: SCHOOL, page: "schoolWorks" },
    { label: "学生管理", path: "/school/AuthorManagement", authority: SCHOOL, page: "students" },
    { label: "教师管理", path: "/school/TeacherManagement", authority: SCHOOL, page: "teachers" },
    { label: "校级赛", path: "/school/SchoolContest", authority: SCHOOL, page: "schoolContest" },
  ],
};

const CONTEST_ADMIN = view("page.contestAdmin");
const contestAdminGroup: RouteEntry = {
  label: "赛事管理",
  path: "/ContestAdmin",
  icon: <TrophyOutlined />,
  disableRoute: true,
  children: [
    { label: "通知与说明", path: "/ContestAdmin/NoticeManagement", authority: CONTEST_ADMIN, page: "contestNotices" },
    { label: "评委与审核员", path: "/ContestAdmin/UserManagement", authority: CONTEST_ADMIN, page: "contestUsers" },
    { label: "省赛新闻", path: "/ContestAdmin/news", authority: CONTEST_ADMIN, page: "news" },
    { label: "赛事设置", path: "/ContestAdmin/ContestSettings", authority: CONTEST_ADMIN, page: "contestSettings" },
    { label: "添加作品", path: "/ContestAdmin/AddWork", authority: CONTEST_ADMIN, page: "addWork" },
    { label: "分组回避检查", path: "/contest-admin/check-group-setting", authority: CONTEST_ADMIN, page: "checkGroups" },
    { label: "设置分组", path: "/ContestAdmin/Group", authority: CONTEST_ADMIN, page: "judgeGroups" },
    { label: "比赛结果", path: "/ContestAdmin/ContestResult", authority: CONTEST_ADMIN, page: "contestResult" },
    {
      label: "网评进度",
      path: "/ContestAdmin/OnlineJudging/:contestId",
      hide: true,
      authority: CONTEST_ADMIN,
      page: "scoreAdmin",
    },
    { label: "证书打印", path: "/ContestAdmin/PrintAward", authority: CONTEST_ADMIN, page: "printAward" },
    { label: "学校管理", path: "/ContestAdmin/SchoolManagement", authority: CONTEST_ADMIN, page: "schools" },
  ],
};

const REVIEW = view("page.review");
const reviewerGroup: RouteEntry = {
  label: "评审",
  path: "/ContestReviewer",
  icon: <AuditOutlined />,
  disableRoute: true,
  children: [
    { label: "选择赛事", path: "/ContestReviewer/SelectContest", authority: REVIEW, page: "reviewContests" },
    { label: "作品审核", path: "/ContestReviewer/Review/:contestId", hide: true, authority: REVIEW, page: "reviewList" },
  ],
};

const JUDGE = view("page.judge");
const judgeGroup: RouteEntry = {
  label: "评委",
  path: "/judge-area",
  icon: <SolutionOutlined />,
  disableRoute: true,
  children: [
    { label: "评委信息", path: "/judge/Info", authority: JUDGE, page: "judgeInfo" },
    { label: "评审赛事", path: "/judge", authority: view("page.judgeSelect"), page: "judgeHome" },
    { label: "往年作品", path: "/judge/yearWorkQuery", authority: JUDGE, page: "pastWorks" },
    { label: "线上评审", path: "/judge/Online/:contestId", hide: true, authority: JUDGE, page: "onlineJudging" },
    { label: "线下评审", path: "/judge/Offline/:contestId", hide: true, authority: JUDGE, page: "offlineJudging" },
    {
      label: "线下分组结果",
      path: "/judge/offline-group-result",
      hide: true,
      pure: true,
      authority: JUDGE,
      page: "defenceSheet",
    },
  ],
};

const TEACHER = view("page.teacher");
const teacherGroup: RouteEntry = {
  label: "教师",
  path: "/teacher",
  icon: <TeamOutlined />,
  disableRoute: true,
  children: [
    { label: "教师信息", path: "/teacher/info", authority: TEACHER, page: "profile" },
    { label: "指导作品", path: "/teacher/WorkManagement", authority: TEACHER, page: "teacherWorks" },
    {
      label: "校级赛评审",
      path: "/teacher/SchoolContestJudge/:contestId",
      hide: true,
      authority: TEACHER,
      page: "onlineJudging",
    },
  ],
};

const AUTHOR = view("page.author");
const authorGroup: RouteEntry = {
  label: "作者",
  path: "/author",
  icon: <UserOutlined />,
  disableRoute: true,
  children: [
    { label: "个人信息", path: "/author/info", authority: AUTHOR, page: "profile" },
    { label: "我的作品", path: "/author/work-management", authority: AUTHOR, page: "authorWorks" },
  ],
};

const GUEST = view("page.guestAccount");
const ACCOUNT = view("page.account");
const accountGroup: RouteEntry = {
  label: "账号",
  path: "/account",
  icon: <KeyOutlined />,
  disableRoute: true,
  children: [
    // The login choice (the three logins, registration, public services): the main page's 登录 leads here.
    { label: "登录", path: LOGIN_CHOICE, hide: true, authority: GUEST, page: "loginChoice" },
    { label: "学生登录", path: "/account/StudentLogin", icon: <LoginOutlined />, authority: GUEST, page: "studentLogin" },
    { label: "教师登录", path: "/account/TeacherLogin", icon: <LoginOutlined />, authority: GUEST, page: "teacherLogin" },
    { label: "管理员登录", path: "/account/Login", icon: <LoginOutlined />, authority: GUEST, page: "adminLogin" },
    { label: "注册", path: "/account/Register", icon: <UserAddOutlined />, authority: GUEST, page: "register" },
    { label: "找回密码", path: "/account/claim-account", icon: <KeyOutlined />, authority: GUEST, page: "claimAccount" },
    {
      label: "账号安全",
      path: "/account/security",
      icon: <SafetyCertificateOutlined />,
      authority: ACCOUNT,
      page: "security",
    },
    {
      label: "退出登录",
      path: "/account/logout",
      icon: <LogoutOutlined />,
      authority: ACCOUNT,
      page: "logout",
      deniedRedirect: "/",
    },
  ],
};

/** The complaint-view menu area (logged-in users): only these show while the user is on its pages. */
export const COMPLAINT_VIEW_EXIT = "/";
const complaintView: RouteEntry[] = [
  {
    label: "申诉",
    path: "/complaint-view/complaint",
    icon: <FormOutlined />,
    menuArea: "complaint-view",
    authority: ACCOUNT,
    page: "complaintFile",
  },
  {
    label: "查看申诉",
    path: "/complaint-view/view-complaint",
    icon: <FileSearchOutlined />,
    menuArea: "complaint-view",
    authority: ACCOUNT,
    page: "complaintView",
  },
  {
    label: "退出申诉视图",
    path: COMPLAINT_VIEW_EXIT,
    icon: <RollbackOutlined />,
    menuArea: "complaint-view",
    disableRoute: true,
  },
];

export const ROUTES: RouteEntry[] = [
  { label: "首页", path: "/", hide: true, page: "home" },
  { label: "用户中心", path: "/index", hide: true, authority: ACCOUNT, page: "userCenter" },
  { label: "测试页", path: "/test", hide: true, authority: view("page.health"), page: "health" },

  adminGroup,
  schoolGroup,
  contestAdminGroup,
  reviewerGroup,
  judgeGroup,
  teacherGroup,
  authorGroup,

  {
    label: "作品管理",
    path: "/WorkManagement",
    icon: <AppstoreOutlined />,
    authority: view("page.workManagement"),
    page: "workManagement",
  },
  {
    label: "申诉管理",
    path: "/ComplaintManagement",
    icon: <ExceptionOutlined />,
    authority: view("page.complaintManagement"),
    page: "complaintManagement",
  },
  {
    label: "赛事仲裁",
    path: "/Arbitrate",
    icon: <ApartmentOutlined />,
    authority: view("page.arbitrate"),
    page: "arbitrate",
  },
  { label: "评委库", path: "/judgePool", icon: <TeamOutlined />, authority: view("page.judgePool"), page: "judgePool" },
  { label: "作品查重", path: "/dup-check", icon: <CopyOutlined />, authority: view("page.dupCheck"), page: "dupCheck" },
  // The dashboards of root, contest and school admins (issue 32); the only page that loads the charts.
  { label: "统计", path: "/statistics", icon: <BarChartOutlined />, authority: view("page.stats"), page: "stats" },
  { label: "申诉入口", path: "/complaint", icon: <FormOutlined />, page: "complaintEntry" },
  { label: "证书查询", path: "/verify-cert", icon: <SafetyCertificateOutlined />, page: "verifyCert" },
  {
    label: "作品查询",
    path: "/query-work",
    icon: <FileSearchOutlined />,
    authority: view("page.queryWork"),
    page: "queryWork",
  },

  accountGroup,
  ...complaintView,

  // Shared and special pages (all reached by link, never from the menu).
  {
    label: "作品报名表",
    path: "/print/Registration/:workId",
    hide: true,
    pure: true,
    signIn: "student",
    page: "printRegistration",
    loader: registrationLoader,
  },
  {
    label: "版权声明",
    path: "/print/Copyright/:workId",
    hide: true,
    pure: true,
    signIn: "student",
    page: "printCopyright",
    loader: copyrightLoader,
  },
  { label: "作品审核单", path: "/reviewer/reviewDetail/:workId", hide: true, signIn: "admin", page: "reviewDetail" },
  {
    label: "快速审核",
    path: "/reviewer/fastReview/:contestId/startFrom/:startWorkId",
    hide: true,
    authority: view("page.fastReview"),
    page: "fastReview",
  },
  { label: "作品评价", path: "/workDetail/:workId", hide: true, signIn: "student", page: "workDetail" },
  {
    label: "查重对比",
    path: "/dup-check/compare/:a/:b",
    hide: true,
    authority: view("page.dupCompare"),
    page: "dupCompare",
  },
  { label: "大赛主页", path: "/mainpage/:section", hide: true, pure: true, feature: "大赛公开主页" },
  { label: "大赛主页", path: "/mainpage/:section/:id", hide: true, pure: true, feature: "大赛公开主页的文章" },
  { label: "评委邀请", path: "/inviteJudge/:code", hide: true, pure: true, page: "inviteJudge" },
  { label: "作品团队邀请", path: "/workInvite/:code", hide: true, pure: true, page: "teamInvite" },
  { label: "答辩链接", path: "/contest/reply/:code", hide: true, pure: true, page: "defenceReply" },
  { label: "邮箱验证", path: "/verify-email", hide: true, pure: true, page: "verifyEmail" },
  { label: "重发验证邮件", path: "/verify-email-claim", hide: true, pure: true, page: "verifyEmailClaim" },
];
