/**
 * The conflict check before sending invitations (a dry run; a warning, never a refusal):
 *
 * - per invitee and invited category, how many of the contest's current works (its judging
 *   pool) they could not judge, by reason: their school, their province when the contest
 *   avoids provinces, their declared conflicts (schools, works, students), works they advise
 *   or wrote (conflict.ts, the
 *   rules the assignment uses; an invitee without an account has no declared conflicts yet);
 * - whether the contest's current judges, and then those plus the invitees, can give every
 *   work N conflict-free judges: the assignment's own feasibility check (min-cost-flow on the
 *   snapshot the automatic assignment reads, with its exact reasons), run without writing.
 *   Invitees take only works of their invited categories: with judge groups they join the
 *   groups of those categories; without groups the works are grouped by 大类 for the check,
 *   every current judge in every group (as without groups), the invitees in theirs.
 */
import type { CheckBody, CheckedPerson, ConflictCheck, Feasibility } from "../../shared/judge-invite/schema";
import type { Db } from "../db";
import type { User } from "../db/schema";
import { conflictsFor, type ConflictReason } from "../judging/conflict";
import {
  minCostFlow,
  type AssignGroup,
  type AssignInput,
  type AssignJudge,
  type AssignResult,
  type AssignWork,
} from "../judging/assign";
import { declaredOf, judgeSchoolFacts, poolWorks, requireManagedContest, settingsOf } from "../judging/service/contest";
import { loadSnapshot } from "../judging/service/snapshot";
import { checkCategories } from "./invite";
import { resolveInvitees, type Invitee } from "./invitees";
import { contestCategories } from "./load";
import { contactScope, seesContact } from "../judge-pool/scope";

const MAX_ISSUES = 8;
const MAX_WARNINGS = 30;

const feasibility = (r: AssignResult): Feasibility => ({
  complete: r.complete,
  shortWorks: r.shortfalls.length,
  missingReviews: r.shortfalls.reduce((n, s) => n + s.needed - s.proposed, 0),
});

type ContestOf = Awaited<ReturnType<typeof requireManagedContest>>;
type Tree = Awaited<ReturnType<typeof contestCategories>>;
type Settings = Awaited<ReturnType<typeof settingsOf>>;
type CheckWork = { id: number; categoryId: number; subcategoryId: number | null; schoolId: number; province: string };
/** The rule facts of an invitee as a judge (its index stands in for a missing account id). */
type FactsOf = (inv: Invitee, i: number) => AssignJudgeFacts;
type AssignJudgeFacts = Omit<AssignJudge, "capacity" | "load">;

export async function checkInvitations(db: Db, user: User, contestId: number, body: CheckBody): Promise<ConflictCheck> {
  const c = await requireManagedContest(db, user, contestId);
  const tree = await contestCategories(db, c.id);
  const categories = checkCategories(tree, body.categoryIds);
  const invitees = await resolveInvitees(db, c.id, body);
  const settings = await settingsOf(db, c.id);

  const userIds = invitees.map((i) => i.userId).filter((u): u is number => u !== null);
  const { works, advised, declared, authorsOf } = await ruleFacts(db, c, userIds);
  // A judge without an account gets an id no account has, for the rules and the flow.
  const judgeIdOf = (inv: Invitee, i: number) => inv.userId ?? -(i + 1);
  const factsOf = (inv: Invitee, i: number) => ({
    id: judgeIdOf(inv, i),
    ...judgeSchoolFacts(c, { school_id: inv.schoolId, province: inv.province }),
    declared: inv.userId !== null ? declared.get(inv.userId) : undefined,
  });

  const persons = checkPersons(invitees, categories, tree, works, {
    advised,
    authorsOf,
    factsOf,
    avoidProvince: settings.avoidProvince,
  });
  await hideContacts(db, user, persons);
  const { snap, before, after, extraJudges, byCategory } = await feasibilityWith(
    db,
    c,
    settings,
    tree,
    categories,
    invitees,
    factsOf,
  );
  const N = settings.reviewsPerWork;
  const a = feasibility(after);
  const warnings = checkWarnings(persons, byCategory, a, extraJudges.length, N, works.length);

  return {
    contest: { id: c.id, name: c.name },
    reviewsPerWork: N,
    judgeCapacity: settings.judgeCapacity,
    avoidProvince: settings.avoidProvince,
    persons,
    works: snap.input.works.length,
    currentJudges: snap.input.judges.length,
    invitedJudges: extraJudges.length,
    before: feasibility(before),
    after: a,
    byCategory,
    issues: after.issues.slice(0, MAX_ISSUES).map((i) => i.message),
    warnings: warnings.slice(0, MAX_WARNINGS),
  };
}

/**
 * What the conflict rules need: the contest's works now (school, province, categories), the
 * works the invitees with an account advise or wrote, their declared conflicts, and the
 * authors of the works of declared students.
 */
