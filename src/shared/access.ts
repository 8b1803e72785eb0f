/**
 * One authorization policy for both sides: the casbin model and policy in casbin/ are
 * loaded from their text here, by the server (every /Backend route) and by the
 * browser (routes, menus). Section 6 of the seed lives only in casbin/policy.csv.
 */
import { ruleKey } from "./rule-key";
import { newEnforcer, newModelFromString, StringAdapter, type Enforcer } from "casbin";

export type PageObject =
  | "page.admin"
  | "page.noticeManagement"
  | "page.contestMenu"
  | "page.school"
  | "page.contestAdmin"
  | "page.review"
  | "page.judge"
  | "page.judgeSelect"
  | "page.teacher"
  | "page.author"
  | "page.arbitrate"
  | "page.workManagement"
  | "page.complaintManagement"
  | "page.queryWork"
  | "page.guestAccount"
  | "page.account"
  | "page.fastReview"
  | "page.judgePool"
  | "page.dupCheck"
  | "page.health"
  | "page.dupCompare"
  | "page.stats";

export type ApiObject =
  | "api.session"
  | "api.registration"
  | "api.recovery"
  | "api.security"
  | "api.apiTokens"
  | "api.announcement"
  | "api.todo"
  | "api.job"
  | "api.contests"
  | "api.schools"
  | "api.majors"
  | "api.workTypes"
  | "api.awards"
  | "api.notices"
  | "api.news"
  | "api.bestWork"
  | "api.users"
  | "api.entryLocks"
  | "api.audit"
  | "api.works"
  | "api.workPeople"
  | "api.workDetail"
  | "api.advisedWorks"
  | "api.schoolWorks"
  | "api.contestWorks"
  | "api.workLog"
  | "api.workLogAdmin"
  | "api.profile"
  | "api.formReview"
  | "api.judgeGroups"
  | "api.assignments"
  | "api.conflicts"
  | "api.scores"
  | "api.scoreAdmin"
  | "api.judging"
  | "api.results"
  | "api.national"
  | "api.defence"
  | "api.defenceReply"
  | "api.judgeProfile"
  | "api.pastWorks"
  | "api.complaintFiling"
  | "api.complaints"
  | "api.complaintSettings"
  | "api.arbitration"
  | "api.arbitrationReview"
  | "api.judgePool"
  | "api.phoneReveal"
  | "api.judgePoolSelf"
  | "api.judgeInvitations"
  | "api.myJudgeInvitations"
  | "api.certificates"
  | "api.certificateTemplates"
  | "api.myCertificates"
  | "api.health"
  | "api.dupcheck"
  | "api.dupcheckPair"
  | "api.dupcheckReport"
  | "api.dupcheckAdmin"
  | "api.myData"
  | "api.retention"
  | "api.stats";

export type AccessObject = PageObject | ApiObject;
export type AccessAction = "view" | "read" | "create" | "update" | "delete";
export type AccessRule = readonly [AccessObject, AccessAction];

/** What the policy needs to know of a user. */
export interface Principal {
  needToLogin: boolean;
  userType?: number | null;
  hasComplaintRight?: boolean;
  isSchoolContestJudge?: boolean;
}

/** The casbin subjects a user acts as: allowed if any of them is. */
export function subjectsOf(p: Principal | null | undefined): string[] {
  if (!p || p.needToLogin || p.userType === undefined || p.userType === null) return ["anonymous"];
  const subs = [`role:${p.userType}`];
  if (p.hasComplaintRight) subs.push("flag:complaint_right");
  if (p.isSchoolContestJudge) subs.push("flag:school_contest_judge");
  return subs;
}

/** Drops comments and blank lines, which casbin's string adapter does not expect. */
export function policyLines(policyText: string): string {
  return policyText
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .join("\n");
}

export interface Policy {
  enforcer: Enforcer;
  can(p: Principal | null | undefined, obj: AccessObject | string, act: AccessAction | string): Promise<boolean>;
}

export async function makePolicy(modelText: string, policyText: string): Promise<Policy> {
  const enforcer = await newEnforcer(newModelFromString(modelText), new StringAdapter(policyLines(policyText)));
  // The policy is read once and never changed at run time, so each (subject, object, action)
  // decision is worked out once: casbin evaluates the matcher against every policy line,
  // which cost more than the rest of a cached request.
  const decided = new Map<string, boolean>();
  const allows = async (sub: string, obj: string, act: string) => {
    const key = `${sub}\u0000${obj}\u0000${act}`;
    let d = decided.get(key);
    if (d === undefined) decided.set(key, (d = await enforcer.enforce(sub, obj, act)));
    return d;
  };
  return {
    enforcer,
    async can(p, obj, act) {
      for (const sub of subjectsOf(p)) {
        if (await allows(sub, obj, act)) return true;
      }
      return false;
    },
  };
}

export { ruleKey };

/**
 * Every rule of the policy (pages "page.*" and API objects "api.*", with their action) that the
 * principal may use, as ruleKey strings, so routes, menus and buttons are decided synchronously
 * or without casbin. The model matches exactly (casbin/model.conf: no patterns), so a rule not in
 * the set is refused. The server stays the authority for every request. The browser works it out
 * per user (src/client/providers/access-control.ts); the build works out the anonymous visitor's
 * once (src/server/static/guest-permissions.ts, for the light login pages).
 */
export async function allowedRuleSet(policy: Policy, principal: Principal | null | undefined): Promise<Set<string>> {
  const pairs = new Map<string, [string, string]>();
  for (const [, obj, act] of await policy.enforcer.getPolicy()) pairs.set(ruleKey([obj, act]), [obj, act]);
  const allowed = new Set<string>();
  for (const [key, [obj, act]] of pairs) {
    if (await policy.can(principal, obj, act)) allowed.add(key);
  }
  return allowed;
}
