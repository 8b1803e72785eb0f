/**
 * The certificate signing private key out of the database (issue 28, item 10): without
 * CERT_SIGNING_KEY the key lives in <DATA_DIR>/keys/certificate-signing.pem (0600, created
 * at first use, exclusively across processes), certificate_key keeps public keys only, a
 * legacy database's key is moved out at start, a missing key refuses signing (no new key),
 * rotation replaces the file, backups carry no private key and restore checks the key.
 */
import { execFile } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app";
import { main } from "../../src/server/backup/cli";
import { createBackup } from "../../src/server/backup/backup";
import type { Manifest } from "../../src/server/backup/format";
import { keyId, readKeyFile } from "../../src/server/certificate/key-file";
import { rotateKey } from "../../src/server/certificate/signing";
import { createScratchPgDatabase } from "../../src/server/db/scratch-pg";
import { LocalBlobStore } from "../../src/server/storage/local";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { publishedContest, type Fixture } from "./complaints-fixtures";

const V = "/Backend/Certificate/verify";
const run = promisify(execFile);
const pemOf = () => generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();

/** Every file under a directory, recursively. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );

describe.each(DIALECTS)("certificate signing key on %s", (dialect) => {
  let t: TestApp;
  let f: Fixture;
  let file: string;
  let firstId: string;
  const work = mkdtempSync(join(tmpdir(), "saiwu-certkey-"));
  const cleanups: (() => Promise<void>)[] = [];
  const visitor = () => new Client(t);
  const keyRows = () => t.db.selectFrom("certificate_key").selectAll().orderBy("valid_from").orderBy("id").execute();
  const validCerts = () => t.db.selectFrom("certificate").selectAll().where("status", "=", "valid").orderBy("id").execute();
  /** A second app instance (another process) on the same database and data directory. */
  const secondApp = async () => {
    const app = await buildApp({ db: t.db, dialect, config: t.config, logger: false });
    await app.ready();
    return app;
  };
  const rename = (c: Client, userId: number, name: string) => c.req("PATCH", `/Backend/Admin/user/${userId}`, { name });

  beforeAll(async () => {
    t = await makeApp(dialect);
    file = t.config.certificates.signingKeyFile;
    f = await publishedContest(t);
  }, 120_000);
  afterAll(async () => {
    for (const c of cleanups) await c();
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("issuing without CERT_SIGNING_KEY writes the key to a 0600 file under DATA_DIR and none to the database", async () => {
    expect(file).toBe(join(t.config.dataDir, "keys", "certificate-signing.pem"));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    const rows = await keyRows();
    expect(rows).toHaveLength(1);
    expect(rows.map((r) => r.private_key)).toEqual([null]);
    firstId = readKeyFile(file)!.id;
    expect(rows[0]).toMatchObject({ id: firstId, active: 1 });
    const certs = await validCerts();
    expect(certs.length).toBeGreaterThan(0);
    for (const c of certs) expect(c.key_id).toBe(firstId);
    const c = certs[0];
    const v = await visitor().get(`${V}?${new URLSearchParams({ number: c.number, name: c.holder_name, code: c.signature })}`);
    expect(v.body.data).toMatchObject({ status: "valid", signature: "valid" });
  });

  it("processes creating the key file at once end with one key: one writes it, the others read it", async () => {
    const race = join(work, `race-${dialect}`, "k.pem");
    const script = `const m = await import(${JSON.stringify(join(process.cwd(), "src/server/certificate/key-file.ts"))});
      const { generateKeyPairSync } = await import("node:crypto");
      const k = m.createKeyFile(process.argv[1], generateKeyPairSync("ed25519").privateKey);
      console.log(JSON.stringify({ id: k.id, created: k.created }));`;
    const outs = await Promise.all(
      Array.from({ length: 6 }, () => run(process.execPath, ["--input-type=module", "-e", script, race])),
    );
    const got = outs.map((o) => JSON.parse(o.stdout) as { id: string; created: boolean });
    expect(new Set(got.map((g) => g.id)).size).toBe(1);
    expect(got.filter((g) => g.created)).toHaveLength(1);
    expect(readKeyFile(race)!.id).toBe(got[0].id);
    expect(readdirSync(dirname(race))).toEqual(["k.pem"]);
  });

  it("a second app instance on the same data directory signs with the same key", async () => {
    const app2 = await secondApp();
    try {
      const c = new Client({ ...t, app: app2 });
      c.cookie = f.root.cookie;
      const holder = (await validCerts())[0];
      const r = await rename(c, holder.holder_user_id!, "第二实例姓名");
      expect(r.body.error, r.body.info).toBe(0);
      const fresh = (await validCerts()).find((x) => x.holder_name === "第二实例姓名")!;
      expect(fresh.key_id).toBe(firstId);
      expect((await keyRows()).map((k) => k.id)).toEqual([firstId]);
    } finally {
      await app2.close();
    }
  });

  it("a missing key file with a published active key refuses signing in Chinese and makes no new key", async () => {
    const saved = readFileSync(file, "utf8");
    rmSync(file);
    try {
      const holder = (await validCerts())[0];
      const r = await rename(f.root, holder.holder_user_id!, "无密钥时姓名");
      expect(r.status).toBe(503);
      expect(r.body.info).toContain("证书签名密钥不可用");
      expect(r.body.info).toContain(firstId);
      expect(r.body.info).toContain("CERT_SIGNING_KEY_FILE");
      expect(r.body.info).toContain(file);
      expect(existsSync(file)).toBe(false);
      expect((await keyRows()).map((k) => [k.id, k.active])).toEqual([[firstId, 1]]);
      expect((await validCerts()).some((x) => x.holder_name === "无密钥时姓名")).toBe(false);
    } finally {
      writeFileSync(file, saved, { mode: 0o600 });
    }
  });

  it("a database of an older version holding its private key is migrated at start: file written, column emptied, old codes verify", async () => {
    const pem = readFileSync(file, "utf8");
    // An older version's rows: the active key's private key and a retired key's in the table.
    const retired = generateKeyPairSync("ed25519");
    await t.db
      .insertInto("certificate_key")
      .values({
        id: keyId(retired.publicKey),
        public_key: retired.publicKey.export({ type: "spki", format: "pem" }).toString(),
        private_key: retired.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        active: null,
        valid_from: "2020-01-01T00:00:00.000Z",
        valid_to: "2021-01-01T00:00:00.000Z",
      })
      .execute();
    await t.db.updateTable("certificate_key").set({ private_key: pem }).where("id", "=", firstId).execute();
    rmSync(file);
    const app2 = await secondApp();
    await app2.close();
    expect(readKeyFile(file)!.id).toBe(firstId);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await keyRows()).map((r) => r.private_key)).toEqual([null, null]);
    const c = (await validCerts())[0];
    const v = await visitor().get(`${V}?${new URLSearchParams({ number: c.number, name: c.holder_name, code: c.signature })}`);
    expect(v.body.data).toMatchObject({ status: "valid", signature: "valid" });
    await t.db.deleteFrom("certificate_key").where("active", "is", null).execute();
  });

  it("at start, a key file holding another key is kept and the database's key is not removed", async () => {
    const pem = readFileSync(file, "utf8");
    await t.db.updateTable("certificate_key").set({ private_key: pem }).where("id", "=", firstId).execute();
    writeFileSync(file, pemOf(), { mode: 0o600 });
    try {
      const app2 = await secondApp();
      await app2.close();
      expect(readKeyFile(file)!.id).not.toBe(firstId);
      expect((await keyRows()).find((r) => r.id === firstId)!.private_key).toBe(pem);
    } finally {
      writeFileSync(file, pem, { mode: 0o600 });
      const app3 = await secondApp();
      await app3.close();
    }
    expect((await keyRows()).map((r) => r.private_key)).toEqual([null]);
  });

  it("a backup holds no private key, even of a database that still has one, and names the key and its sources", async () => {
    const pem = readFileSync(file, "utf8");
    const store = new LocalBlobStore(t.config.storage.blobDir);
    if (dialect === "postgres") {
      // pg_dump cannot leave the column out: a database still holding a key is refused.
      await t.db.updateTable("certificate_key").set({ private_key: pem }).where("id", "=", firstId).execute();
      await expect(createBackup({ databaseUrl: t.config.databaseUrl, store, out: join(work, "refused") })).rejects.toThrow(
        /仍存有证书签名私钥/,
      );
      expect(existsSync(join(work, "refused"))).toBe(false);
      await t.db.updateTable("certificate_key").set({ private_key: null }).execute();
    } else await t.db.updateTable("certificate_key").set({ private_key: pem }).where("id", "=", firstId).execute();
    const out = join(work, `backup-${dialect}`);
    const lines: string[] = [];
    const env = {
      DATABASE_URL: t.config.databaseUrl,
      BLOB_DIR: t.config.storage.blobDir,
      DATA_DIR: t.config.dataDir,
      LOG_LEVEL: "silent",
    };
    expect(await main(["backup", "--out", out], env, (l) => lines.push(l))).toBe(0);
    const body = pem.split("\n")[1];
    for (const p of filesUnder(out)) {
      const bytes = readFileSync(p);
      expect(bytes.includes("PRIVATE KEY"), p).toBe(false);
      expect(bytes.includes(body), p).toBe(false);
    }
    expect(lines.join("\n")).toContain(`现用证书签名密钥编号 ${firstId}`);
    const m: Manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
    expect(m.signingKey).toMatchObject({ activeKeyId: firstId, privateKeyIncluded: false });
    expect(m.signingKey!.restore).toContain("CERT_SIGNING_KEY_FILE");
    expect(m.signingKey!.restore).toContain("keys/certificate-signing.pem");
    // The live database is left as it was (a backup never writes it).
    if (dialect === "sqlite") {
      expect((await keyRows())[0].private_key).toBe(pem);
      await t.db.updateTable("certificate_key").set({ private_key: null }).execute();
    }
  }, 120_000);

  it("restore checks the configured key against the backup's active key: same key ok, another key exit 1, none a warning", async () => {
    const from = join(work, `backup-${dialect}`);
    const restore = async (extra: Record<string, string>) => {
      const dir = mkdtempSync(join(work, "target-"));
      let url = `file:${join(dir, "restored.db")}`;
      if (dialect === "postgres") {
        const pg = await createScratchPgDatabase(process.env.TEST_DATABASE_URL!, "saiwu_k");
        url = pg.url;
        cleanups.push(pg.drop);
      }
      const env = { DATABASE_URL: url, BLOB_DIR: join(dir, "blobs"), DATA_DIR: dir, LOG_LEVEL: "silent", ...extra };
      const lines: string[] = [];
      const code = await main(["restore", "--from", from], env, (l) => lines.push(l));
      return { code, text: lines.join("\n") };
    };
    const same = await restore({ CERT_SIGNING_KEY_FILE: file });
    expect(same.code, same.text).toBe(0);
    expect(same.text).toContain(`证书签名密钥核对一致`);
    expect(same.text).toContain("恢复完成并已核对");

    const other = join(work, `other-${dialect}.pem`);
    writeFileSync(other, pemOf(), { mode: 0o600 });
    const wrong = await restore({ CERT_SIGNING_KEY_FILE: other });
    expect(wrong.code).toBe(1);
    expect(wrong.text).toContain(`证书签名密钥不一致：备份中的现用密钥编号为 ${firstId}`);
    expect(wrong.text).toContain("恢复完成并已核对");

    const none = await restore({});
    expect(none.code, none.text).toBe(0);
    expect(none.text).toContain(`警告：备份中的现用证书签名密钥编号为 ${firstId}，本机没有它的私钥`);
  }, 120_000);

  it("rotation writes the new key to the file after its row is in; the old key stays published and nothing private is stored", async () => {
    const newId = await rotateKey(t.db, t.config.certificates);
    expect(newId).not.toBe(firstId);
    expect(readKeyFile(file)!.id).toBe(newId);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dirname(file))).toEqual(["certificate-signing.pem"]);
    const rows = await keyRows();
    expect(rows.map((r) => [r.id, r.active, r.private_key])).toEqual([
      [firstId, null, null],
      [newId, 1, null],
    ]);
    const keys = await visitor().get("/Backend/Certificate/keys");
    expect(keys.body.data.map((k: { id: string }) => k.id)).toEqual([firstId, newId]);
    const holder = (await validCerts())[0];
    const r = await rename(f.root, holder.holder_user_id!, "轮换后姓名");
    expect(r.body.error, r.body.info).toBe(0);
    expect((await validCerts()).find((x) => x.holder_name === "轮换后姓名")!.key_id).toBe(newId);
  });
});
