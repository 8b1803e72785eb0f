/**
 * The invitation dashboard of a contest: per open 大类 (an invitation counts once in each 大类
 * it names, directly or through a 小类) how many were sent, opened, are pending, accepted,
 * declined, expired or withdrawn; and the coverage: the contest's judges for that 大类 against
 * what N reviews of its current works need.
 *
 * A judge counts for a 大类 when they are in a judge group of it, accepted an invitation for it,
 * or their pool record lists it (or one of its 小类); a judge with none of these counts for none
 * (reported apart). Judges needed: N when judges have no capacity limit (each work needs N
 * different judges), else max(N, ⌈works × N / capacity⌉).
 */
import type { InviteDashboard, StateCounts } from "../../shared/judge-invite/schema";
import type { Db } from "../db";
import type { User } from "../db/schema";
import { contestJudges, poolWorks, requireManagedContest, settingsOf } from "../judging/service/contest";
import { categoryIdsOf, stateOf } from "./codes";
import { contestCategories } from "./load";

const zero = (): StateCounts => ({ sent: 0, opened: 0, pending: 0, accepted: 0, declined: 0, expired: 0, withdrawn: 0 });

export async function dashboard(db: Db, user: User, contestId: number): Promise<InviteDashboard> {
  const c = await requireManagedContest(db, user, contestId);
  const settings = await settingsOf(db, c.id);
  const tree = await contestCategories(db, c.id);
  const N = settings.reviewsPerWork;

  const rows = await db
    .selectFrom("judge_invitation")
    .select(["status", "answer_by", "opened_at", "categories", "accepted_user_id"])
    .where("contest_id", "=", c.id)
    .execute();
  const totals = zero();
  const per = new Map<number, StateCounts>(tree.nodes.map((n) => [n.id, zero()]));
  const now = Date.now();
  const count = (k: StateCounts, r: (typeof rows)[number]) => {
    const st = stateOf(r, now);
    k.sent++;
    if (r.opened_at) k.opened++;
    if (st === "sent") k.pending++;
    else k[st]++;
  };
  const topsOf = (json: string) =>
    new Set(
      categoryIdsOf(json)
        .map((id) => tree.topOf.get(id))
        .filter((t): t is number => t !== undefined),
    );
  for (const r of rows) {
    count(totals, r);
    for (const t of topsOf(r.categories)) count(per.get(t)!, r);
  }

  const works = new Map<number, number>();
  for (const w of await poolWorks(db, c).select("work.category_id").execute())
    works.set(w.category_id, (works.get(w.category_id) ?? 0) + 1);

  // Which 大类 each judge of the contest is for.
  const judges = await contestJudges(db, c);
  const ids = judges.map((j) => j.id);
  const of = new Map<number, Set<number>>(ids.map((id) => [id, new Set()]));
  const add = (userId: number | null, top: number | undefined) => {
    if (userId !== null && top !== undefined) of.get(userId)?.add(top);
  };
  if (ids.length) {
    const groups = await db
      .selectFrom("judge_group_member as m")
      .innerJoin("judge_group as g", "g.id", "m.group_id")
      .select(["m.user_id", "g.category_id"])
      .where("g.contest_id", "=", c.id)
      .execute();
    for (const g of groups) add(g.user_id, tree.topOf.get(g.category_id));
    for (const r of rows) if (r.status === "accepted") for (const t of topsOf(r.categories)) add(r.accepted_user_id, t);
    for (let i = 0; i < ids.length; i += 500) {
      const pool = await db
        .selectFrom("judge_person as p")
        .innerJoin("judge_person_category as pc", "pc.person_id", "p.id")
        .select(["p.user_id", "pc.category_id"])
        .where("p.user_id", "in", ids.slice(i, i + 500))
        .where("p.merged_into", "is", null)
        .execute();
      for (const p of pool) add(p.user_id, tree.topOf.get(p.category_id));
    }
  }
  const cap = settings.judgeCapacity;
  const categories = tree.nodes.map((n) => {
    const w = works.get(n.id) ?? 0;
    const j = ids.filter((id) => of.get(id)!.has(n.id)).length;
    const judgesNeeded = w === 0 ? 0 : cap === null ? N : Math.max(N, Math.ceil((w * N) / cap));
    return {
      categoryId: n.id,
      name: n.name,
      counts: per.get(n.id)!,
      works: w,
      judges: j,
      reviewsNeeded: w * N,
      reviewCapacity: cap === null ? null : j * cap,
      judgesNeeded,
      coverage: judgesNeeded ? Math.round((j / judgesNeeded) * 100) / 100 : 1,
      covered: j >= judgesNeeded,
    };
  });
  return {
    contest: { id: c.id, name: c.name },
    reviewsPerWork: N,
    judgeCapacity: cap,
    totals,
    categories,
    judgesWithoutCategory: ids.filter((id) => of.get(id)!.size === 0).length,
  };
}
