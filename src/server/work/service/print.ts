/**
 * Data of the print pages: the registration form and the copyright statement. Allowed to
 * exactly those who may see the work (404 with a Chinese info for everyone else).
 *
 * Phones: the 报名表 is printed, signed and filed by the team and its school, who must reach
 * each other, so the team's own members (authors, teachers) and the school's admin get them in
 * full; every such print that shows someone else's number is in the audit log (entity work,
 * action view_phone). Anyone else who may see the work (contest admins, reviewers, root) gets
 * them masked, as in the work view, and reveals one through the audited user route if needed.
 */
import { CONTEST_LEVEL_NAMES, type ContestLevelKey } from "../../../shared/contest/stages";
import { GROUP_NAMES } from "../../../shared/work/fields";
import { copyrightStatement, type CopyrightPrint, type RegistrationPrint } from "../../../shared/work/print";
import { WORK_STATE_NAMES } from "../../../shared/work/states";
import type { AuthorRow, TeacherRow, WorkRow } from "../repository";
import { toTextView } from "../view";
import { loadVisible, type Loaded, type WorkCtx } from "./context";
import { maskPhone } from "../../../shared/mask";
import { record } from "../../common/audit";
import type { Relation } from "../rules";

/** Who prints the form with the team's phones in full: the team itself and its school. */
const TEAM_AND_SCHOOL: Relation[] = ["author", "pending_author", "teacher", "school"];

const person = (w: WorkRow, full: boolean, viewerId: number) => (m: AuthorRow | TeacherRow) => ({
  rank: m.rank,
  name: m.name,
  school: w.school_name,
  memberNo: m.member_no,
  majorCode: m.major_code,
  majorName: m.major_name,
  phone: full || m.user_id === viewerId ? m.phone : maskPhone(m.phone),
  email: m.email,
});

/** Whether this print shows the team's phones in full, audited when it shows someone else's. */
async function fullPhones(ctx: WorkCtx, l: Loaded): Promise<boolean> {
  const full = TEAM_AND_SCHOOL.some((r) => l.relations.has(r));
  const others = [...l.authors, ...l.teachers].some((m) => m.user_id !== ctx.user.id && m.phone);
  if (full && others)
    await record(ctx.db, ctx.user.id, { entity: "work", entityId: l.work.id, action: "view_phone", changes: {} });
  return full;
}

const contestOf = (w: WorkRow) => ({
  id: w.contest_id,
  name: w.contest_name,
  level: w.contest_level,
  levelName: CONTEST_LEVEL_NAMES[w.contest_level as ContestLevelKey],
  year: w.year,
});
const schoolOf = (w: WorkRow) => ({ id: w.school_id, name: w.school_name, code: w.school_code, province: w.school_province });

export async function registrationPrint(ctx: WorkCtx, id: number): Promise<RegistrationPrint> {
  const l = await loadVisible(ctx, id);
  const { work: w, authors, teachers } = l;
  const full = await fullPhones(ctx, l);
  return {
    work: {
      id: w.id,
      name: w.name,
      statusName: WORK_STATE_NAMES[w.status],
      categoryName: w.category_name,
      subcategoryName: w.subcategory_name,
      groupName: GROUP_NAMES[w.group_type],
      ...toTextView(w),
      submittedAt: w.submitted_at,
    },
    contest: contestOf(w),
    school: schoolOf(w),
    authors: authors.map(person(w, full, ctx.user.id)),
    teachers: teachers.map(person(w, full, ctx.user.id)),
    printedAt: new Date().toISOString(),
  };
}

export async function copyrightPrint(ctx: WorkCtx, id: number): Promise<CopyrightPrint> {
  const l = await loadVisible(ctx, id);
  const { work: w, authors, teachers } = l;
  const full = await fullPhones(ctx, l);
  return {
    work: { id: w.id, name: w.name, categoryName: w.category_name, subcategoryName: w.subcategory_name },
    contest: contestOf(w),
    school: schoolOf(w),
    authors: authors.map(person(w, full, ctx.user.id)),
    teachers: teachers.map(person(w, full, ctx.user.id)),
    statement: copyrightStatement({
      workId: w.id,
      workName: w.name,
      contestName: w.contest_name,
      schoolName: w.school_name,
      authorNames: authors.map((a) => a.name),
    }),
    printedAt: new Date().toISOString(),
  };
}
