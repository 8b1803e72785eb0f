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
import type { User } from "../db/schema";
import type { TaskQueue } from "../jobs/queue";
import type { Mailer } from "../mail/mailer";
import { beijingTime as bj } from "../../shared/time";
import { todoItemsOf } from "./items";

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

export const newSince = (items: TodoItem[], seen: Seen) =>
  items.filter((i) => seen[i.key] === undefined || i.count > seen[i.key]);

export function digestMail(publicUrl: string, name: string, items: TodoItem[]) {
  const lines = items.map(
    (i) =>
      `· ${TODO_KIND_NAMES[i.kind]}：${i.title}（${i.detail}）${i.dueAt ? `，截止 ${bj(i.dueAt)}（北京时间）` : ""}\n  ${publicUrl}${i.link}`,
  );
  return {
    subject: `【赛务平台】您有 ${items.length} 项新的待办事项`,
    text: `${name}，您好：\n\n自上次提醒以来，您有以下新的待办事项：\n\n${lines.join("\n")}\n\n全部待办见用户中心：${publicUrl}/index\n如不想再收到此类邮件，可在「账号安全」中关闭每日待办邮件：${publicUrl}/account/security\n`,
  };
}

/**
 * Sends the digests due now; returns how many mails were sent. Users are read in pages of
 * BATCH (by id, with their recorded states); each page's items come from todoItemsOf — the
 * endpoint's own function, one set of queries per kind for the whole page —, its new and
 * changed digest states are written in one statement (an upsert), and then its mails go out
 * through the mailer (the queued mailer retries a failed one through the task queue). No write
 * spans more than one page, and a page's mails are sent after its states are committed (a
 * crash between the two loses a digest, never sends one twice).
 */
export async function sendDigests(
  db: Db,
  policy: Policy,
  mailer: Mailer,
  publicUrl: string,
  now = new Date(),
  opts: { batch?: number } = {},
): Promise<number> {
  const batch = opts.batch ?? BATCH;
  let sent = 0;
  let after = 0;
  const baseline = !(await db.selectFrom("todo_digest_state").select("user_id").limit(1).executeTakeFirst());
  for (;;) {
    // The page of users with their recorded state (null: none yet), in one query.
    const rows = await db
      .selectFrom("app_user")
      .leftJoin("todo_digest_state as st", "st.user_id", "app_user.id")
      .selectAll("app_user")
      .select("st.seen as digest_seen")
      .where("app_user.id", ">", after)
      .where("app_user.todo_digest", "=", 1)
      .where("app_user.locked", "=", 0)
      .where("app_user.archived", "=", 0)
      .where("app_user.email", "is not", null)
      .orderBy("app_user.id")
      .limit(batch)
      .execute();
    if (!rows.length) break;
    after = rows[rows.length - 1].id;
    const states = new Map(rows.filter((r) => r.digest_seen !== null).map((r) => [r.id, r.digest_seen!]));
    const users: User[] = rows.map(({ digest_seen: _, ...u }) => u);
    const itemsOf = await todoItemsOf(db, policy, users, now);
    const writes: { user_id: number; sent_at: string; seen: string }[] = [];
    const mails: { to: string; subject: string; text: string }[] = [];
    for (const user of users) {
      const items = itemsOf.get(user.id)!;
      const had = states.get(user.id);
      const json = JSON.stringify(Object.fromEntries(items.map((i) => [i.key, i.count])));
      const fresh = newSince(items, parseSeen(had));
      if (had === undefined ? items.length : had !== json)
        writes.push({ user_id: user.id, sent_at: now.toISOString(), seen: json });
      if (fresh.length && !baseline) mails.push({ to: user.email!, ...digestMail(publicUrl, user.name, fresh) });
    }
    // The page's new and changed states in one statement (atomic alone: no transaction, one round trip).
    // A run started elsewhere at the same moment (the app's start) may have written a row meanwhile: the later one wins.
    if (writes.length)
      await db
        .insertInto("todo_digest_state")
        .values(writes)
        .onConflict((oc) =>
          oc.column("user_id").doUpdateSet((eb) => ({ sent_at: eb.ref("excluded.sent_at"), seen: eb.ref("excluded.seen") })),
        )
        .execute();
    for (const m of mails) {
      await mailer.send(m);
      sent++;
    }
  }
  return sent;
}

export async function scheduleDigest(
  queue: TaskQueue,
  deps: { db: Db; policy: Policy; mailer: Mailer; publicUrl: string; log: (msg: string) => void },
) {
  await queue.every(DIGEST_TASK, 86400, async () => {
    const n = await sendDigests(deps.db, deps.policy, deps.mailer, deps.publicUrl);
    if (n) deps.log(`每日待办邮件：已发送 ${n} 封`);
  });
}
