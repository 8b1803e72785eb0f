/**
 * The token form lists the API objects a creator may grant by their Chinese names: every
 * object the policy lets root, a contest admin or a school admin use has a name, so the
 * form never shows a bare `api.xxx` (as it did for api.todo once the to-do centre landed).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { makePolicy } from "../../src/shared/access";
import { RESOURCE_LABELS, resourceLabel, tokenObjects, TOKEN_ROLES } from "../../src/shared/token/schema";

const policy = await makePolicy(readFileSync("casbin/model.conf", "utf8"), readFileSync("casbin/policy.csv", "utf8"));

describe("token resource names", () => {
  it.each(TOKEN_ROLES)("role %i: every object a token may list has a Chinese name", async (userType) => {
    const objects = await tokenObjects(policy, { needToLogin: false, userType });
    expect(objects.length).toBeGreaterThan(0);
    const unnamed = objects.filter((o) => !RESOURCE_LABELS[o]);
    expect(unnamed).toEqual([]);
    for (const o of objects) expect(resourceLabel(o)).toMatch(/[\u4e00-\u9fff]/);
  });

  it.each(TOKEN_ROLES)("role %i: never lists a person's own acts (提交申诉, 答辩回复, 我的证书)", async (userType) => {
    const objects = await tokenObjects(policy, { needToLogin: false, userType });
    for (const o of ["api.complaintFiling", "api.defenceReply", "api.myCertificates"]) expect(objects).not.toContain(o);
    // what the role's administrative work uses stays
    expect(objects).toContain(userType === 2 ? "api.schoolWorks" : "api.contestWorks");
  });

  it("never lists sessions, security or tokens themselves", async () => {
    const objects = await tokenObjects(policy, { needToLogin: false, userType: 0 });
    for (const o of ["api.session", "api.security", "api.apiTokens"]) expect(objects).not.toContain(o);
  });
});
