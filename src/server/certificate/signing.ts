/**
 * Certificate signatures: Ed25519 through node:crypto.
 *
 * - The signing key lives in the database (certificate_key, `active` = 1) so every process
 *   on every machine signs with the same key; it is generated on first use. CERT_SIGNING_KEY
 *   (a PEM PKCS#8 Ed25519 private key) may supply it instead: it is recorded (public part
 *   only) and made the active key.
 * - rotateKey: a new key valid from now; the old one gets valid_to and stays published, so
 *   the certificates it signed keep verifying.
 * - The signature covers canonical() of src/shared/certificate/signed-facts.ts (the one
 *   builder the browser checks with too): the printed number, version, holder name, award,
 *   work title, contest name and date. The code is `<key id>.<base64url signature>`.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import { canonical, parseCode, type SignedFacts } from "../../shared/certificate/signed-facts";
import type { Handle } from "../work/repository";

/** The key id: the first 12 hex digits of the SHA-256 of the public key (DER). */
export const keyId = (pub: KeyObject) =>
  createHash("sha256")
    .update(pub.export({ type: "spki", format: "der" }))
    .digest("hex")
    .slice(0, 12);

export interface SigningKey {
  id: string;
  privateKey: KeyObject;
}

async function insertActive(db: Handle, priv: KeyObject, storePrivate: boolean, now: Date) {
  const pub = createPublicKey(priv);
  const id = keyId(pub);
  await db
    .insertInto("certificate_key")
    .values({
      id,
      public_key: pub.export({ type: "spki", format: "pem" }).toString(),
      private_key: storePrivate ? priv.export({ type: "pkcs8", format: "pem" }).toString() : null,
      active: 1,
      valid_from: now.toISOString(),
      valid_to: null,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The active signing key, created on first use (from CERT_SIGNING_KEY when set). */
export async function signingKey(
  db: Handle,
  env: string | undefined = process.env.CERT_SIGNING_KEY,
  now = new Date(),
): Promise<SigningKey> {
  if (env) {
    const priv = createPrivateKey(env);
    const id = keyId(createPublicKey(priv));
    const active = await db.selectFrom("certificate_key").select("id").where("active", "=", 1).executeTakeFirst();
    if (active?.id !== id) {
      if (active)
        await db
          .updateTable("certificate_key")
          .set({ active: null, valid_to: now.toISOString() })
          .where("id", "=", active.id)
          .execute();
      const known = await db.selectFrom("certificate_key").select("id").where("id", "=", id).executeTakeFirst();
      if (known) await db.updateTable("certificate_key").set({ active: 1, valid_to: null }).where("id", "=", id).execute();
      else await insertActive(db, priv, false, now);
    }
    return { id, privateKey: priv };
  }
  let row = await db.selectFrom("certificate_key").select(["id", "private_key"]).where("active", "=", 1).executeTakeFirst();
  if (!row) {
    // At most one active key (unique index): a concurrent first use keeps the other's key.
    await insertActive(db, generateKeyPairSync("ed25519").privateKey, true, now);
    row = await db.selectFrom("certificate_key").select(["id", "private_key"]).where("active", "=", 1).executeTakeFirstOrThrow();
  }
  if (!row.private_key) throw new Error("证书签名密钥来自环境变量 CERT_SIGNING_KEY，但当前进程没有设置它");
  return { id: row.id, privateKey: createPrivateKey(row.private_key) };
}

/** A new signing key valid from now; the previous one's validity ends now (it stays published). */
export async function rotateKey(db: Handle, now = new Date()): Promise<string> {
  await db.updateTable("certificate_key").set({ active: null, valid_to: now.toISOString() }).where("active", "=", 1).execute();
  const priv = generateKeyPairSync("ed25519").privateKey;
  await insertActive(db, priv, true, now);
  return keyId(createPublicKey(priv));
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
