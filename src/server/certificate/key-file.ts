/**
 * The signing key file: one Ed25519 private key, PEM PKCS#8, mode 0600 in a directory made
 * 0700 (when this code creates it).
 *
 * - createKeyFile writes atomically and exclusively: the PEM goes to a temporary file (0600,
 *   fsync), which is then hard-linked to the final name. link() fails when the name exists,
 *   so of two processes on one machine creating the key at once exactly one wins, the file
 *   is never seen half written, and the loser reads the winner's key.
 * - The pending file `<file>.new` is a rotation under way (signing.ts rotateKey): written
 *   the same way before the new key's row is committed, renamed over the key file after.
 *   A rotation interrupted between the two is finished by finishRotation.
 */
import { createPrivateKey, createPublicKey, createHash, randomBytes, type KeyObject } from "node:crypto";
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";

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

export const pendingFile = (file: string) => `${file}.new`;

/** A private key from PEM text; `where` names its origin in the Chinese error. */
export function parseKey(pem: string, where: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw new Error(`${where}不是有效的 PEM 私钥`);
  }
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error(`${where}不是 Ed25519 私钥`);
  return { id: keyId(createPublicKey(privateKey)), privateKey };
}

/** The key in `file`, or null when there is no such file. */
export function readKeyFile(file: string): SigningKey | null {
  let pem: string;
  try {
    pem = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new Error(`无法读取证书签名密钥文件 ${file}：${(e as Error).message}`, { cause: e });
  }
  return parseKey(pem, `证书签名密钥文件 ${file} `);
}

const pemOf = (key: KeyObject) => key.export({ type: "pkcs8", format: "pem" }).toString();

function syncDir(dir: string) {
  let fd: number | null = null;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Not every file system lets a directory be synced; the file itself was.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * Writes `key` to `file` unless it exists; returns the key the file holds afterwards (ours,
 * or the one another process wrote first). `created` says whether ours was written.
 */
export function createKeyFile(file: string, key: KeyObject): SigningKey & { created: boolean } {
  const dir = dirname(file);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new Error(`无法创建证书签名密钥目录 ${dir}：${(e as Error).message}`, { cause: e });
  }
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  let created = false;
  try {
    const fd = openSync(tmp, "wx", 0o600);
    try {
      writeSync(fd, pemOf(key));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(tmp, file);
      created = true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  } catch (e) {
    throw new Error(`无法写入证书签名密钥文件 ${file}：${(e as Error).message}`, { cause: e });
  } finally {
    rmSync(tmp, { force: true });
  }
  if (created) syncDir(dir);
  const held = readKeyFile(file);
  if (!held) throw new Error(`证书签名密钥文件 ${file} 写入后不存在`);
  return { ...held, created };
}

/** Replaces the key file by the pending file (after the rotated key's row committed). */
export function finishRotation(file: string) {
  renameSync(pendingFile(file), file);
  syncDir(dirname(file));
}
