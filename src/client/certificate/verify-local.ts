/**
 * The in-browser signature check of /verify-cert: a certificate's code against its facts with
 * the published public keys, through WebCrypto Ed25519 — no trust in the server's own answer.
 * The signed string is canonical() of src/shared/certificate/signed-facts.ts, the builder the
 * server signs with. A key is used only if its id is the SHA-256 of its key bytes (as the
 * server derives it), so a list with a mislabelled key cannot vouch for a code.
 */
import type { CertificateKey } from "../../shared/certificate/schema";
import { canonical, parseCode, pemToDer, type SignedFacts } from "../../shared/certificate/signed-facts";
import { fmtDate } from "../format";

export type LocalCheck =
  | { result: "valid"; key: CertificateKey }
  /** format: not `<12 hex>.<86 base64url>`; unknown_key: no published key has its id; mismatch: the facts are not what it signs */
  | { result: "invalid"; reason: "format" | "unknown_key" | "mismatch"; keyId?: string }
  /** no WebCrypto Ed25519 here (an old browser, or a page not served over HTTPS) */
  | { result: "unsupported" };

const hex = (b: ArrayBuffer) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");

export async function verifyLocally(
  facts: SignedFacts,
  code: string,
  keys: readonly CertificateKey[],
  subtle: SubtleCrypto | undefined = globalThis.crypto?.subtle,
): Promise<LocalCheck> {
  const parsed = parseCode(code);
  if (!parsed) return { result: "invalid", reason: "format" };
  if (!subtle) return { result: "unsupported" };
  const candidates = keys.filter((k) => k.id === parsed.keyId);
  for (const k of candidates) {
    let der: Uint8Array<ArrayBuffer>;
    try {
      der = pemToDer(k.publicKey);
    } catch {
      continue;
    }
    if (hex(await subtle.digest("SHA-256", der)).slice(0, 12) !== k.id) continue;
    let key: CryptoKey;
    try {
      key = await subtle.importKey("spki", der, { name: "Ed25519" }, false, ["verify"]);
    } catch (e) {
      if ((e as Error)?.name === "NotSupportedError") return { result: "unsupported" };
      continue;
    }
    const ok = await subtle.verify({ name: "Ed25519" }, key, parsed.signature, new TextEncoder().encode(canonical(facts)));
    return ok ? { result: "valid", key: k } : { result: "invalid", reason: "mismatch", keyId: k.id };
  }
  return { result: "invalid", reason: "unknown_key", keyId: parsed.keyId };
}

/** "2026-05-01 起至今" / "2026-05-01 至 2026-09-30" */
export function validity(k: Pick<CertificateKey, "validFrom" | "validTo">): string {
  const d = (iso: string) => fmtDate(iso);
  if (!k.validFrom) return "未注明";
  return k.validTo ? `${d(k.validFrom)} 至 ${d(k.validTo)}` : `${d(k.validFrom)} 起至今`;
}

/** The sentence shown for a check. */
export function describeCheck(c: LocalCheck): string {
  if (c.result === "valid") return `签名已在本机核验：由 ${c.key.id} 公钥签发（有效期 ${validity(c.key)}）`;
  if (c.result === "unsupported") return "本浏览器不支持在本机核验 Ed25519 签名（请使用较新的浏览器，并通过 HTTPS 打开本页）";
  return "签名不符：证书内容被改动或为伪造";
}

/** Why a check failed, in a second line. */
export function failureDetail(c: LocalCheck): string | null {
  if (c.result !== "invalid") return null;
  if (c.reason === "format") return "验证码格式不正确：应为 12 位密钥编号、一个点和 86 个字符的签名。";
  if (c.reason === "unknown_key") return `验证码所用的密钥 ${c.keyId} 不在平台公布的公钥中。`;
  return `验证码不是平台（密钥 ${c.keyId}）对这些证书内容的签名：请逐字核对编号、版本、姓名、奖项、作品名称、竞赛名称和日期。`;
}

/**
 * Keys pasted by the user for the offline check: the JSON of /.well-known/certificate-keys.json
 * or of GET /Backend/Certificate/keys (with its envelope), or PEM public keys (their id is
 * derived). Throws a Chinese message when nothing usable is found.
 */
export async function parsePastedKeys(
  text: string,
  subtle: SubtleCrypto | undefined = globalThis.crypto?.subtle,
): Promise<CertificateKey[]> {
  const t = text.trim();
  if (t.startsWith("{") || t.startsWith("[")) {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch {
      throw new Error("公钥内容不是有效的 JSON");
    }
    const list = Array.isArray(v) ? v : ((v as { data?: unknown; keys?: unknown })?.data ?? (v as { keys?: unknown })?.keys);
    if (!Array.isArray(list)) throw new Error("公钥 JSON 中没有公钥列表");
    const keys = list
      .filter((k): k is CertificateKey => !!k && typeof k.id === "string" && typeof k.publicKey === "string")
      .map((k) => ({ id: k.id, publicKey: k.publicKey, validFrom: String(k.validFrom ?? ""), validTo: k.validTo ?? null }));
    if (!keys.length) throw new Error("公钥 JSON 中没有公钥");
    return keys;
  }
  const pems = t.match(/-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g);
  if (!pems) throw new Error("请粘贴公钥列表的 JSON，或以 -----BEGIN PUBLIC KEY----- 开头的 PEM 公钥");
  if (!subtle) return [];
  const out: CertificateKey[] = [];
  for (const pem of pems) {
    try {
      out.push({
        id: hex(await subtle.digest("SHA-256", pemToDer(pem))).slice(0, 12),
        publicKey: pem,
        validFrom: "",
        validTo: null,
      });
    } catch {
      throw new Error("PEM 公钥无法读取");
    }
  }
  return out;
}
