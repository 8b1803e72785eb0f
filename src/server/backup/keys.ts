/**
 * The certificate signing key and backups (certificate/signing.ts): a backup never holds a
 * private key, and says which key signs and where its private key must come from.
 *
 * - SQLite: the snapshot's certificate_key.private_key is set to null with secure_delete on
 *   (the old bytes are overwritten, not left in free pages) before it is described, so even
 *   a database of an older version that still held its key gives a clean backup.
 * - PostgreSQL: pg_dump cannot leave a column out, so a snapshot that still holds a private
 *   key (a database no new server has started on yet, or a key-file conflict that start
 *   reported) is refused before pg_dump runs, saying what to do.
 * - The manifest records the active key id; `npm run restore` compares it with the key this
 *   machine is configured with (checkRestoredKey).
 */
import { sql } from "kysely";
import type { Dialect } from "../db";
import { envKey, type KeySource } from "../certificate/key-source";
import { readKeyFile, type SigningKey } from "../certificate/key-file";
import { listTables, type AnyDb } from "./tables";

export const KEY_SOURCE_TEXT =
  "证书签名私钥不在备份中（备份只含公钥）。恢复后签发证书所用的私钥须来自：环境变量 CERT_SIGNING_KEY，" +
  "或 CERT_SIGNING_KEY_FILE 指向的密钥文件，或数据目录（DATA_DIR）下的 keys/certificate-signing.pem；请另行妥善备份该密钥文件。";

export interface KeyNote {
  /** the active signing key's id in the snapshot (null: no certificate signed yet) */
  activeKeyId: string | null;
  privateKeyIncluded: false;
  /** where the private key must come from on restore (Chinese) */
  restore: string;
}

const hasKeyTable = async (db: AnyDb, dialect: Dialect) => (await listTables(db, dialect)).includes("certificate_key");

/** Empties private_key in a SQLite snapshot (never the live database). */
export async function scrubSqliteSnapshot(snap: AnyDb): Promise<void> {
  if (!(await hasKeyTable(snap, "sqlite"))) return;
  await sql`PRAGMA secure_delete = ON`.execute(snap);
  await sql`update certificate_key set private_key = null where private_key is not null`.execute(snap);
}

/** Refuses a PostgreSQL snapshot that still holds a private key. */
export async function refusePrivateKeys(trx: AnyDb): Promise<void> {
  if (!(await hasKeyTable(trx, "postgres"))) return;
  const r = await sql<{ id: string }>`select id from certificate_key where private_key is not null limit 1`.execute(trx);
  if (r.rows.length)
    throw new Error(
      `数据库中仍存有证书签名私钥（编号 ${r.rows[0].id}），备份不能包含私钥，未生成备份。` +
        "请先用本版本启动一次服务：启动时私钥会写入密钥文件并从数据库删除；若启动日志报告密钥文件与数据库中的密钥不同，请先按提示处理。",
    );
}

export async function keyNote(db: AnyDb, dialect: Dialect): Promise<KeyNote> {
  let activeKeyId: string | null = null;
  if (await hasKeyTable(db, dialect))
    activeKeyId = (await sql<{ id: string }>`select id from certificate_key where active = 1`.execute(db)).rows[0]?.id ?? null;
  return { activeKeyId, privateKeyIncluded: false, restore: KEY_SOURCE_TEXT };
}

export interface KeyCheck {
  /** none: no key published yet; ok; missing: no private key configured here (a warning); mismatch: another key (an error) */
  status: "none" | "ok" | "missing" | "mismatch";
  activeKeyId: string | null;
  configuredKeyId: string | null;
  /** one Chinese paragraph for the operator */
  message: string;
}

/** Compares the restored database's active key with the key this machine is configured with. */
export async function checkRestoredKey(db: AnyDb, dialect: Dialect, source: KeySource): Promise<KeyCheck> {
  const { activeKeyId } = await keyNote(db, dialect);
  const where = source.signingKey
    ? "环境变量 CERT_SIGNING_KEY"
    : `${source.signingKeyFileSet ? "CERT_SIGNING_KEY_FILE 指向的" : ""}密钥文件 ${source.signingKeyFile}`;
  let key: SigningKey | null;
  try {
    key = envKey(source) ?? readKeyFile(source.signingKeyFile);
  } catch (e) {
    return { status: "mismatch", activeKeyId, configuredKeyId: null, message: `证书签名密钥无法读取：${(e as Error).message}` };
  }
  const configuredKeyId = key?.id ?? null;
  if (!activeKeyId)
    return { status: "none", activeKeyId, configuredKeyId, message: "备份中还没有证书签名密钥（尚未签发证书），无需核对密钥" };
  if (!key)
    return {
      status: "missing",
      activeKeyId,
      configuredKeyId,
      message:
        `警告：备份中的现用证书签名密钥编号为 ${activeKeyId}，本机没有它的私钥（未设置 CERT_SIGNING_KEY，${where} 不存在）。` +
        `数据已恢复，已发证书仍可核验；在签发新证书之前，请把原服务器的密钥文件复制到 ${source.signingKeyFile}（权限 0600），` +
        "或设置 CERT_SIGNING_KEY_FILE / CERT_SIGNING_KEY 提供该私钥，否则签发会被拒绝。",
    };
  if (key.id === activeKeyId)
    return {
      status: "ok",
      activeKeyId,
      configuredKeyId,
      message: `证书签名密钥核对一致：${where} 中的密钥就是备份中的现用密钥（编号 ${activeKeyId}）`,
    };
  return {
    status: "mismatch",
    activeKeyId,
    configuredKeyId,
    message:
      `证书签名密钥不一致：备份中的现用密钥编号为 ${activeKeyId}，${where} 中的密钥编号为 ${key.id}。` +
      (source.signingKey
        ? "服务启动后将改用 CERT_SIGNING_KEY 中的密钥签发新证书（原密钥的公钥仍公布，已发证书仍可核验）；如非有意，请把 CERT_SIGNING_KEY 改为原密钥。"
        : `服务将拒绝签发证书。请换上原服务器的密钥文件（编号 ${activeKeyId}）；确要改用新密钥时，先恢复原密钥，再做密钥轮换。`),
  };
}
