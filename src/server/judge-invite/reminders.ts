/**
 * Reminders before the answer-by date: once an hour (one process across all, through the task
 * queue's `every`, like the complaint reminders), every invitation still sent, not reminded,
 * whose answer-by date is within REMIND_LEAD_HOURS and not yet past, gets one reminder mail.
 * The reminder is claimed first (reminded_at), so a second run or process never sends it
 * again; a resend clears it (a new period with a new link).
 */
import type { Db } from "../db";
import type { TaskQueue } from "../jobs/queue";
import type { Mailer } from "../mail/mailer";
import { categoryIdsOf } from "./codes";
import { categoryNames } from "./load";
import { reminderMail } from "./mails";

export const INVITE_REMINDER_TASK = "saiwu_judge_invite_reminders";
export const REMIND_LEAD_HOURS = 48;

export async function sendInviteReminders(db: Db, mailer: Mailer, publicUrl: string, now = new Date()): Promise<number> {
  const nowIso = now.toISOString();
  const horizon = new Date(now.getTime() + REMIND_LEAD_HOURS * 3600_000).toISOString();
  const due = await db
    .selectFrom("judge_invitation as i")
    .innerJoin("contest", "contest.id", "i.contest_id")
    .innerJoin("app_user as by", "by.id", "i.invited_by")
    .select([
      "i.id",
      "i.email",
      "i.name",
      "i.categories",
      "i.message",
      "i.answer_by",
      "i.sent_at",
      "contest.name as contest_name",
      "by.name as by_name",
    ])
    .where("i.status", "=", "sent")
    .where("i.reminded_at", "is", null)
    .where("i.answer_by", ">", nowIso)
    .where("i.answer_by", "<=", horizon)
    .orderBy("i.id")
    .execute();
  const names = await categoryNames(
    db,
    due.flatMap((r) => categoryIdsOf(r.categories)),
  );
  let sent = 0;
  for (const r of due) {
    // Claim it first: another run of the slot skips it.
    const claimed = await db
      .updateTable("judge_invitation")
      .set({ reminded_at: nowIso })
      .where("id", "=", r.id)
      .where("reminded_at", "is", null)
      .where("status", "=", "sent")
      .executeTakeFirst();
    if (!Number(claimed.numUpdatedRows)) continue;
    await mailer.send(
      reminderMail(publicUrl, {
        to: r.email,
        name: r.name,
        contestName: r.contest_name,
        categories: categoryIdsOf(r.categories).map((id) => names.get(id) ?? String(id)),
        message: r.message,
        answerBy: r.answer_by,
        sentAt: r.sent_at,
        invitedBy: `赛事管理员${r.by_name}`,
      }),
    );
    sent++;
  }
  return sent;
}

export async function scheduleInviteReminders(
  queue: TaskQueue,
  deps: { db: Db; mailer: Mailer; config: { publicUrl: string }; log: (msg: string) => void },
) {
  await queue.every(INVITE_REMINDER_TASK, 3600, async () => {
    const n = await sendInviteReminders(deps.db, deps.mailer, deps.config.publicUrl);
    if (n) deps.log(`评委邀请答复提醒：已发送 ${n} 封邮件`);
  });
}
