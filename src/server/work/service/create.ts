/**
 * Creating and deleting works: an author's draft in an open contest, a contest admin's
 * entry on a school's behalf (/ContestAdmin/AddWork), deleting a draft, and the contests
 * an author may enter now.
 */
import { badRequest, forbidden, invalid } from "../../../shared/errors";
import { ROLE } from "../../../shared/roles";
import type { AdminWorkCreate, OpenContest, WorkCreate, WorkView } from "../../../shared/work/schema";
import { WORK_STATE_NAMES, type WorkState } from "../../../shared/work/states";
import type { Insertable } from "kysely";
import type { WorkTable } from "../../db/schema";
import { adminContestIds } from "../../scope";
import * as repo from "../repository";
import { contestAcceptsSchool, entryRefusal, inScope, registrationRefusal, stageOpen, submitRefusal } from "../rules";
import { checkVersion, inTransaction, loadVisible, staleVersion, type TxCtx, type WorkCtx } from "./context";
import {
  checkCategory,
  checkGroup,
  checkSubcategory,
  distinct,
  insertAuthor,
  insertTeacher,
  resolveMember,
  teamNames,
  type Member,
} from "./members";
import { viewOf } from "./read";
import { textColumns, valueOf } from "./values";
import { emit } from "../../events";

type Input = WorkCreate | AdminWorkCreate;

/** Checks the work's fields, allocates its id and writes it with its team; logs the snapshot. */
async function insertNew(
  t: TxCtx,
  contest: repo.ContestRow,
  school: { id: number; name: string },
  input: Input,
  team: { authors: { user: Member; confirmed: boolean }[]; teachers: Member[] },
  status: WorkState,
  action: "create" | "admin_create",
): Promise<number> {
  const cat = await checkCategory(t, contest, input.categoryId);
  const subcategoryId = await checkSubcategory(t, cat, input.subcategoryId);
  const group = checkGroup(cat, input.group);
  if (team.authors.length > cat.max_authors)
    throw invalid(action === "create" ? "coAuthors" : "authors", `「${cat.name}」每件作品最多 ${cat.max_authors} 名作者`);
  if (team.teachers.length > cat.max_teachers)
    throw invalid("teachers", `「${cat.name}」每件作品最多 ${cat.max_teachers} 名指导教师`);
  // An author's input has no teacherReview (the schema drops it); an admin's entry may carry the paper form's.
  const texts = textColumns(input as Record<string, unknown>);
  const [id] = await repo.nextWorkIds(t.db, contest.year);
  const at = t.now.toISOString();
  const row: Insertable<WorkTable> = {
    id,
    year: contest.year,
    contest_id: contest.id,
    category_id: cat.id,
    subcategory_id: subcategoryId,
    group_type: group,
    name: input.name.trim(),
    status,
    school_id: school.id,
    created_by: t.user.id,
    summary: texts.summary ?? null,
    design_idea: texts.designIdea ?? null,
    key_points: texts.keyPoints ?? null,
    open_source: texts.openSource ?? null,
    install_guide: texts.installGuide ?? null,
    teacher_review: texts.teacherReview ?? null,
    other_notes: texts.otherNotes ?? null,
    deploy_link1: texts.deployLink1 ?? null,
    deploy_link2: texts.deployLink2 ?? null,
    ai_declaration: texts.aiDeclaration ?? null,
    created_at: at,
    updated_at: at,
    submitted_at: status === "draft" ? null : at,
  };
  await repo.insertWorks(t.db, [row]);
  const work = { id, category_id: cat.id, year: contest.year };
  for (const [i, a] of team.authors.entries()) await insertAuthor(t, work, a.user, i + 1, a.confirmed);
  for (const [i, u] of team.teachers.entries()) await insertTeacher(t, id, u.id, i + 1);
  await repo.refreshNames(t.db, id);

  const changes: Record<string, [unknown, unknown]> = {
    contestId: [null, contest.name],
    schoolId: [null, school.name],
    status: [null, status],
  };
  const saved = (await repo.findWork(t.db, id))!;
  for (const f of [
    "name",
    "categoryId",
    "subcategoryId",
    "group",
    "summary",
    "designIdea",
    "keyPoints",
    "openSource",
    "installGuide",
    "teacherReview",
    "otherNotes",
    "deployLink1",
    "deployLink2",
    "aiDeclaration",
  ] as const) {
    const v = valueOf(saved, f);
    if (v !== null) changes[f] = [null, v];
  }
  changes.authors = [null, teamNames(team.authors.map((a) => ({ ...a.user, confirmed: a.confirmed ? 1 : 0 })))];
  if (team.teachers.length) changes.teachers = [null, teamNames(team.teachers)];
  if (action === "admin_create") changes.note = [null, "赛事管理员代学校录入；作者由赛事管理员依据学校提交的报名表确认"];
  await repo.appendLog(t.db, { workId: id, userId: t.user.id, action, changes });
  return id;
}

