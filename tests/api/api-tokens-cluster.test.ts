/**
 * API tokens across two server processes on one PostgreSQL database: a token warmed in
 * B's read cache stops working on B once its creator is locked, or the token revoked, on A
 * (api_token and app_user are announced with the commit, db/change-bus.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, startCluster, within, type Cluster } from "../../support/cluster";

const T = "/Backend/Common/account/api-tokens";
const U = "/Backend/Admin/user";
const inDays = (d: number) => new Date(Date.now() + d * 86400_000).toISOString();

describe.skipIf(!process.env.TEST_DATABASE_URL)("API tokens across two processes on PostgreSQL", () => {
  let c: Cluster;
  let A: string;
  let B: string;
  beforeAll(async () => {
    c = await startCluster(2);
    [A, B] = c.procs.map((p) => p.url);
  }, 120_000);
  afterAll(async () => c?.close());

  const onB = (secret: string) => new HttpClient(B).req("GET", U, undefined, { authorization: `Bearer ${secret}` });
  const tokenOnA = async (name: string) => {
    const h = new HttpClient(A);
    await h.login("school_admin");
    const r = await h.post(T, { name, readOnly: true, resources: ["api.users"], expiresAt: inDays(5) });
    expect(r.status, r.body.info).toBe(201);
    const secret = r.body.data.secret as string;
    for (let i = 0; i < 3; i++) expect((await onB(secret)).status).toBe(200);
    return { h, secret, id: r.body.data.token.id as number };
  };

  it("refuses on B a token whose creator was locked on A", async () => {
    const { secret } = await tokenOnA("锁定");
    const root = new HttpClient(A);
    await root.login("root");
    const adminId = (
      await c.db.selectFrom("app_user").select("id").where("username", "=", "school_admin").executeTakeFirstOrThrow()
    ).id;
    expect((await root.post(`${U}/${adminId}/lock`)).status).toBe(200);
    await within(1000, async () => (await onB(secret)).status === 401);
    expect((await root.post(`${U}/${adminId}/unlock`)).status).toBe(200);
    await within(1000, async () => (await onB(secret)).status === 200);
  });

  it("refuses on B a token revoked on A", async () => {
    const { h, secret, id } = await tokenOnA("吊销");
    expect((await h.req("DELETE", `${T}/${id}`)).status).toBe(200);
    await within(1000, async () => (await onB(secret)).status === 401);
  });
});
