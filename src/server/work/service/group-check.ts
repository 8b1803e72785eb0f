/**
 * The 专业组 check of the work form: the shared rule (src/shared/work/group-rule.ts, the one
 * submit applies) over the work's current team, for the 大类 and group the form holds now.
 */
import { invalid } from "../../../shared/errors";
import type { GroupCheckQuery, GroupCheckReply } from "../../../shared/work/group-check";
import { groupProblem, professionalAuthors, requiredGroup } from "../../../shared/work/group-rule";
import * as repo from "../repository";
import { loadVisible, type WorkCtx } from "./context";

export async function groupCheck(ctx: WorkCtx, id: number, q: GroupCheckQuery): Promise<GroupCheckReply> {
  const l = await loadVisible(ctx, id);
  const cat = await repo.findCategory(ctx.db, q.categoryId ?? l.work.category_id);
  if (!cat || cat.parent_id !== null) throw invalid("categoryId", "作品大类不存在");
  const codes = JSON.parse(cat.professional_majors) as string[];
  const rule = { name: cat.name, hasProfessionalGroup: !!cat.has_professional_group, professionalMajors: codes };
  const authors = l.authors.map((a) => ({ name: a.name, majorCode: a.major_code, majorName: a.major_name }));
  const names = codes.length
    ? new Map(
        (await ctx.db.selectFrom("major").select(["code", "name"]).where("code", "in", codes).execute()).map((m) => [
          m.code,
          m.name,
        ]),
      )
    : new Map<string, string>();
  const inside = new Set(professionalAuthors(rule, authors));
  return {
    categoryName: cat.name,
    hasProfessionalGroup: rule.hasProfessionalGroup,
    majors: rule.hasProfessionalGroup ? codes.map((code) => ({ code, name: names.get(code) ?? code })) : [],
    authors: authors.map((a) => ({ name: a.name, majorName: a.majorName ?? a.majorCode, professional: inside.has(a) })),
    required: requiredGroup(rule, authors),
    problem: groupProblem(rule, q.group ?? l.work.group_type, authors),
  };
}
