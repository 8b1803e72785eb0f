/**
 * The daily digest of new to-do items: once a day (one process across all, through the task
 * queue's `every`), every active user with a mail address and the digest switched on
 * (app_user.todo_digest, on by default, switched on /account/security) gets one mail naming
 * the items that are new since the last digest — an item whose key was not in it, or whose
 * count grew. What a digest covered is kept in todo_digest_state (keys and counts only: the
 * items themselves are always computed from the domains' state). No new item, no mail.
 * The very first run (no digest recorded yet, e.g. right after the upgrade that brings the
 * digest) only records what is open and sends nothing: everyone's existing to-dos are not
 * "new", and a deployment does not mail every user at once.
 */
import type { Policy } from "../../shared/access";
import { TODO_KIND_NAMES, type TodoItem } from "../../shared/todo/schema";
import type { Db } from "../db";
import type { TaskQueue } from "../jobs/queue";
import type { Mailer } from "../mail/mailer";
import { bj } from "../work/rules";
import { todoItems } from "./items";

export const DIGEST_TASK = "saiwu_todo_digest";
const BATCH = 500;

type Seen = Record<string, number>;

const parseSeen = (s: string | undefined): Seen => {
  try {
    return s ? (JSON.parse(s) as Seen) : {};
  } catch {
    return {};
  }
};

export const newSince = (items: TodoItem[], seen: Seen) => items.filter((i) => seen[i.key] === undefined || i.count > seen[i.key]);

export function digestMail(publicUrl: string, name: string, items: TodoItem[]) {
  const lines = items.map((i) => `· ${TODO_KIND_NAMES[i.kind]}：${i.title}（${i.detail}）${i.dueAt ? `，截止 ${bj(i.dueAt)}（北京时间）` : ""}\n  ${publicUrl}${i.link}`);
  return {
    subject: `【赛务平台】您有 ${items.length} 项新的待办事项`,
    text: `${name}，您好：\n\n自上次提醒以来，您有以下新的待办事项：\n\n${lines.join("\n")}\n\n全部待办见用户中心：${publicUrl}/index\n如不想再收到此类邮件，可在「账号安全」中关闭每日待办邮件：${publicUrl}/account/security\n`,
  };
}

/** Sends the digests due now; returns how many mails were sent. */
export async function sendDigests(db: Db, policy: Policy, mailer: Mailer, publicUrl: string, now = new Date()): Promise<number> {
  let sent = 0;
  let after = 0;
  const baseline = !(await db.selectFrom("todo_digest_state").select("user_id").limit(1).executeTakeFirst());
  for (;;) {
    const users = await db
      .selectFrom("app_user")
      .selectAll()
      .where("id", ">", after)
      .where("todo_digest", "=", 1)
      .where("locked", "=", 0)
      .where("archived", "=", 0)
      .where("email", "is not", null)
      .orderBy("id")
      .limit(BATCH)
      .execute();
    if (!users.length) break;
    after = users[users.length - 1].id;
    const states = new Map((await db.selectFrom("todo_digest_state").select(["user_id", "seen"]).where("user_id", "in", users.map((u) => u.id)).execute()).map((r) => [r.user_id, r.seen]));
    for (const user of users) {
      const items = await todoItems(db, policy, user, now);
      const had = states.get(user.id);
      const seenNow: Seen = Object.fromEntries(items.map((i) => [i.key, i.count]));
      const fresh = newSince(items, parseSeen(had));
      const json = JSON.stringify(seenNow);
      if (had === undefined) {
        if (!items.length) continue;
        await db.insertInto("todo_digest_state").values({ user_id: user.id, sent_at: now.toISOString(), seen: json }).execute();
      } else if (had !== json) {
        await db.updateTable("todo_digest_state").set({ sent_at: now.toISOString(), seen: json }).where("user_id", "=", user.id).execute();
      }
      if (!fresh.length || baseline) continue;
      await mailer.send({ to: user.email!, ...digestMail(publicUrl, user.name, fresh) });
      sent++;
    }
  }
  return sent;
}

export async function scheduleDigest(queue: TaskQueue, deps: { db: Db; policy: Policy; mailer: Mailer; publicUrl: string; log: (msg: string) => void }) {
  await queue.every(DIGEST_TASK, 86400, async () => {
    const n = await sendDigests(deps.db, deps.policy, deps.mailer, deps.publicUrl);
    if (n) deps.log(`每日待办邮件：已发送 ${n} 封`);
  });
}
