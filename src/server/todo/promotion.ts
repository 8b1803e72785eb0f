/**
 * The contest admin's promotion decisions (issue 29): after a complaint's decision or a
 * confirmed arbitration changed a published provincial result, a work that now qualifies for
 * the national round but found no place (quota used, national registration closed), or a
 * promoted work whose new award no longer qualifies — computed by the national module
 * (promotionMismatches), for the contests the user administers directly. An admin may mark an
 * item 已处理 (markPromotionDone): recorded with who and when (promotion_todo_done and the audit
 * log), hidden until the work's promotion state changes again (national/promotion.ts).
 */
import { forbidden, notFound } from "../../shared/errors";
import type { TodoItem } from "../../shared/todo/schema";
import { record } from "../common/audit";
import type { Db } from "../db";
import type { User } from "../db/schema";
import { promotionMismatches } from "../national/promotion";

const PAGE = "/ContestAdmin/ContestResult";

export async function promotionItems(db: Db, users: User[], now: Date): Promise<Map<number, TodoItem[]>> {
  const out = new Map<number, TodoItem[]>();
  if (!users.length) return out;
  const members = await db
    .selectFrom("contest_member as m")
    .innerJoin("contest as c", "c.id", "m.contest_id")
    .select(["m.user_id", "m.contest_id"])
    .where(
      "m.user_id",
      "in",
      users.map((u) => u.id),
    )
    .where("m.role", "=", "admin")
    .where("c.level", "=", "provincial")
    .where("c.archived", "=", 0)
    .execute();
  const byContest = new Map<number, Awaited<ReturnType<typeof promotionMismatches>>>();
  for (const m of members) {
    if (!byContest.has(m.contest_id)) byContest.set(m.contest_id, await promotionMismatches(db, m.contest_id, now));
    const found = byContest.get(m.contest_id);
    if (!found) continue;
    for (const x of found.items) {
      const item: TodoItem = {
        key: `promotion:${found.contest.id}:${x.workId}:${x.kind}`,
        kind: "promotion",
        title:
          x.kind === "candidate"
            ? `作品《${x.workName}》改获「${x.award}」，尚未晋级国赛`
            : `作品《${x.workName}》改为「${x.award ?? "无奖项"}」，仍在国赛晋级名单中`,
        detail:
          x.kind === "candidate"
            ? `${found.contest.name} · 本大类获同等奖项的作品均已晋级；${x.why ?? "可以晋级"}。请决定是否晋级：撤回发布后在「比赛结果」中调整晋级名单，或联系国赛管理员`
            : `${found.contest.name} · 本大类已晋级作品的奖项均高于此奖项。请决定是否撤回其晋级（「比赛结果」→ 晋级国赛 → 撤回晋级，国赛报名截止前）`,
        count: 1,
        dueAt: null,
        link: PAGE,
        menu: PAGE,
      };
      const list = out.get(Number(m.user_id));
      if (list) list.push(item);
      else out.set(Number(m.user_id), [item]);
    }
  }
  return out;
}

/**
 * Marks the user's promotion item `key` (promotion:<contest id>:<work id>:<kind>, as promotionItems makes it) 已处理: only an admin of the item's contest, only while
 * the item is shown (a changed or already marked one is refused and nothing is written).
 */
export async function markPromotionDone(db: Db, user: User, key: string, now = new Date()): Promise<void> {
  const [, contest, work, kind] = key.split(":");
  const contestId = Number(contest);
  const workId = Number(work);
  await db.transaction().execute(async (trx) => {
    const member = await trx
      .selectFrom("contest_member")
      .select("user_id")
      .where("user_id", "=", user.id)
      .where("contest_id", "=", contestId)
      .where("role", "=", "admin")
      .executeTakeFirst();
    if (!member) throw forbidden("您不是该比赛的管理员，不能处理此待办事项");
    const found = await promotionMismatches(trx, contestId, now);
    const item = found?.items.find((i) => i.workId === workId && i.kind === kind);
    if (!item) throw notFound("该待办事项已不存在：可能已有人标记为已处理，或作品的晋级情况已变化，请刷新");
    const at = now.toISOString();
    await trx
      .insertInto("promotion_todo_done")
      .values({ contest_id: contestId, work_id: workId, kind: item.kind, award: item.award, done_by: user.id, done_at: at })
      .onConflict((oc) =>
        oc.columns(["contest_id", "work_id"]).doUpdateSet({ kind: item.kind, award: item.award, done_by: user.id, done_at: at }),
      )
      .execute();
    await record(trx, user.id, {
      entity: "contest_result",
      entityId: `${contestId}:${workId}`,
      action: "promotion_todo_done",
      changes: {
        todo: [
          null,
          `已处理：作品《${item.workName}》${item.kind === "candidate" ? "尚未晋级" : "仍在晋级名单"}（${item.award ?? "无奖项"}）`,
        ],
      },
    });
  });
}
