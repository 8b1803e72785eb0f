/**
 * Certificates through the API, on the published Jiangsu result of the complaints fixture
 * (w[0] 一等奖, w[1] 二等奖): issue on publication, idempotent re-issue, public verification
 * without enumeration and with the code, reissue after a name correction and a complaint's
 * change of award (same number, version + 1, old version replaced), revocation after a
 * disqualification and a withdrawn publication, numbering under concurrency, key rotation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { insertUser } from "./judging-fixtures";
import { login } from "./works-fixtures";
import { A, F, M, publishedContest, TEXT, type Fixture } from "./complaints-fixtures";
import { syncCertificates } from "../../src/server/certificate/issue";
import { nextNumbers } from "../../src/server/certificate/numbering";
import { generateKeyPairSync } from "node:crypto";
import { rotateKey, signingKey } from "../../src/server/certificate/signing";

const V = "/Backend/Certificate/verify";

describe.each(DIALECTS)("certificates on %s", (dialect) => {
  let t: TestApp;
  let f: Fixture;
  const visitor = () => new Client(t);
  const certs = (workId: number) =>
    t.db
      .selectFrom("certificate")
      .selectAll()
      .where("work_id", "=", workId)
      .orderBy("holder_user_id")
      .orderBy("version")
      .execute();
  const authorCount = async (workId: number) =>
    (await t.db.selectFrom("work_author").select("id").where("work_id", "=", workId).execute()).length;
  const verify = (q: Record<string, string>) => visitor().get(`${V}?${new URLSearchParams(q)}`);

  beforeAll(async () => {
    t = await makeApp(dialect);
    f = await publishedContest(t);
  });
  afterAll(async () => t?.close());

  it("publication issued one certificate per author of every awarded work, numbered by contest code and award rank", async () => {
    const c0 = await certs(f.w[0]);
    const c1 = await certs(f.w[1]);
    expect(c0).toHaveLength(await authorCount(f.w[0]));
    expect(c1).toHaveLength(await authorCount(f.w[1]));
    expect(await certs(f.w[2])).toHaveLength(0);
    for (const c of c0)
      expect(c).toMatchObject({
        number: expect.stringMatching(/^2026-JS-1-\d{6}$/),
        version: 1,
        status: "valid",
        award_name: "一等奖",
        holder_kind: "author",
      });
    for (const c of c1) expect(c.number).toMatch(/^2026-JS-2-\d{6}$/);
    const numbers = [...c0, ...c1].map((c) => c.number);
    expect(new Set(numbers).size).toBe(numbers.length);
    // The printed (and signed) date is the day of publication in Beijing time.
    const pub = await t.db
      .selectFrom("result_publication")
      .select("published_at")
      .where("contest_id", "=", f.js)
      .executeTakeFirstOrThrow();
    expect(c0[0].contest_date).toBe(new Date(Date.parse(pub.published_at) + 8 * 3600_000).toISOString().slice(0, 10));
  });

  it("re-running the issue issues nothing new", async () => {
    const before = (await t.db.selectFrom("certificate").select("id").execute()).length;
    const out = await t.db.transaction().execute((trx) => syncCertificates(trx, f.js));
    expect(out).toEqual({ issued: 0, reissued: 0, revoked: 0 });
    expect((await t.db.selectFrom("certificate").select("id").execute()).length).toBe(before);
  });

  it("verify: valid with the facts; an unknown number and a wrong name get the same answer; the code checks the signature", async () => {
    const [c] = await certs(f.w[0]);
    const ok = await verify({ number: c.number, name: c.holder_name });
    expect(ok.body).toMatchObject({
      error: 0,
      data: {
        status: "valid",
        statusText: "有效",
        signature: null,
        certificate: { number: c.number, holderName: c.holder_name, awardName: "一等奖", workId: f.w[0], code: c.signature },
      },
    });
    const wrongName = await verify({ number: c.number, name: `${c.holder_name}甲` });
    const unknown = await verify({ number: "2026-JS-1-999999", name: c.holder_name });
    expect(wrongName.status).toBe(unknown.status);
    expect(wrongName.body).toEqual(unknown.body);
    expect(unknown.body.data).toMatchObject({ status: "not_found", certificate: null });
    expect((await verify({ number: c.number, name: c.holder_name, code: c.signature })).body.data.signature).toBe("valid");
    // One character changed in the code's signature part.
    const i = c.signature.length - 5;
    const forged = c.signature.slice(0, i) + (c.signature[i] === "A" ? "B" : "A") + c.signature.slice(i + 1);
    expect((await verify({ number: c.number, name: c.holder_name, code: forged })).body.data.signature).toBe("invalid");
    // Bounded input.
    expect((await verify({ number: "x".repeat(41), name: "王" })).status).toBe(422);
  });

  it("verify from the QR code: number + code without the name finds the certificate; a code changed in one character is not_found like an unknown number; neither name nor code is a 400", async () => {
    const [c] = await certs(f.w[0]);
    const qr = await verify({ number: c.number, code: c.signature });
    expect(qr.body).toMatchObject({
      error: 0,
      data: {
        status: "valid",
        signature: "valid",
        certificate: {
          number: c.number,
          version: 1,
          holderName: c.holder_name,
          awardName: "一等奖",
          workTitle: c.work_title,
          code: c.signature,
        },
      },
    });
    // Decision: without a name the code is what identifies the certificate, so a code that signs
    // none of the number's versions is the same not_found as an unknown number (no enumeration);
    // with the name (above) the certificate is found and the changed code is signature "invalid".
    const i = c.signature.length - 5;
    const tampered = c.signature.slice(0, i) + (c.signature[i] === "A" ? "B" : "A") + c.signature.slice(i + 1);
    const refused = await verify({ number: c.number, code: tampered });
    const unknown = await verify({ number: "2026-JS-1-999999", code: c.signature });
    expect(refused.body).toEqual({
      error: 0,
      info: "成功",
      data: expect.objectContaining({ status: "not_found", certificate: null }),
    });
    expect(refused.body).toEqual(unknown.body);
    const none = await verify({ number: c.number, name: " " });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 400, info: "请填写持证人姓名，或使用证书二维码中的验证码" });
  });

  it("a name correction by root reissues under the same number with version 2; the old version verifies as replaced", async () => {
    const [c] = await certs(f.w[0]);
    // Root corrects the name through the users admin; the reissue happens in that transaction.
    const fixed = await f.root.req("PATCH", `/Backend/Admin/user/${c.holder_user_id}`, { name: "更正后姓名" });
    expect(fixed.body.error, fixed.body.info).toBe(0);
    expect(await t.db.transaction().execute((trx) => syncCertificates(trx, f.js))).toEqual({
      issued: 0,
      reissued: 0,
      revoked: 0,
    });
    const versions = (await certs(f.w[0])).filter((x) => x.number === c.number);
    expect(versions.map((v) => [v.version, v.status, v.holder_name])).toEqual([
      [1, "replaced", c.holder_name],
      [2, "valid", "更正后姓名"],
    ]);
    expect((await verify({ number: c.number, name: c.holder_name })).body.data).toMatchObject({
      status: "replaced",
      latestVersion: 2,
      certificate: { version: 1 },
    });
    expect((await verify({ number: c.number, name: "更正后姓名", code: versions[1].signature })).body.data).toMatchObject({
      status: "valid",
      signature: "valid",
      certificate: { version: 2 },
    });
    // The old paper's QR code (no name): the replaced version, with the latest version's number.
    expect((await verify({ number: c.number, code: versions[0].signature })).body.data).toMatchObject({
      status: "replaced",
      statusText: "已被新版本替换",
      latestVersion: 2,
      signature: "valid",
      statusAt: expect.any(String),
      certificate: { version: 1, holderName: c.holder_name },
    });
  });

  it("a holder cannot rename themselves on their profile (the signed name is corrected by an admin)", async () => {
    const [c] = (await certs(f.w[0])).filter((x) => x.status === "valid");
    const holder = await t.db
      .selectFrom("app_user")
      .select(["username", "name"])
      .where("id", "=", c.holder_user_id!)
      .executeTakeFirstOrThrow();
    const me = await login(t, holder.username);
    const r = await me.req("PATCH", "/Backend/Common/profile", { name: "自己改的名" });
    expect(r.body).toEqual({
      error: 400,
      info: "您已获得证书，姓名不能自行修改；如需更正，请联系学校管理员或赛事管理员（证书将以原编号重新签发）",
    });
    expect(
      (await t.db.selectFrom("app_user").select("name").where("id", "=", c.holder_user_id!).executeTakeFirstOrThrow()).name,
    ).toBe(holder.name);
    // Other fields stay the holder's own.
    expect((await me.req("PATCH", "/Backend/Common/profile", { phone: "13800000000" })).body.error).toBe(0);
  });

  it("a complaint's change of award reissues every author's certificate with the new award (same numbers)", async () => {
    await insertUser(t, { username: "cert_cp", name: "投诉人", role: 100, school: "苏州大学" });
    const c = await login(t, "cert_cp");
    const filed = await c.post(`${F}/mine`, { type: "complaint", workId: f.w[1], category: "plagiarism", text: TEXT });
    expect(filed.body.error, filed.body.info).toBe(0);
    const id = filed.body.data.id as number;
    await f.reviewer.post(`${M}/complaints/${id}/accept`, {});
    await f.reviewer.post(`${M}/complaints/${id}/opinion`, {
      outcome: "partly_upheld",
      action: "change_award",
      awardLevelId: f.award.get("三等奖"),
      text: "<p>建议调整为三等奖</p>",
    });
    const before = await certs(f.w[1]);
    const d = await f.admin.post(`${M}/complaints/${id}/decision`, {
      outcome: "partly_upheld",
      action: "change_award",
      awardLevelId: f.award.get("三等奖"),
      text: "<p>部分成立，奖项调整为三等奖</p>",
    });
    expect(d.body.error, d.body.info).toBe(0);
    const after = await certs(f.w[1]);
    expect(after).toHaveLength(before.length * 2);
    for (const b of before) {
      const v = after.filter((x) => x.number === b.number);
      expect(v.map((x) => [x.version, x.status, x.award_name])).toEqual([
        [1, "replaced", "二等奖"],
        [2, "valid", "三等奖"],
      ]);
    }
  });

  it("a disqualification through the works transition revokes the work's certificates (kept, verifiable as revoked)", async () => {
    const before = await certs(f.w[1]);
    const dq = await f.root.post(`/Backend/Admin/work/${f.w[1]}/disqualify`, { reason: "抄袭属实" });
    expect(dq.body.error, dq.body.info).toBe(0);
    const after = await certs(f.w[1]);
    expect(after).toHaveLength(before.length);
    const current = after.filter((x) => x.version === 2);
    for (const c of current)
      expect(c).toMatchObject({ status: "revoked", status_reason: "disqualified", status_at: expect.any(String) });
    const r = await verify({ number: current[0].number, name: current[0].holder_name });
    expect(r.body.data).toMatchObject({
      status: "revoked",
      statusText: "已撤销",
      reason: "disqualified",
      reasonText: "作品被取消资格",
      statusAt: expect.any(String),
    });
  });

  it("numbering under concurrent issuing gives no duplicates", async () => {
    const got = (
      await Promise.all(Array.from({ length: 12 }, () => t.db.transaction().execute((trx) => nextNumbers(trx, "2026-JS-9", 2))))
    ).flat();
    expect(new Set(got).size).toBe(24);
    expect(got.sort()[0]).toBe("2026-JS-9-000001");
    expect(got.sort()[23]).toBe("2026-JS-9-000024");
  });

  it("after a key rotation both keys are published and old and new codes verify", async () => {
    const [old] = (await certs(f.w[0])).filter((x) => x.status === "valid");
    await rotateKey(t.db, t.config.certificates);
    const other = (await certs(f.w[0])).find((x) => x.status === "valid" && x.holder_user_id !== old.holder_user_id);
    if (other) {
      await t.db.updateTable("app_user").set({ name: "轮换后姓名" }).where("id", "=", other.holder_user_id!).execute();
    } else {
      await t.db.updateTable("app_user").set({ name: "轮换后姓名" }).where("id", "=", old.holder_user_id!).execute();
    }
    await t.db.transaction().execute((trx) => syncCertificates(trx, f.js));
    const fresh = (await certs(f.w[0])).find((x) => x.holder_name === "轮换后姓名" && x.status === "valid")!;
    expect(fresh.key_id).not.toBe(old.key_id);
    const keys = await visitor().get("/Backend/Certificate/keys");
    expect(keys.body.data).toHaveLength(2);
    expect(keys.body.data[0]).toMatchObject({ id: old.key_id, validTo: expect.any(String) });
    expect(keys.body.data[1]).toMatchObject({ id: fresh.key_id, validTo: null });
    if (other)
      expect((await verify({ number: old.number, name: old.holder_name, code: old.signature })).body.data).toMatchObject({
        status: "valid",
        signature: "valid",
      });
    expect((await verify({ number: fresh.number, name: "轮换后姓名", code: fresh.signature })).body.data).toMatchObject({
      status: "valid",
      signature: "valid",
    });
  });

  it("withdrawing the publication revokes the remaining valid certificates (result_withdrawn)", async () => {
    const r = await f.cadmin.post(`${A}/${f.js}/results/unpublish`, { reason: "发布有误，撤回" });
    expect(r.body.error, r.body.info).toBe(0);
    const rows = await t.db
      .selectFrom("certificate")
      .select(["status", "status_reason"])
      .where("contest_id", "=", f.js)
      .execute();
    expect(rows.filter((x) => x.status === "valid")).toHaveLength(0);
    expect(rows.some((x) => x.status_reason === "result_withdrawn")).toBe(true);
  });

  it("publishing again reissues the revoked certificates under their numbers (version + 1); the disqualified work stays revoked", async () => {
    const before = await t.db
      .selectFrom("certificate")
      .selectAll()
      .where("contest_id", "=", f.js)
      .where("work_id", "=", f.w[0])
      .orderBy("version", "desc")
      .execute();
    expect((await f.cadmin.post(`${A}/${f.js}/results/compute`, {})).body.error).toBe(0);
    const r = await f.cadmin.post(`${A}/${f.js}/results/publish`, { confirmIncomplete: true });
    expect(r.body.error, r.body.info).toBe(0);
    const numbers = [...new Set(before.map((c) => c.number))];
    for (const n of numbers) {
      const v = await t.db
        .selectFrom("certificate")
        .select(["version", "status"])
        .where("number", "=", n)
        .orderBy("version", "desc")
        .execute();
      expect(v[0].status).toBe("valid");
      expect(v[1].status).toBe("revoked");
    }
    expect((await certs(f.w[1])).filter((c) => c.status === "valid")).toHaveLength(0);
  });

  it("a complaint decided with disqualification revokes the work's certificates (disqualified) in the decision's transaction", async () => {
    await insertUser(t, { username: "cert_cp2", name: "投诉人二", role: 100, school: "苏州大学" });
    const c = await login(t, "cert_cp2");
    const filed = await c.post(`${F}/mine`, { type: "complaint", workId: f.w[0], category: "plagiarism", text: TEXT });
    expect(filed.body.error, filed.body.info).toBe(0);
    const id = filed.body.data.id as number;
    await f.reviewer.post(`${M}/complaints/${id}/accept`, {});
    await f.reviewer.post(`${M}/complaints/${id}/opinion`, {
      outcome: "upheld",
      action: "disqualify",
      text: "<p>抄袭属实，建议取消资格</p>",
    });
    expect((await certs(f.w[0])).some((x) => x.status === "valid")).toBe(true);
    const d = await f.admin.post(`${M}/complaints/${id}/decision`, {
      outcome: "upheld",
      action: "disqualify",
      text: "<p>抄袭属实，取消作品资格</p>",
    });
    expect(d.body.error, d.body.info).toBe(0);
    const rows = await certs(f.w[0]);
    expect(rows.filter((x) => x.status === "valid")).toHaveLength(0);
    const newest = new Map(rows.map((x) => [x.number, x]));
    for (const x of newest.values()) expect(x).toMatchObject({ status: "revoked", status_reason: "disqualified" });
    const any = [...newest.values()][0];
    expect((await verify({ number: any.number, name: any.holder_name })).body.data).toMatchObject({
      status: "revoked",
      reasonText: "作品被取消资格",
    });
  });

  it("a first use from two transactions at once keeps one active key; CERT_SIGNING_KEY becomes the active key, its private part not stored", async () => {
    const active = await t.db.selectFrom("certificate_key").select("id").where("active", "=", 1).executeTakeFirstOrThrow();
    const both = await Promise.all([0, 1].map(() => t.db.transaction().execute((trx) => signingKey(trx, t.config.certificates))));
    expect(both.map((k) => k.id)).toEqual([active.id, active.id]);
    const pem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const env = await t.db.transaction().execute((trx) => signingKey(trx, { ...t.config.certificates, signingKey: pem }));
    const rows = await t.db.selectFrom("certificate_key").selectAll().orderBy("valid_from").orderBy("id").execute();
    expect(rows.find((r) => r.id === env.id)).toMatchObject({ active: 1, private_key: null, valid_to: null });
    expect(rows.find((r) => r.id === active.id)).toMatchObject({ active: null, valid_to: expect.any(String) });
    expect((await visitor().get("/Backend/Certificate/keys")).body.data.map((k: { id: string }) => k.id)).toContain(env.id);
  });

  it("verify is limited per address (429 past 30 a minute)", async () => {
    let status = 200;
    for (let i = 0; i < 32 && status !== 429; i++)
      status = (await verify({ number: `2026-JS-1-${String(i).padStart(6, "0")}`, name: "某人" })).status;
    expect(status).toBe(429);
  });
});
