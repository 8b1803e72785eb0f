/**
 * Judges invited for a 大类 end up in that 大类's judge group (issue 29): an invitation names
 * the categories the judge is asked to judge (judge_invitation.categories). Accepting it puts
 * the judge into the contest's group of each of those categories that exists — the group of
 * the whole 大类 (no 小类, no 普通/专业组) where there is one, else the category's group with
 * the fewest judges; a group created later for the category takes in the judges whose
 * accepted invitation names it and who are in no group of that category yet.
 */
import type { Handle } from "../../work/repository";
import { record } from "../../common/audit";

const idsOf = (json: string): number[] => {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.map(Number).filter((n) => Number.isInteger(n) && n > 0) : [];
  } catch {
    return [];
  }
};

async function membersOf(db: Handle, groupIds: number[]) {
  return groupIds.length
    ? await db.selectFrom("judge_group_member").select(["group_id", "user_id"]).where("group_id", "in", groupIds).execute()
    : [];
}

/** On accepting: the judge joins a group of each invited category; returns the groups' names. */
export async function joinInvitedGroups(
  trx: Handle,
  userId: number,
  contestId: number,
  categoryIds: readonly number[],
  now: string,
): Promise<string[]> {
  if (!categoryIds.length) return [];
  const groups = await trx
    .selectFrom("judge_group")
    .select(["id", "name", "category_id", "subcategory_id", "group_type"])
    .where("contest_id", "=", contestId)
    .where("category_id", "in", [...categoryIds])
    .orderBy("id")
    .execute();
  const members = await membersOf(
    trx,
    groups.map((g) => g.id),
  );
  const size = (id: number) => members.filter((m) => m.group_id === id).length;
  const joined: string[] = [];
  for (const cat of categoryIds) {
    const ofCat = groups.filter((g) => g.category_id === cat);
    if (!ofCat.length || ofCat.some((g) => members.some((m) => m.group_id === g.id && m.user_id === userId))) continue;
    const whole = ofCat.filter((g) => g.subcategory_id === null && g.group_type === null);
    const pick = whole[0] ?? [...ofCat].sort((a, b) => size(a.id) - size(b.id) || a.id - b.id)[0];
    await trx
      .insertInto("judge_group_member")
      .values({ group_id: pick.id, user_id: userId, created_at: now })
      .onConflict((oc) => oc.columns(["group_id", "user_id"]).doNothing())
      .execute();
    await record(trx, userId, {
      entity: "judge_group",
      entityId: pick.id,
      action: "update",
      changes: { addJudges: [null, [userId]], via: [null, "接受评委邀请"] },
    });
    joined.push(pick.name);
  }
  return joined;
}

/** For a new group of the category: the contest's judges invited for it (accepted) and in no group of the category yet. */
export async function invitedJudgesFor(db: Handle, contestId: number, categoryId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("judge_invitation as i")
    .innerJoin("contest_member as m", (j) =>
      j.onRef("m.user_id", "=", "i.accepted_user_id").onRef("m.contest_id", "=", "i.contest_id").on("m.role", "=", "judge"),
    )
    .select(["i.accepted_user_id", "i.categories"])
    .where("i.contest_id", "=", contestId)
    .where("i.status", "=", "accepted")
    .execute();
  const wanted = new Set(rows.filter((r) => idsOf(r.categories).includes(categoryId)).map((r) => r.accepted_user_id!));
  if (!wanted.size) return [];
  const groups = await db
    .selectFrom("judge_group")
    .select("id")
    .where("contest_id", "=", contestId)
    .where("category_id", "=", categoryId)
    .execute();
  const placed = new Set(
    (
      await membersOf(
        db,
        groups.map((g) => g.id),
      )
    ).map((m) => m.user_id),
  );
  return [...wanted].filter((id) => !placed.has(id)).sort((a, b) => a - b);
}
