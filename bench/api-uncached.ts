/**
 * bench:api's uncached paths (issue 30): with every read cache off, one request at a time on
 * an idle server, the p99 of each list a deadline day reloads — the works lists of a contest
 * admin and root (first, middle and last pages), a school admin's and an author's own; the
 * to-do centre of a student, a school admin and a contest admin; the user list of root and a
 * school admin. The school admin is made for the school with the most generated works, the
 * author is the generated student with the most works (password Seed@2026).
 */
import type { Db } from "../src/server/db";
import { hashPassword } from "../src/server/account/password";
import { readCaches } from "../src/server/db/changes";
import { insertDemoUser } from "../src/server/seed/demo-helpers";
import { DEMO_PASSWORD } from "../src/server/seed/demo";
import { ROLE } from "../src/shared/roles";

export const UNCACHED_KEYS = ["adminWorks", "schoolWorks", "authorWorks", "todo", "users"] as const;
export type UncachedP99 = Record<(typeof UNCACHED_KEYS)[number], number>;

const REQUESTS = Number(process.env.UNCACHED_REQUESTS ?? 200);
const SEED_PASSWORD = "Seed@2026";

/** Logs in through the API; the session cookie. */
async function login(base: string, username: string, password: string, page: "admin" | "student") {
  const res = await fetch(`${base}/Backend/Common/account/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ username, password, page }),
  });
  if (res.status !== 200) throw new Error(`login ${username} failed: ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("saiwu_sid="))!;
}

/** The school with the most works gets a school admin; the student with the most works is the author. */
async function benchUsers(db: Db) {
  const school = await db
    .selectFrom("work")
    .select(["school_id", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy("school_id")
    .orderBy("n", "desc")
    .orderBy("school_id")
    .limit(1)
    .executeTakeFirstOrThrow();
  const name = "bench_school_admin";
  if (!(await db.selectFrom("app_user").select("id").where("username", "=", name).executeTakeFirst()))
    await insertDemoUser(
      db,
      { username: name, name: "压测校管", type: ROLE.schoolAdmin, schoolId: school.school_id },
      await hashPassword(DEMO_PASSWORD),
      new Date().toISOString(),
    );
  const author = await db
    .selectFrom("work_author")
    .innerJoin("app_user", "app_user.id", "work_author.user_id")
    .select(["app_user.username", (eb) => eb.fn.countAll<number>().as("n")])
    .where("app_user.username", "like", "gs%")
    .groupBy("app_user.username")
    .orderBy("n", "desc")
    .orderBy("app_user.username")
    .limit(1)
    .executeTakeFirstOrThrow();
  return { schoolAdmin: name, schoolWorks: Number(school.n), author: author.username, authorWorks: Number(author.n) };
}

/**
 * A fresh database's first start runs the daily to-do digest over every account (minutes at
 * this size): the one-at-a-time figures wait for it (at most 5 minutes), so they measure the
 * requests, not the digest beside them.
 */
async function scheduledTasksDone(db: Db, log: (m: string) => void) {
  for (let i = 0; i < 300; i++) {
    const running = await db.selectFrom("task_run").select("name").where("finished_at", "is", null).execute();
    if (!running.length) return;
    if (i % 30 === 0) log(`等待定时任务结束：${running.map((r) => r.name).join("、")}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const p99 = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] * 10) / 10;
};

/** Each key's requests, one at a time: REQUESTS per key, its URLs (and users) in turn. */
export async function measureUncached(base: string, db: Db, log: (m: string) => void): Promise<UncachedP99> {
  await scheduledTasksDone(db, log);
  const who = await benchUsers(db);
  log(`未缓存路径：学校 ${who.schoolWorks} 件作品（${who.schoolAdmin}），作者 ${who.author} 有 ${who.authorWorks} 件`);
  const cookies = {
    root: await login(base, "root", DEMO_PASSWORD, "admin"),
    contestAdmin: await login(base, "contest_admin", DEMO_PASSWORD, "admin"),
    schoolAdmin: await login(base, who.schoolAdmin, DEMO_PASSWORD, "admin"),
    author: await login(base, who.author, SEED_PASSWORD, "student"),
  };
  const names = new Map(Object.entries(cookies).map(([k, v]) => [v, k]));
  const get = async (cookie: string, path: string) => {
    const res = await fetch(`${base}${path}`, { headers: { cookie, "accept-encoding": "gzip, deflate, br" } });
    const body = (await res.json()) as { error: number; data: { total?: number } };
    if (res.status !== 200 || body.error !== 0) throw new Error(`${path}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    return body.data;
  };
  const W = "/Backend/Admin/work";
  const F = "status=submitted&status=school_approved";
  const lastPage = async (cookie: string, query: string) =>
    Math.max(1, Math.ceil(((await get(cookie, `${W}?${query}&pageSize=20`)).total ?? 0) / 20));
  const caLast = await lastPage(cookies.contestAdmin, F);
  const rootLast = await lastPage(cookies.root, "sort=-id");
  const plan: Record<keyof UncachedP99, [string, string][]> = {
    adminWorks: [
      [cookies.contestAdmin, `${W}?current=1&pageSize=20`],
      [cookies.contestAdmin, `${W}?${F}&sort=-submittedAt&current=3&pageSize=20`],
      [cookies.contestAdmin, `${W}?${F}&sort=name&current=${caLast}&pageSize=20`],
      [cookies.root, `${W}?current=1&pageSize=20`],
      [cookies.root, `${W}?sort=-submittedAt&current=${Math.ceil(rootLast / 2)}&pageSize=20`],
      [cookies.root, `${W}?sort=-id&current=${rootLast}&pageSize=20`],
    ],
    schoolWorks: [
      [cookies.schoolAdmin, `/Backend/School/work?current=1&pageSize=20`],
      [cookies.schoolAdmin, `/Backend/School/work?status=submitted&current=1&pageSize=20`],
      [cookies.schoolAdmin, `/Backend/School/work?sort=-updatedAt&current=3&pageSize=20`],
    ],
    authorWorks: [[cookies.author, `/Backend/Work/work/mine?current=1&pageSize=20`]],
    todo: [cookies.author, cookies.schoolAdmin, cookies.contestAdmin].map((c) => [c, "/Backend/UserCenter/todo"]),
    users: [
      [cookies.root, `/Backend/Admin/user?current=1&pageSize=20`],
      [cookies.root, `/Backend/Admin/user?userType=100&current=50&pageSize=20`],
      [cookies.schoolAdmin, `/Backend/Admin/user?current=1&pageSize=20`],
    ],
  };
  const was = readCaches.enabled;
  readCaches.enabled = false;
  try {
    const out = {} as UncachedP99;
    for (const key of UNCACHED_KEYS) {
      const urls = plan[key];
      for (const [cookie, path] of urls) await get(cookie, path); // warm-up: JIT, statement caches
      const times: number[] = [];
      const per = urls.map((): number[] => []);
      for (let i = 0; i < REQUESTS; i++) {
        const [cookie, path] = urls[i % urls.length];
        const t0 = performance.now();
        await get(cookie, path);
        const ms = performance.now() - t0;
        times.push(ms);
        per[i % urls.length].push(ms);
      }
      out[key] = p99(times);
      const each = urls.map(([cookie, path], i) => `${names.get(cookie)} ${path.replace(/^\/Backend\//, "")}：${p99(per[i])}`);
      log(`未缓存 ${key}：p99 ${out[key]} ms（${each.join("；")}）`);
    }
    return out;
  } finally {
    readCaches.enabled = was;
  }
}