async function contestFor(t: TxCtx, contestId: number) {
  const contest = await repo.findContest(t.db, contestId);
  if (!contest || contest.archived) throw invalid("contestId", "所选赛事不存在或已归档");
  return contest;
}

/** A student creates a draft in an open contest; co-authors confirm themselves later. */
export async function createWork(ctx: WorkCtx, input: WorkCreate): Promise<WorkView> {
  return inTransaction(ctx, async (t) => {
    const me = t.user;
    if (me.user_type !== ROLE.author) throw forbidden("只有学生账号可以报名作品");
    const school = me.school_id ? await repo.findSchool(t.db, me.school_id) : undefined;
    if (!school) throw badRequest("您的账号未绑定学校，请联系学校管理员");
    const contest = await contestFor(t, input.contestId);
    const refused = await entryRefusal(t.db, contest, school);
    if (refused) throw invalid("contestId", refused);
    const closed = registrationRefusal(await repo.stagesOf(t.db, contest.id), contest.name, t.now);
    if (closed) throw badRequest(closed);
    const co = [];
    for (const u of distinct(input.coAuthors ?? [], "coAuthors")) {
      const m = await resolveMember(t, u, "author", school, "coAuthors");
      if (m.id === me.id) throw invalid("coAuthors", "第一作者不必再添加为合作作者");
      co.push({ user: m, confirmed: false });
    }
    const teachers = [];
    for (const u of distinct(input.teachers ?? [], "teachers"))
      teachers.push(await resolveMember(t, u, "teacher", school, "teachers"));
    const self = (await repo.findUserByUsername(t.db, me.username))!;
    const id = await insertNew(
      t,
      contest,
      school,
      input,
      { authors: [{ user: self, confirmed: true }, ...co], teachers },
      "draft",
      "create",
    );
    return viewOf(t.db, await loadVisible(t, id), t.now);
  });
}

/**
 * A contest admin enters a work on a school's behalf into a provincial contest in scope.
 * The work starts at accepted: the authors are confirmed by the admin from the school's
 * signed registration form, and every submit check applies. No registration window.
 */
export async function adminCreateWork(ctx: WorkCtx, input: AdminWorkCreate): Promise<WorkView> {
  const view = await inTransaction(ctx, async (t) => {
    const scope = await adminContestIds(t.db, t.user);
    const contest = await repo.findContest(t.db, input.contestId);
    if (!contest || !inScope(scope, contest.id)) throw invalid("contestId", "所选赛事不存在或不在您的管理范围内");
    if (contest.archived) throw invalid("contestId", `「${contest.name}」已归档`);
    if (contest.level !== "provincial") throw invalid("contestId", "代学校录入的作品只能录入省级赛；校级赛作品由学校审核推荐");
    const names = distinct(input.authors, "authors");
    const first = await repo.findUserByUsername(t.db, names[0]);
    const school = first?.school_id ? await repo.findSchool(t.db, first.school_id) : undefined;
    if (!first || !school) throw invalid("authors", `第一作者「${names[0]}」不存在或未绑定学校`);
    if (!contestAcceptsSchool(contest, school)) throw invalid("authors", `${school.name}不属于「${contest.name}」的参赛范围`);
    const authors = [];
    for (const u of names) authors.push({ user: await resolveMember(t, u, "author", school, "authors"), confirmed: true });
    const teachers = [];
    for (const u of distinct(input.teachers ?? [], "teachers"))
      teachers.push(await resolveMember(t, u, "teacher", school, "teachers"));
    const id = await insertNew(t, contest, school, input, { authors, teachers }, "accepted", "admin_create");
    const l = await loadVisible(t, id);
    const why = await submitRefusal({ ...l, db: t.db, hasSubcategories: await repo.hasSubcategories(t.db, l.work.category_id) });
    if (why) throw badRequest(why);
    return viewOf(t.db, l, t.now);
  });
  // Entered past draft: the duplicate check indexes it (background).
  await emit(ctx.db, "work.textChanged", { workIds: [view.id] });
  return view;
}

