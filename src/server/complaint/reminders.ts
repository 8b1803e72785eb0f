/**
 * Reminders of due times: once an hour (one process across all, through the task queue),
 * every open complaint whose due time is within its contest's lead time (remindHours) and
 * that has not been reminded in this state gets one mail to those who take the next step —
 * the contest's complaint reviewers (accept, opinion), complaint admins (accept, decide),
 * arbitrators (arbitrate) or root (confirm). The filer and the work's party are not
 * reminded (their deadline is in the decision's mail).
 */
import { COMPLAINT_STATE_NAMES, type ComplaintState } from "../../shared/complaint/states";
import { complaintKind, complaintLabel } from "../../shared/complaint/labels";
import { ROLE } from "../../shared/roles";
import type { Db } from "../db";
import type { TaskQueue } from "../jobs/queue";
import type { Mail, Mailer } from "../mail/mailer";
import { beijingTime as bj } from "../../shared/time";
import { memberContestIds } from "./scope";
import { settingsOf } from "./settings";

export const REMINDER_TASK = "saiwu_complaint_reminders";
const MAX_LEAD_HOURS = 168;

/** Who takes the next step from a state: roles, and the contest membership they need. */
export const NEXT_STEP: Partial<Record<ComplaintState, { roles: number[]; member: "complaint" | "arbitrator" | null }>> = {
  submitted: { roles: [ROLE.complaintReviewer, ROLE.complaintAdmin], member: "complaint" },
  accepted: { roles: [ROLE.complaintReviewer], member: "complaint" },
  reviewed: { roles: [ROLE.complaintAdmin], member: "complaint" },
  arbitration_requested: { roles: [ROLE.arbitrator], member: "arbitrator" },
  arbitrated: { roles: [ROLE.root], member: null },
};

async function recipients(db: Db, contestId: number, state: ComplaintState): Promise<string[]> {
  const next = NEXT_STEP[state];
  if (!next) return [];
  const users = await db
    .selectFrom("app_user")
    .select(["id", "email", "has_complaint_right", "user_type"])
    .where("user_type", "in", next.roles)
    .where("locked", "=", 0)
    .where("email", "is not", null)
    .execute();
  const out: string[] = [];
  for (const u of users) {
    if (next.member === "complaint" && !u.has_complaint_right) continue;
    if (next.member && !(await memberContestIds(db, u.id, next.member)).includes(contestId)) continue;
    out.push(u.email!);
  }
  return out;
}

export async function sendReminders(db: Db, mailer: Mailer, publicUrl: string, now = new Date()): Promise<number> {
  const horizon = new Date(now.getTime() + MAX_LEAD_HOURS * 3600_000).toISOString();
  const due = await db
    .selectFrom("complaint")
    .innerJoin("work", "work.id", "complaint.work_id")
    .select([
      "complaint.id",
      "complaint.type",
      "complaint.contest_id",
      "complaint.state",
      "complaint.due_at",
      "complaint.work_id",
      "work.name",
    ])
    .where("complaint.reminded_at", "is", null)
    .where("complaint.due_at", "is not", null)
    .where("complaint.due_at", "<=", horizon)
    .where("complaint.state", "in", Object.keys(NEXT_STEP) as ComplaintState[])
    .orderBy("complaint.id")
    .execute();
  let sent = 0;
  for (const c of due) {
    const lead = (await settingsOf(db, c.contest_id)).remindHours;
    if (Date.parse(c.due_at!) - now.getTime() > lead * 3600_000) continue;
    // Claim the reminder first: another process's run of the same slot skips it.
    const claimed = await db
      .updateTable("complaint")
      .set({ reminded_at: now.toISOString() })
      .where("id", "=", c.id)
      .where("reminded_at", "is", null)
      .where("state", "=", c.state)
      .executeTakeFirst();
    if (!Number(claimed.numUpdatedRows)) continue;
    const state = c.state as ComplaintState;
    const overdue = Date.parse(c.due_at!) < now.getTime();
    const page =
      state === "arbitration_requested"
        ? "/Arbitrate"
        : state === "arbitrated"
          ? "/admin/ArbitrateManagement"
          : "/ComplaintManagement";
    for (const to of await recipients(db, c.contest_id, state)) {
      const mail: Mail = {
        to,
        subject: `【赛务平台】${complaintLabel(c)} ${overdue ? "已超期" : "即将到期"}`,
        text: `您好：\n\n关于作品 ${c.work_id}「${c.name}」的${complaintKind(c.type)}（编号 ${c.id}）当前为「${COMPLAINT_STATE_NAMES[state]}」，处理期限${overdue ? "已于" : "为"} ${bj(c.due_at!)}${overdue ? "届满" : ""}，请及时处理：${publicUrl}${page}\n`,
      };
      await mailer.send(mail);
      sent++;
    }
  }
  return sent;
}

export async function scheduleReminders(
  queue: TaskQueue,
  deps: { db: Db; mailer: Mailer; publicUrl: string; log: (msg: string) => void },
) {
  await queue.every(REMINDER_TASK, 3600, async () => {
    const n = await sendReminders(deps.db, deps.mailer, deps.publicUrl);
    if (n) deps.log(`申诉处理期限提醒：已发送 ${n} 封邮件`);
  });
}
