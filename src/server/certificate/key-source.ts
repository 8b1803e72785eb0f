/**
 * Where this process finds the certificate signing private key (config.certificates):
 * CERT_SIGNING_KEY (PEM in the environment), else the key file — CERT_SIGNING_KEY_FILE or
 * <DATA_DIR>/keys/certificate-signing.pem. The database holds public keys only.
 *
 * buildApp registers its configuration (startSigningKeys, key-migration.ts) and removes it
 * when the app closes; the newest registered one is the primary source (where a first key
 * is written). A process that signs without an app (the demo seed before the server
 * starts) uses loadConfig()'s. Several apps in one process (tests) each find their key.
 */
import { DomainError } from "../../shared/errors";
import { loadConfig, type Config } from "../config";
import { parseKey, pendingFile, readKeyFile, type SigningKey } from "./key-file";

export type KeySource = Config["certificates"];

const registered: KeySource[] = [];

/** Registers an app's key source; returns its removal. */
export function registerKeySource(source: KeySource): () => void {
  registered.push(source);
  return () => {
    const i = registered.lastIndexOf(source);
    if (i >= 0) registered.splice(i, 1);
  };
}

/** The registered sources, newest first (loadConfig()'s when none is). */
export const configuredSources = (): KeySource[] => (registered.length ? [...registered].reverse() : [loadConfig().certificates]);

/** CERT_SIGNING_KEY's key, when set. */
export const envKey = (s: KeySource): SigningKey | null =>
  s.signingKey ? parseKey(s.signingKey, "环境变量 CERT_SIGNING_KEY ") : null;

/** Every private key a source offers: the environment's, the key file's, a pending rotation's. */
export function availableKeys(s: KeySource): SigningKey[] {
  const keys: SigningKey[] = [];
  const env = envKey(s);
  if (env) keys.push(env);
  for (const f of [s.signingKeyFile, pendingFile(s.signingKeyFile)]) {
    const k = readKeyFile(f);
    if (k) keys.push(k);
  }
  return keys;
}

/** The private key of `id` among the sources, or null. */
export function findKey(sources: readonly KeySource[], id: string): SigningKey | null {
  for (const s of sources) for (const k of availableKeys(s)) if (k.id === id) return k;
  return null;
}

/** What to do when the published active key has no private key here (Chinese, for people). */
export const keyMissingAdvice = (s: KeySource, id: string) =>
  `请把持有该密钥的机器上的密钥文件复制到 ${s.signingKeyFile}（权限 0600），或用 CERT_SIGNING_KEY_FILE 指向该文件、用 CERT_SIGNING_KEY 提供该私钥，然后重试。` +
  `多台机器共用一个数据库时，每台都须能读到同一个密钥（编号 ${id}）。`;

/**
 * Signing refused: the database's active key (published, in use) has no private key here.
 * A new key is never made in its place: that would leave two machines signing with
 * different keys, or invalidate what was printed with the lost one.
 */
export const keyUnavailable = (s: KeySource, id: string) =>
  new DomainError(503, `证书签名密钥不可用：现用签名密钥（编号 ${id}）的私钥不在本机，无法签发证书。${keyMissingAdvice(s, id)}`);
