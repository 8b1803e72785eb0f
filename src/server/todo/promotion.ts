/**
 * The contest admin's promotion decisions (issue 29): after a complaint's decision or a
 * confirmed arbitration changed a published provincial result, a work that now qualifies for
 * the national round but found no place (quota used, national registration closed), or a
 * promoted work whose new award no longer qualifies — computed by the national module
 * (promotionMismatches), for the contests the user administers directly.
 */
import type { TodoItem } from "../../shared/todo/schema";
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
