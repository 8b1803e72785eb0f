/**
 * At server start (buildApp → startSigningKeys): the key source is registered for the
 * app's life, private keys older versions kept in certificate_key are moved out, a key
 * rotation interrupted after its commit is finished, and a missing private key for the
 * active key is reported (signing would refuse).
 *
 * moveKeysOutOfDatabase, idempotent and safe with several processes starting at once:
 * - the active row's private key is written to the key file when there is none (exclusive
 *   create: a process that loses the race reads the same key), then private_key is set to
 *   null on every row — retired keys never sign again, their public parts stay published;
 * - a key file that already holds a different key is kept: the warning says so, and the
 *   active row's private key stays in the database (nothing is lost) until someone decides.
 */
import type { FastifyInstance } from "fastify";
import { existsSync } from "node:fs";
import type { Db } from "../db";
import { createKeyFile, finishRotation, parseKey, pendingFile, readKeyFile } from "./key-file";
import { findKey, keyMissingAdvice, registerKeySource, type KeySource } from "./key-source";

export interface KeyMove {
  /** id of the active key written to (or found in) the key file, null if none was moved */
  moved: string | null;
  /** id of a private key left in the database because the key file holds another key */
  kept: string | null;
  /** rows whose private key was removed */
  cleared: number;
}

export async function moveKeysOutOfDatabase(db: Db, source: KeySource, warn: (m: string) => void): Promise<KeyMove> {
  const rows = await db
    .selectFrom("certificate_key")
    .select(["id", "private_key", "active"])
    .where("private_key", "is not", null)
    .execute();
  const out: KeyMove = { moved: null, kept: null, cleared: 0 };
  if (!rows.length) return out;
  const active = rows.find((r) => r.active === 1);
  if (active) {
    const key = parseKey(active.private_key!, `数据库中的签名私钥（编号 ${active.id}）`);
    const inFile = createKeyFile(source.signingKeyFile, key.privateKey);
    if (inFile.id === key.id) out.moved = key.id;
    else {
      out.kept = active.id;
      warn(
        `证书签名密钥文件 ${source.signingKeyFile} 中的密钥（编号 ${inFile.id}）与数据库中的现用密钥（编号 ${active.id}）不同：` +
          "已保留该文件，数据库中的私钥暂不删除。请核对：若该文件放错了，移走它后重启服务（私钥会写入文件并从数据库删除）；" +
          "在此之前不能签发证书，PostgreSQL 上的备份也会被拒绝。",
      );
    }
  }
  let q = db.updateTable("certificate_key").set({ private_key: null }).where("private_key", "is not", null);
  if (out.kept) q = q.where("id", "!=", out.kept);
  const r = await q.executeTakeFirst();
  out.cleared = Number(r.numUpdatedRows);
  return out;
}

/** The startup work described above; registers the source until the app closes. */
export async function startSigningKeys(app: FastifyInstance, db: Db, source: KeySource): Promise<void> {
  const unregister = registerKeySource(source);
  app.addHook("onClose", async () => unregister());
  const warn = (m: string) => app.log.warn(m);
  const moved = await moveKeysOutOfDatabase(db, source, warn);
  if (moved.moved) app.log.info(`证书签名私钥（编号 ${moved.moved}）已移出数据库，保存在 ${source.signingKeyFile}`);
  const active = await db.selectFrom("certificate_key").select("id").where("active", "=", 1).executeTakeFirst();
  const pending = pendingFile(source.signingKeyFile);
  if (
    active &&
    existsSync(pending) &&
    readKeyFile(pending)?.id === active.id &&
    readKeyFile(source.signingKeyFile)?.id !== active.id
  ) {
    finishRotation(source.signingKeyFile);
    app.log.info(`已完成中断的证书签名密钥轮换：${pending} 已换入 ${source.signingKeyFile}`);
  }
  if (active && !source.signingKey && !findKey([source], active.id))
    warn(`证书签名密钥（编号 ${active.id}）的私钥不在本机，签发证书会被拒绝。${keyMissingAdvice(source, active.id)}`);
}
