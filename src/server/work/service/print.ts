/**
 * Data of the print pages: the registration form and the copyright statement. Allowed to
 * exactly those who may see the work (404 with a Chinese info for everyone else).
 */
import { CONTEST_LEVEL_NAMES, type ContestLevelKey } from "../../../shared/contest/stages";
import { GROUP_NAMES } from "../../../shared/work/fields";
import { copyrightStatement, type CopyrightPrint, type RegistrationPrint } from "../../../shared/work/print";
import { WORK_STATE_NAMES } from "../../../shared/work/states";
import type { AuthorRow, TeacherRow, WorkRow } from "../repository";
import { toTextView } from "../view";
import { loadVisible, type WorkCtx } from "./context";

const person = (w: WorkRow) => (m: AuthorRow | TeacherRow) => ({
  rank: m.rank,
  name: m.name,
  school: w.school_name,
  memberNo: m.member_no,
  majorCode: m.major_code,
  majorName: m.major_name,
  phone: m.phone,
  email: m.email,
});

const contestOf = (w: WorkRow) => ({
  id: w.contest_id,
  name: w.contest_name,
  level: w.contest_level,
  levelName: CONTEST_LEVEL_NAMES[w.contest_level as ContestLevelKey],
  year: w.year,
});
const schoolOf = (w: WorkRow) => ({ id: w.school_id, name: w.school_name, code: w.school_code, province: w.school_province });

export async function registrationPrint(ctx: WorkCtx, id: number): Promise<RegistrationPrint> {
  const { work: w, authors, teachers } = await loadVisible(ctx, id);
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
    authors: authors.map(person(w)),
    teachers: teachers.map(person(w)),
    printedAt: new Date().toISOString(),
  };
}

export async function copyrightPrint(ctx: WorkCtx, id: number): Promise<CopyrightPrint> {
  const { work: w, authors, teachers } = await loadVisible(ctx, id);
  return {
    work: { id: w.id, name: w.name, categoryName: w.category_name, subcategoryName: w.subcategory_name },
    contest: contestOf(w),
    school: schoolOf(w),
    authors: authors.map(person(w)),
    teachers: teachers.map(person(w)),
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
