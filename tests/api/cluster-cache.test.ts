/**
 * Read caches across server processes (src/server/db/change-bus.ts): two real processes on
 * one PostgreSQL database. What one process changes — a logout, a lock, a password or role
 * change, a work's name — is refused or shown on the other within 1 s, with the other's
 * cache warmed first with the same session; and a process whose listening connection is
 * cut serves nothing from its caches until it listens again, and keeps running.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { HttpClient, startCluster, within, type Cluster } from "../../support/cluster";

const PASSWORD = "Demo@2026";

describe.skipIf(!process.env.TEST_DATABASE_URL)("read caches across two processes on PostgreSQL", () => {
  let c: Cluster;
  let A: string;
  let B: string;
  beforeAll(async () => {
    // B waits 3 s before listening again after its connection is cut, so the test can
    // observe what it serves meanwhile.
    c = await startCluster(2, { env: { LISTEN_RETRY_MS: "3000" } });
    [A, B] = c.procs.map((p) => p.url);
  }, 120_000);
  afterAll(async () => c?.close());

  const loggedIn = async (h: HttpClient) => {
    const r = await h.get("/Backend/Common/user/get-current");
    expect(r.status).toBe(200);
    return !r.body.data.needToLogin;
  };
  /** The same requests the checks below make, so B's caches hold the session (and its reads). */
  const warm = async (h: HttpClient, path = "/Backend/Common/user/get-current") => {
    for (let i = 0; i < 3; i++) expect((await h.get(path)).status).toBe(200);
  };
  const userId = async (username: string) =>
    (await c.db.selectFrom("app_user").select("id").where("username", "=", username).executeTakeFirstOrThrow()).id;
  const phoneOf = async (username: string) =>
    (await c.db.selectFrom("app_user").select("phone").where("username", "=", username).executeTakeFirstOrThrow()).phone;
  /** A write the user may make while signed in; refused (401) once the session is gone, and nothing changes. */
  const profileWriteRefused = async (h: HttpClient, username: string) => {
    const before = await phoneOf(username);
    const r = await h.patch("/Backend/Common/profile", { phone: "13912345678" });
    expect(r.status, r.body.info).toBe(401);
    expect(await phoneOf(username)).toBe(before);
  };
  const onB = async (username: string, page: "student" | "teacher" | "admin") => {
    const h = new HttpClient(B);
    await h.login(username, page);
    await warm(h);
    expect(await loggedIn(h)).toBe(true);
    return h;
  };
  const listenerOf = async (i: number) =>
    (
      await pgRun<{ pid: number }>(
        "select pid from pg_stat_activity where datname = current_database() and application_name = $1",
        [`saiwu-listen:${c.procs[i].proc!.pid}`],
      )
    ).map((r) => r.pid);
  const pgRun = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
    // A plain client: like psql, it announces nothing to the server processes.
    const client = new pg.Client({ connectionString: c.url });
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  };

  it("each process keeps one listening connection", async () => {
    expect(await listenerOf(0)).toHaveLength(1);
    expect(await listenerOf(1)).toHaveLength(1);
  });

  it("refuses on B a session logged out on A", async () => {
    const student = await onB("student", "student");
    // The same cookie, routed to A by the load balancer.
    expect((await student.on(A).post("/Backend/Common/account/logout")).body.error).toBe(0);
    await within(1000, async () => !(await loggedIn(student)));
    await profileWriteRefused(student, "student");
  });

  it("refuses on B, for reads and writes, the session of a user locked on A", async () => {
    const teacher = await onB("teacher", "teacher");
    const root = new HttpClient(A);
    await root.login("root");
    expect((await root.post(`/Backend/Admin/user/${await userId("teacher")}/lock`)).body.error).toBe(0);
    await within(1000, async () => !(await loggedIn(teacher)));
    expect((await teacher.get("/Backend/Common/profile")).status).toBe(401);
    await profileWriteRefused(teacher, "teacher");
  });

  it("ends on B the other sessions of a user who changes the password on A", async () => {
    const other = await onB("reviewer", "admin");
    const here = new HttpClient(A);
    await here.login("reviewer", "admin");
    await warm(here.on(B));
    const r = await here.post("/Backend/Common/account/security/password", {
      oldPassword: PASSWORD,
      newPassword: "Changed@2026x",
    });
    expect(r.body.error, r.body.info).toBe(0);
    await within(1000, async () => !(await loggedIn(other)));
    // The session that changed it stays, on either process.
    expect(await loggedIn(here.on(B))).toBe(true);
  });

  it("stops serving admin data on B to a contest admin whose role root changed on A", async () => {
    const works = "/Backend/Admin/work?pageSize=5";
    const admin = await onB("contest_admin", "admin");
    await warm(admin, works);
    const root = new HttpClient(A);
    await root.login("root");
    const r = await root.patch(`/Backend/Admin/user/${await userId("contest_admin")}`, {
      role: 2,
      schoolId: (await c.db.selectFrom("school").select("id").executeTakeFirstOrThrow()).id,
    });
    expect(r.body.error, r.body.info).toBe(0);
    await within(1000, async () => (await admin.get(works)).status === 403);
  });

  it("shows in a works list on B a work renamed on A", async () => {
    const student = new HttpClient(A);
    await student.login("student", "student");
    const mine = "/Backend/Work/work/mine?pageSize=50";
    const list = async (h: HttpClient) => (await h.get(mine)).body.data.list as { id: number; name: string; status: string }[];
    const draft = (await list(student)).find((w) => w.status === "draft" || w.status === "returned");
    expect(draft, "the demo student has a draft").toBeTruthy();
    await warm(student.on(B), mine);
    const { version } = (await student.get(`/Backend/Work/work/${draft!.id}`)).body.data as { version: number };
    const renamed = await student.patch(`/Backend/Work/work/${draft!.id}`, { version, name: "跨进程改名的作品" });
    expect(renamed.body.error, renamed.body.info).toBe(0);
    await within(1000, async () => (await list(student.on(B))).find((w) => w.id === draft!.id)?.name === "跨进程改名的作品");
  });

  it("serves nothing from cache on B while its listening connection is down, and recovers", async () => {
    const author = await onB("complaint_admin", "admin");
    const judge = await onB("judge", "admin");
    const [listener] = await listenerOf(1);
    expect(listener).toBeTruthy();
    expect((await pgRun<{ ok: boolean }>("select pg_terminate_backend($1) as ok", [listener]))[0].ok).toBe(true);
    await within(5000, async () => !(await listenerOf(1)).includes(listener));

    // B reads both sessions again now: had it cached them, the changes below would go unseen.
    await warm(author);
    await warm(judge);
    // A logout on A is announced while B does not listen: B still refuses the session at once.
    expect((await author.on(A).post("/Backend/Common/account/logout")).body.error).toBe(0);
    expect(await loggedIn(author)).toBe(false);
    // Even a change nobody announces (a direct write to the database) is seen at once.
    await pgRun("delete from user_session where user_id = $1", [await userId("judge")]);
    expect(await loggedIn(judge)).toBe(false);
    expect(await listenerOf(1), "B listens again only after LISTEN_RETRY_MS").toEqual([]);

    // B is alive, listens again, and caches and hears A again.
    expect(c.procs[1].alive).toBe(true);
    await within(15_000, async () => (await listenerOf(1)).length === 1);
    const arbitrator = await onB("arbitrator", "admin");
    expect((await arbitrator.on(A).post("/Backend/Common/account/logout")).body.error).toBe(0);
    await within(1000, async () => !(await loggedIn(arbitrator)));
    expect(c.procs[1].output).toContain("数据库变更监听连接中断");
    expect(c.procs[1].alive).toBe(true);
  }, 30_000);
});