async function ruleFacts(db: Db, c: ContestOf, userIds: number[]) {
  const works = (
    await poolWorks(db, c)
      .innerJoin("school", "school.id", "work.school_id")
      .select(["work.id", "work.category_id", "work.subcategory_id", "work.school_id", "school.province"])
      .orderBy("work.id")
      .execute()
  ).map((w) => ({
    id: Number(w.id),
    categoryId: w.category_id,
    subcategoryId: w.subcategory_id,
    schoolId: w.school_id,
    province: w.province,
  }));
  const advised = new Map<number, Set<number>>();
  if (userIds.length && works.length) {
    const mine = [
      ...(await db.selectFrom("work_teacher").select(["work_id", "user_id"]).where("user_id", "in", userIds).execute()),
      ...(await db.selectFrom("work_author").select(["work_id", "user_id"]).where("user_id", "in", userIds).execute()),
    ];
    for (const r of mine) advised.set(r.user_id, (advised.get(r.user_id) ?? new Set()).add(Number(r.work_id)));
  }
  const declared = await declaredOf(db, userIds);
  // A declared student avoids every work the student authors: the authors of those students' works.
  const students = [...new Set([...declared.values()].flatMap((d) => d.userIds))];
  const authorsOf = new Map<number, number[]>();
  if (students.length && works.length) {
    for (const a of await db
      .selectFrom("work_author")
      .select(["work_id", "user_id"])
      .where("user_id", "in", students)
      .execute()) {
      authorsOf.set(Number(a.work_id), [...(authorsOf.get(Number(a.work_id)) ?? []), a.user_id]);
    }
  }
  return { works, advised, declared, authorsOf };
}

/**
 * The check shows a pool person's e-mail only where the pool would (judge-pool/scope.ts): the
 * caller typed it in ("e:" keys), or may see that person's contact details. Otherwise a check
 * that sends nothing and leaves no record would read out any person's address by id.
 */
async function hideContacts(db: Db, user: User, persons: CheckedPerson[]) {
  const scope = await contactScope(db, user);
  for (const p of persons) {
    if (p.personId === null || p.key.startsWith("e:")) continue;
    if (!(await seesContact(db, scope, p.personId))) p.email = null;
  }
}

/** Per invitee and invited category: the works of the category and how many they must avoid, by reason. */
function checkPersons(
  invitees: Invitee[],
  categories: number[],
  tree: Tree,
  works: CheckWork[],
  x: { advised: Map<number, Set<number>>; authorsOf: Map<number, number[]>; factsOf: FactsOf; avoidProvince: boolean },
): CheckedPerson[] {
  const { advised, authorsOf, factsOf } = x;
  const opts = { avoidProvince: x.avoidProvince };
  const inCategory = (w: (typeof works)[number], cat: number) => w.categoryId === cat || w.subcategoryId === cat;
  const REASON_KEY: Record<ConflictReason, "school" | "province" | "declared" | "advisor"> = {
    same_school: "school",
    same_province: "province",
    declared: "declared",
    advisor: "advisor",
  };
  return invitees.map((inv, i) => {
    const facts = factsOf(inv, i);
    const mine = inv.userId !== null ? advised.get(inv.userId) : undefined;
    return {
      key: inv.key,
      personId: inv.personId,
      name: inv.name,
      email: inv.email,
      schoolName: inv.schoolName,
      province: inv.province,
      hasAccount: inv.userId !== null,
      skip: inv.skip,
      categories: categories.map((cat) => {
        const row = {
          categoryId: cat,
          name: tree.names.get(cat) ?? String(cat),
          works: 0,
          excluded: 0,
          school: 0,
          province: 0,
          declared: 0,
          advisor: 0,
        };
        for (const w of works) {
          if (!inCategory(w, cat)) continue;
          row.works++;
          const reasons = conflictsFor(
            facts,
            {
              id: w.id,
              schoolId: w.schoolId,
              province: w.province,
              advisorIds: mine?.has(w.id) ? [facts.id] : [],
              authorIds: authorsOf.get(w.id) ?? [],
            },
            opts,
          );
          if (reasons.length) row.excluded++;
          for (const r of reasons) row[REASON_KEY[r]]++;
        }
        return row;
      }),
    };
  });
}

/**
 * Feasibility on the assignment's own snapshot, before and with the invitees (newcomers only),
 * and the shortfalls per invited 大类.
 */