/** The first author deletes a draft that was never submitted; the log keeps its content. */
export async function deleteDraft(ctx: WorkCtx, id: number, version?: number) {
  return inTransaction(ctx, async (t) => {
    const l = await loadVisible(t, id);
    if (!l.relations.has("first_author")) throw forbidden("只有第一作者可以删除作品");
    if (l.work.status !== "draft") throw badRequest(`只有草稿可以删除，作品当前状态为「${WORK_STATE_NAMES[l.work.status]}」`);
    checkVersion(l.work, version);
    const changes: Record<string, [unknown, unknown]> = { status: ["draft", null], name: [l.work.name, null] };
    for (const f of [
      "summary",
      "designIdea",
      "keyPoints",
      "openSource",
      "installGuide",
      "teacherReview",
      "otherNotes",
      "deployLink1",
      "deployLink2",
      "aiDeclaration",
    ] as const) {
      const v = valueOf(l.work, f);
      if (v !== null) changes[f] = [v, null];
    }
    changes.authors = [teamNames(l.authors), null];
    if (l.teachers.length) changes.teachers = [teamNames(l.teachers), null];
    await t.db.deleteFrom("work_teacher").where("work_id", "=", id).execute();
    await t.db.deleteFrom("work_author").where("work_id", "=", id).execute();
    const r = await t.db.deleteFrom("work").where("id", "=", id).where("version", "=", l.work.version).executeTakeFirst();
    if (Number(r.numDeletedRows) !== 1) throw staleVersion(l.work.version + 1, l.work.version);
    await repo.appendLog(t.db, { workId: id, userId: t.user.id, action: "delete", changes });
  });
}

/** Contests the student's school may enter now, with their open 大类 and 小类. */
export async function openContests(ctx: WorkCtx): Promise<OpenContest[]> {
  const me = ctx.user;
  const school = me.school_id ? await repo.findSchool(ctx.db, me.school_id) : undefined;
  if (!school) return [];
  const contests = await ctx.db
    .selectFrom("contest")
    .select([
      "id",
      "name",
      "level",
      "year",
      "parent_id",
      "province",
      "school_id",
      "archived",
      "categories",
      "recommend_quota",
      "category_quotas",
    ])
    .where("archived", "=", 0)
    .where((eb) =>
      eb.or([
        eb.and([eb("level", "=", "school"), eb("school_id", "=", school.id)]),
        eb.and([eb("level", "=", "provincial"), eb("province", "=", school.province)]),
      ]),
    )
    .orderBy("year", "desc")
    .orderBy("level", "desc")
    .execute();
  const cats = await ctx.db
    .selectFrom("work_category")
    .select(["id", "parent_id", "name", "has_professional_group", "sort"])
    .where("archived", "=", 0)
    .orderBy("sort")
    .orderBy("id")
    .execute();
  const now = new Date();
  const out: OpenContest[] = [];
  for (const c of contests) {
    if (await entryRefusal(ctx.db, c, school)) continue;
    const stages = await repo.stagesOf(ctx.db, c.id);
    if (!stageOpen(stages, "registration", now)) continue;
    const open = (JSON.parse(c.categories) as number[]).map(Number);
    out.push({
      id: c.id,
      name: c.name,
      level: c.level,
      year: c.year,
      registrationEndsAt: stages.find((s) => s.stage === "registration")!.endsAt,
      categories: cats
        .filter((k) => k.parent_id === null && open.includes(k.id))
        .map((k) => ({
          id: k.id,
          name: k.name,
          hasProfessionalGroup: !!k.has_professional_group,
          subcategories: cats.filter((s) => s.parent_id === k.id).map((s) => ({ id: s.id, name: s.name })),
        })),
    });
  }
  return out;
}
