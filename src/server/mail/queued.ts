/**
 * Mail through the task queue, with retries: a message is sent at once (the tests and the
 * outbox see it right after the request, as before); only when sending fails is it queued
 * (saiwu_mail) and retried by whichever process takes the task, a few times with a delay.
 * The request that caused it succeeds either way.
 */
import type { TaskQueue } from "../jobs/queue";
import type { Mail, Mailer } from "./mailer";

export const MAIL_TASK = "saiwu_mail";

export async function queuedMailer(inner: Mailer, queue: TaskQueue, log: (msg: string, err?: unknown) => void): Promise<Mailer> {
  await queue.work(MAIL_TASK, async (data) => {
    await inner.send({ to: String(data.to), subject: String(data.subject), text: String(data.text) });
  });
  return {
    async send(mail: Mail) {
      try {
        await inner.send(mail);
      } catch (err) {
        log(`邮件发送失败（收件人 ${mail.to}），已排队重试`, err);
        await queue.send(MAIL_TASK, { to: mail.to, subject: mail.subject, text: mail.text });
      }
    },
    describe: () => inner.describe(),
  };
}
