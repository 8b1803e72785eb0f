/**
 * To-do items of a complaint's parties (issue 29): the authors and advising teachers of the
 * work a complaint is about, and its logged-in filer, see every open complaint while it is
 * handled (with the handlers' next due time) and, once it is decided, their own arbitration
 * window (申请仲裁 until the arbitration deadline). Who a party is follows
 * src/server/complaint/scope.ts (actorsOf: filer, or an author / teacher of the work); each
 * complaint is named by its kind (src/shared/complaint/labels.ts).
 */
import { complaintLabel } from "../../shared/complaint/labels";
import { COMPLAINT_STATE_NAMES, OPEN_STATES, type ComplaintState } from "../../shared/complaint/states";
import type { TodoItem } from "../../shared/todo/schema";
import type { Db } from "../db";
import type { User } from "../db/schema";

const PAGE = "/complaint-view/view-complaint";

/** What an item says of a complaint and its work, for the parties and for the filer alike. */
const COMPLAINT_COLUMNS = [
  "c.id",
  "c.type",
  "c.state",
  "c.due_at",
  "c.arbitration_due_at",
  "c.filer_user_id",
  "work.id as work_id",
  "work.name",
] as const;

export async function complaintPartyItems(db: Db, users: User[], now: Date): Promise<Map<number, TodoItem[]>> {
  const out = new Map<number, TodoItem[]>();
  const ids = users.map((u) => u.id);
  if (!ids.length) return out;
  const parties = db
    .selectFrom("work_author")
    .select(["work_author.work_id as work_id", "work_author.user_id as user_id"])
    .where("work_author.user_id", "in", ids)
    .union(
      db
        .selectFrom("work_teacher")
        .select(["work_teacher.work_id as work_id", "work_teacher.user_id as user_id"])
        .where("work_teacher.user_id", "in", ids),
    );
  const byWork = await db
    .selectFrom("complaint as c")
    .innerJoin(parties.as("p"), "p.work_id", "c.work_id")
    .innerJoin("work", "work.id", "c.work_id")
    .select(["p.user_id", ...COMPLAINT_COLUMNS])
    .where("c.state", "in", [...OPEN_STATES])
    .execute();
  const byFiler = await db
    .selectFrom("complaint as c")
    .innerJoin("work", "work.id", "c.work_id")
    .select(["c.filer_user_id as user_id", ...COMPLAINT_COLUMNS])
    .where("c.filer_user_id", "in", ids)
    .where("c.state", "in", [...OPEN_STATES])
    .execute();
  const seen = new Set<string>();
  for (const r of [...byFiler, ...byWork].sort((a, b) => a.id - b.id)) {
    const userId = Number(r.user_id);
    if (seen.has(`${userId}:${r.id}`)) continue;
    seen.add(`${userId}:${r.id}`);
    const state = r.state as ComplaintState;
    const label = complaintLabel(r);
    const mine = r.filer_user_id === userId;
    const work = `作品 ${r.work_id}《${r.name}》`;
    let item: TodoItem;
    if (state === "decided") {
      // The arbitration window: only while it is open.
      if (!r.arbitration_due_at || Date.parse(r.arbitration_due_at) <= now.getTime()) continue;
      item = {
        key: `complaintParty:${r.id}:decided`,
        kind: "complaintParty",
        title: `${label}已作出决定：如不服可申请仲裁`,
        detail: `${work} · 仲裁申请截止前可申请仲裁，逾期结案`,
        count: 1,
        dueAt: r.arbitration_due_at,
        link: PAGE,
        menu: PAGE,
      };
    } else {
      item = {
        key: `complaintParty:${r.id}:${state}`,
        kind: "complaintParty",
        title: `${mine ? "我提出的" : "针对我的作品的"}${label}：${COMPLAINT_STATE_NAMES[state]}`,
        detail: `${work} · 处理中，截止时间为当前步骤的处理期限`,
        count: 1,
        dueAt: r.due_at,
        link: PAGE,
        menu: PAGE,
      };
    }
    const list = out.get(userId);
    if (list) list.push(item);
    else out.set(userId, [item]);
  }
  return out;
}