async function feasibilityWith(
  db: Db,
  c: ContestOf,
  settings: Settings,
  tree: Tree,
  categories: number[],
  invitees: Invitee[],
  factsOf: FactsOf,
) {
  const snap = await loadSnapshot(db, c, settings);
  const invitedTops = new Set(categories.map((id) => tree.topOf.get(id)!));
  const newcomers = invitees
    .map((inv, i) => ({ inv, i }))
    .filter(({ inv }) => !inv.skip && !snap.judges.some((j) => j.id === inv.userId));
  const capacity = settings.judgeCapacity ?? Math.max(snap.input.works.length, 1);
  const extraJudges: AssignJudge[] = newcomers.map(({ inv, i }) => ({ ...factsOf(inv, i), capacity, load: 0 }));
  const extraIds = extraJudges.map((j) => j.id);

  let groups: AssignGroup[];
  let snapWorks: readonly AssignWork[] = snap.input.works;
  if (snap.groups.length) {
    const defs = await db
      .selectFrom("judge_group")
      .select(["id", "category_id", "subcategory_id"])
      .where("contest_id", "=", c.id)
      .execute();
    groups = snap.groups.map((g) => {
      const d = defs.find((x) => x.id === g.id)!;
      // A 小类 group takes those invited for the 小类 or its whole 大类; a 大类 group those invited for it or any of its 小类.
      const fits =
        d.subcategory_id !== null
          ? categories.includes(d.subcategory_id) || categories.includes(d.category_id)
          : invitedTops.has(d.category_id);
      return { id: g.id, name: g.name, judgeIds: fits ? [...g.judgeIds, ...extraIds] : g.judgeIds };
    });
  } else {
    const topOfWork = new Map([...snap.works.values()].map((w) => [w.id, w.categoryId]));
    const tops = [...new Set(topOfWork.values())];
    const current = snap.input.judges.map((j) => j.id);
    const names = new Map(tree.nodes.map((n) => [n.id, n.name]));
    groups = tops.map((t) => ({
      id: `c:${t}`,
      name: `${names.get(t) ?? t}大类`,
      judgeIds: invitedTops.has(t) ? [...current, ...extraIds] : current,
    }));
    snapWorks = snap.input.works.map((w) => ({ ...w, groupId: `c:${topOfWork.get(w.id)}` }));
  }
  const beforeInput: AssignInput = {
    ...snap.input,
    works: snapWorks,
    groups: groups.map((g) => ({ ...g, judgeIds: g.judgeIds.filter((id) => !extraIds.includes(id)) })),
  };
  const afterInput: AssignInput = { ...snap.input, works: snapWorks, judges: [...snap.input.judges, ...extraJudges], groups };
  const before = minCostFlow.propose(beforeInput, minCostFlow.defaults);
  const after = extraJudges.length ? minCostFlow.propose(afterInput, minCostFlow.defaults) : before;

  const topOfWork = new Map([...snap.works.values()].map((w) => [w.id, w.categoryId]));
  const shortIn = (r: AssignResult, top: number) => r.shortfalls.filter((s) => topOfWork.get(s.workId) === top).length;
  const byCategory = [...invitedTops].map((top) => ({
    categoryId: top,
    name: tree.names.get(top) ?? String(top),
    works: [...snap.works.values()].filter((w) => w.categoryId === top).length,
    shortBefore: shortIn(before, top),
    shortAfter: shortIn(after, top),
  }));

  return { snap, before, after, extraJudges, byCategory };
}

/** The warnings of a check: who is skipped, who must avoid half a category or more, what stays short. */
function checkWarnings(
  persons: CheckedPerson[],
  byCategory: { shortAfter: number }[],
  a: Feasibility,
  invitedJudges: number,
  N: number,
  workCount: number,
): string[] {
  const warnings: string[] = [];
  const skipped = persons.filter((p) => p.skip);
  if (skipped.length)
    warnings.push(
      `${skipped.length} 人不会收到邀请：${skipped
        .slice(0, 5)
        .map((p) => `${p.name}（${p.skip}）`)
        .join("；")}${skipped.length > 5 ? " 等" : ""}`,
    );
  for (const p of persons) {
    if (p.skip) continue;
    for (const k of p.categories) {
      if (!k.works || k.excluded * 2 < k.works) continue;
      const parts = [
        ["同校", k.school],
        ["同省", k.province],
        ["申报回避", k.declared],
        ["指导或参与", k.advisor],
      ]
        .filter(([, n]) => n)
        .map(([t, n]) => `${t} ${n}`);
      warnings.push(`「${p.name}」须回避「${k.name}」${k.works} 件作品中的 ${k.excluded} 件（${parts.join("、")}）`);
    }
  }
  if (!a.complete) {
    const invitedShort = byCategory.reduce((n, k) => n + k.shortAfter, 0);
    warnings.push(
      `${invitedJudges ? "加上本次邀请的评委后，" : ""}仍有 ${a.shortWorks} 件作品无法得到 ${N} 位无回避关系的评委（共缺 ${a.missingReviews} 次评审）` +
        (invitedShort === a.shortWorks
          ? ""
          : invitedShort
            ? `，其中 ${invitedShort} 件属于本次邀请的类别`
            : "，均不在本次邀请的类别中"),
    );
  }
  if (!workCount) warnings.push("本赛事目前没有待评审的作品，回避数量和可行性将在作品进入评审后才有意义");

  return warnings;
}
