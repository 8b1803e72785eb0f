/**
 * The key of a rule [object, action] in a permission set: "object action". A module of its own,
 * without casbin, so the light login pages (src/client/login) can decide their menu from a
 * permission set without pulling the policy engine in (issue 14).
 */
export const ruleKey = (rule: readonly [string, string]) => `${rule[0]} ${rule[1]}`;
