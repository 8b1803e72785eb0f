/**
 * The 专业组 rule, in one place for submit (server/work/rules.ts groupMatchesMajors), the
 * work form's check while the team or 大类 changes (GET /Backend/Work/work/:id/group-check)
 * and the demo seed (server/seed/works.ts): in a 大类 that splits into 普通组 and 专业组, a
 * work one of whose authors (ANY author) studies a major of the 大类's 专业组 list must
 * enter 专业组 (so professionals do not compete in 普通组); a work with no such author enters 普通组.
 */
import { GROUP_NAMES, type WorkGroupKey } from "./fields";

export interface GroupRuleCategory {
  name: string;
  hasProfessionalGroup: boolean;
  /** the 专业组 major codes of the 大类 */
  professionalMajors: readonly string[];
}
export interface GroupRuleAuthor {
  name: string;
  majorCode: string | null;
  majorName?: string | null;
}

/** The authors whose major makes the work 专业组. */
export const professionalAuthors = <A extends GroupRuleAuthor>(cat: GroupRuleCategory, authors: readonly A[]): A[] =>
  cat.hasProfessionalGroup ? authors.filter((a) => a.majorCode !== null && cat.professionalMajors.includes(a.majorCode)) : [];

/** The group the rule asks for: 专业组 when any author's major is in the list (and the 大类 splits). */
export const requiredGroup = (cat: GroupRuleCategory, authors: readonly GroupRuleAuthor[]): WorkGroupKey =>
  professionalAuthors(cat, authors).length ? "professional" : "normal";

const named = (a: GroupRuleAuthor) => `${a.name}（${a.majorName ?? a.majorCode}）`;

/** Why the group does not fit the team, or null (the message submit refuses with). */
export function groupProblem(cat: GroupRuleCategory, group: WorkGroupKey, authors: readonly GroupRuleAuthor[]): string | null {
  if (!cat.hasProfessionalGroup) return group === "professional" ? `「${cat.name}」不分专业组，请选择普通组` : null;
  const inside = professionalAuthors(cat, authors);
  if (group === "normal" && inside.length)
    return `作者「${inside.map(named).join("、")}」的专业属于本大类的专业组专业，应报${GROUP_NAMES.professional}`;
  if (group === "professional" && !inside.length && authors.length)
    return `${GROUP_NAMES.professional}要求至少一位作者的专业属于本大类的专业组专业，请改报${GROUP_NAMES.normal}`;
  return null;
}
