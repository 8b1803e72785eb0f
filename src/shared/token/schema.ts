/**
 * API tokens (issue 16): request and reply shapes, and which casbin objects a token may
 * list — derived from the one policy (casbin/policy.csv) the server and the browser load.
 */
import { Type, type Static } from "typebox";
import type { Policy, Principal } from "../access";

/**
 * Objects a token never reaches: sessions, account security and tokens themselves, and the
 * personal-data controls — a full phone number is shown to a person who asks for it, one at a
 * time and audited, never to a program in bulk; the retention period is root's decision.
 */
export const TOKEN_FORBIDDEN_OBJECTS = new Set([
  "api.session",
  "api.registration",
  "api.recovery",
  "api.security",
  "api.apiTokens",
  "api.phoneReveal",
  "api.retention",
]);
/**
 * Objects every logged-in user holds for their own person — filing an own 申诉/投诉, an
 * author's defence reply, the certificates one holds, the download of one's own data — which the policy grants to
 * "authenticated" (casbin/policy.csv). A token works for an administrator's role (TOKEN_ROLES),
 * never as that person, so the form does not offer them (a school admin saw 提交申诉, 答辩回复
 * and 我的证书) and the server does not grant them.
 */
export const TOKEN_PERSONAL_OBJECTS = new Set(["api.complaintFiling", "api.defenceReply", "api.myCertificates", "api.myData"]);
export const TOKEN_ROLES = [0, 1, 2] as const;
export const TOKEN_MAX_DAYS = 366;
export const READ_ACTIONS = new Set(["read"]);

/** Names of the objects a token may list (a test checks every object a token may list has one). */
export const RESOURCE_LABELS: Record<string, string> = {
  "api.users": "用户",
  "api.schools": "学校",
  "api.majors": "专业",
  "api.awards": "奖项",
  "api.workTypes": "作品类型",
  "api.contests": "赛事",
  "api.notices": "通知",
  "api.news": "新闻",
  "api.schoolWorks": "本校作品",
  "api.contestWorks": "赛事作品",
  "api.workDetail": "作品详情",
  "api.results": "成绩结果",
  "api.audit": "变更日志",
  "api.entryLocks": "报名锁定",
  "api.certificates": "证书",
  "api.certificateTemplates": "证书模板",
  "api.judgeGroups": "评审分组",
  "api.assignments": "评审分配",
  "api.judgePool": "评委库",
  "api.judgeInvitations": "评委邀请",
  "api.complaints": "申诉",
  "api.complaintSettings": "申诉设置",
  "api.formReview": "形式审查",
  "api.scoreAdmin": "评分管理",
  "api.defence": "答辩",
  "api.conflicts": "回避",
  "api.pastWorks": "往届作品",
  "api.workLog": "作品日志",
  "api.workLogAdmin": "作品日志管理",
  "api.arbitrationReview": "仲裁审核",
  "api.job": "后台任务",
  "api.announcement": "公告",
  "api.complaintFiling": "提交申诉",
  "api.defenceReply": "答辩回复",
  "api.myCertificates": "我的证书",
  "api.works": "作品",
  "api.advisedWorks": "指导的作品",
  "api.profile": "个人资料",
  "api.scores": "评分",
  "api.judging": "评审",
  "api.arbitration": "仲裁",
  "api.judgeProfile": "评委资料",
  "api.judgePoolSelf": "评委库（本人）",
  "api.myJudgeInvitations": "我的评委邀请",
  "api.todo": "待办事项",
  "api.stats": "统计",
  "api.workPeople": "团队成员查找",
  "api.bestWork": "优秀作品",
  "api.national": "国赛晋级",
  "api.dupcheck": "作品查重",
  "api.dupcheckPair": "查重对比",
  "api.dupcheckReport": "查重报告",
  "api.dupcheckAdmin": "查重引擎",
  "api.health": "系统状态",
};
export const resourceLabel = (o: string) => RESOURCE_LABELS[o] ?? o;

/** The API objects the principal may use with some action (by the policy), which a token may list. */
export async function tokenObjects(policy: Policy, p: Principal): Promise<string[]> {
  const rows = (await policy.enforcer.getPolicy()) as string[][];
  const objs = [
    ...new Set(
      rows
        .map((r) => r[1])
        .filter((o) => o?.startsWith("api.") && !TOKEN_FORBIDDEN_OBJECTS.has(o) && !TOKEN_PERSONAL_OBJECTS.has(o)),
    ),
  ].sort();
  const out: string[] = [];
  for (const o of objs) {
    const acts = [...new Set(rows.filter((r) => r[1] === o).map((r) => r[2]))];
    for (const a of acts)
      if (await policy.can(p, o, a)) {
        out.push(o);
        break;
      }
  }
  return out;
}

export const TokenCreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 60, title: "令牌名称" }),
    readOnly: Type.Boolean({ title: "只读" }),
    resources: Type.Array(Type.String({ maxLength: 60, pattern: "^api\\.[A-Za-z]+$" }), {
      minItems: 1,
      maxItems: 100,
      uniqueItems: true,
      title: "可访问的资源",
    }),
    expiresAt: Type.String({ format: "date-time", maxLength: 40, title: "到期时间" }),
  },
  { additionalProperties: false },
);
export type TokenCreateBody = Static<typeof TokenCreateBody>;

export const TokenView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  readOnly: Type.Boolean(),
  resources: Type.Array(Type.String()),
  expiresAt: Type.String(),
  createdAt: Type.String(),
  revokedAt: Type.Union([Type.String(), Type.Null()]),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
  lastUsedAddr: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.Literal("active"), Type.Literal("expired"), Type.Literal("revoked")]),
});
export type TokenView = Static<typeof TokenView>;

export const TokenList = Type.Object({ items: Type.Array(TokenView), resources: Type.Array(Type.String()) });
export type TokenList = Static<typeof TokenList>;
export const TokenCreated = Type.Object({ token: TokenView, secret: Type.String() });
export type TokenCreated = Static<typeof TokenCreated>;
