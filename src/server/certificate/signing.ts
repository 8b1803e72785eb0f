/**
 * Certificate signatures: Ed25519 through node:crypto.
 *
 * - The private key never enters the database. It comes from CERT_SIGNING_KEY (PEM in the
 *   environment), else from a key file: CERT_SIGNING_KEY_FILE, or by default
 *   <DATA_DIR>/keys/certificate-signing.pem, created at first use with mode 0600 (atomically
 *   and exclusively: concurrent first uses on one machine end with one key; key-file.ts).
 *   Sources: key-source.ts, threaded from config.certificates.
 * - certificate_key holds the public keys (id, public key, active, validity): every key ever
 *   used stays published so what it signed keeps verifying. Its private_key column is always
 *   null; rows of older versions are emptied at server start once the key is in the file
 *   (key-migration.ts), and backups never carry one (backup/).
 * - The active key in the database is the one every process must sign with. A process that
 *   does not hold its private key refuses to sign (keyUnavailable, a Chinese 503 saying to
 *   copy the key file or set CERT_SIGNING_KEY_FILE) and never makes a new key in its place.
 *   Only a database without an active key gets a new one (the key file's, created if absent).
 * - CERT_SIGNING_KEY set: that key is recorded (public part) and made the active key.
 * - rotateKey: a new key valid from now, written to `<file>.new` first, its row committed,
 *   then the file replaced; the old key gets valid_to and stays published.
 * - Several machines on one database must share the key: the same CERT_SIGNING_KEY, or
 *   CERT_SIGNING_KEY_FILE pointing at a copy of the same file (docs/operations.md).
 * - The signature covers canonical() of src/shared/certificate/signed-facts.ts (the one
 *   builder the browser checks with too): the printed number, version, holder name, award,
 *   work title, contest name and date. The code is `<key id>.<base64url signature>`.
 */
import { createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import { rmSync } from "node:fs";
import { canonical, parseCode, type SignedFacts } from "../../shared/certificate/signed-facts";
import type { Db } from "../db";
import type { Handle } from "../work/repository";
import { createKeyFile, finishRotation, keyId, pendingFile, type SigningKey } from "./key-file";
import { configuredSources, envKey, findKey, keyUnavailable, type KeySource } from "./key-source";

export { keyId, type SigningKey };

async function insertActive(db: Handle, priv: KeyObject, now: Date) {
  const pub = createPublicKey(priv);
  await db
    .insertInto("certificate_key")
    .values({
      id: keyId(pub),
      public_key: pub.export({ type: "spki", format: "pem" }).toString(),
      private_key: null,
      active: 1,
      valid_from: now.toISOString(),
      valid_to: null,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

const activeId = async (db: Handle) =>
  (await db.selectFrom("certificate_key").select("id").where("active", "=", 1).executeTakeFirst())?.id ?? null;

/** CERT_SIGNING_KEY's key becomes the active one (the previous active key is retired, still published). */
async function activateEnvKey(db: Handle, key: SigningKey, now: Date): Promise<SigningKey> {
  const active = await activeId(db);
  if (active === key.id) return key;
  if (active)
    await db.updateTable("certificate_key").set({ active: null, valid_to: now.toISOString() }).where("id", "=", active).execute();
  const known = await db.selectFrom("certificate_key").select("id").where("id", "=", key.id).executeTakeFirst();
  if (known) await db.updateTable("certificate_key").set({ active: 1, valid_to: null }).where("id", "=", key.id).execute();
  else await insertActive(db, key.privateKey, now);
  return key;
}

/**
 * The key to sign with: the database's active key, whose private key must be available from
 * one of `sources` (newest first; default: the configured ones). Without an active key the
 * primary source's key file is used, created if absent, and its public key recorded.
 */
export async function signingKey(
  db: Handle,
  sources: KeySource | readonly KeySource[] = configuredSources(),
  now = new Date(),
): Promise<SigningKey> {
  const list: readonly KeySource[] = Array.isArray(sources) ? sources : [sources as KeySource];
  const primary = list[0];
  const env = envKey(primary);
  if (env) return activateEnvKey(db, env, now);
  let id = await activeId(db);
  if (!id) {
    const fresh = createKeyFile(primary.signingKeyFile, generateKeyPairSync("ed25519").privateKey);
    // At most one active key (unique index): a concurrent first use elsewhere may win.
    await insertActive(db, fresh.privateKey, now);
    id = await activeId(db);
    if (!id) {
      // The file's key is a retired one (no key active): it becomes the active key again.
      await db.updateTable("certificate_key").set({ active: 1, valid_to: null }).where("id", "=", fresh.id).execute();
      id = await activeId(db);
    }
    if (id === fresh.id) return fresh;
    if (!id) throw new Error("证书签名密钥未能登记");
  }
  const key = findKey(list, id);
  if (!key) throw keyUnavailable(primary, id);
  return key;
}

/**
 * A new signing key valid from now; the previous one's validity ends now (it stays
 * published). Runs its own transaction: the key file is replaced only once the new key's
 * row is committed (until then the new key waits in `<file>.new`, which also keeps two
 * rotations on one machine from running at once).
 */
export async function rotateKey(db: Db, source: KeySource = configuredSources()[0], now = new Date()): Promise<string> {
  if (source.signingKey)
    throw new Error("签名密钥来自环境变量 CERT_SIGNING_KEY：请在环境变量中换上新密钥后重启服务（原密钥的公钥仍会公布）");
  const pending = pendingFile(source.signingKeyFile);
  const key = createKeyFile(pending, generateKeyPairSync("ed25519").privateKey);
  if (!key.created)
    throw new Error(
      `另一次密钥轮换正在进行或曾中断：${pending} 已存在。若其中的密钥已是数据库中的现用密钥，重启服务即完成替换；否则确认没有轮换在进行后删除它再试`,
    );
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("certificate_key")
        .set({ active: null, valid_to: now.toISOString() })
        .where("active", "=", 1)
        .execute();
      await insertActive(trx, key.privateKey, now);
    });
  } catch (e) {
    rmSync(pending, { force: true });
    throw e;
  }
  finishRotation(source.signingKeyFile);
  return key.id;
}

export function signFacts(key: SigningKey, f: SignedFacts): string {
  return `${key.id}.${sign(null, Buffer.from(canonical(f)), key.privateKey).toString("base64url")}`;
}

/** Whether `code` is a signature of the facts by one of the published keys. */
export async function verifyCode(db: Handle, f: SignedFacts, code: string): Promise<boolean> {
  const c = parseCode(code);
  if (!c) return false;
  const key = await publicKeyById(db, c.keyId);
  return !!key && verify(null, Buffer.from(canonical(f)), key, c.signature);
}

/**
 * Public keys by id, parsed once per process: an id is the hash of its key (keyId), so the
 * key of a published id never changes. Unknown ids are looked up every time (a key created
 * by another process may appear).
 */
const publicKeyCache = new Map<string, KeyObject>();
async function publicKeyById(db: Handle, id: string): Promise<KeyObject | null> {
  const known = publicKeyCache.get(id);
  if (known) return known;
  const k = await db.selectFrom("certificate_key").select("public_key").where("id", "=", id).executeTakeFirst();
  if (!k) return null;
  const key = createPublicKey(k.public_key);
  if (keyId(key) !== id) return null;
  if (publicKeyCache.size < 1000) publicKeyCache.set(id, key);
  return key;
}

/** Every key ever used, oldest first. */
export async function publicKeys(db: Handle) {
  const rows = await db
    .selectFrom("certificate_key")
    .select(["id", "public_key", "valid_from", "valid_to"])
    .orderBy("valid_from")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ id: r.id, publicKey: r.public_key, validFrom: r.valid_from, validTo: r.valid_to }));
}
