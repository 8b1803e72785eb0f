/**
 * The certificate API as /verify-cert and the authors' and teachers' pages use it.
 * Paths and shapes: src/shared/certificate/schema.ts (public verification) and
 * print-schema.ts (own certificates).
 */
import { useQuery } from "@tanstack/react-query";
import type { CertificateCheck, CertificateKey } from "../../shared/certificate/schema";
import type { MyCertificate } from "../../shared/certificate/print-schema";
import { request } from "../request";

export const KEYS_URL = "/Backend/Certificate/keys";
export const WELL_KNOWN_KEYS_URL = "/.well-known/certificate-keys.json";

/** The Chinese sentence for a failed verification request (the page shows it in place). */
export function verifyFailure(status: number, info: string): string {
  if (status === 429) return "查询过于频繁：同一网络短时间内查询次数过多，请稍等一分钟后再试。";
  if (status === 0) return "网络异常：无法连接服务器，请检查网络后重试。（「离线核验」在已打开本页时仍可使用。）";
  return info || "查询失败，请稍后再试。";
}

export type VerifyOutcome = { ok: true; check: CertificateCheck } | { ok: false; message: string };

export async function verifyCertificate(q: { number: string; name?: string; code?: string }): Promise<VerifyOutcome> {
  const reply = await request<CertificateCheck>("/Backend/Certificate/verify", {
    params: { number: q.number, name: q.name || undefined, code: q.code || undefined },
    notify: false,
    timeout: 20000,
  });
  if (reply.error === 0 && reply.data) return { ok: true, check: reply.data };
  return { ok: false, message: verifyFailure(reply.status, reply.info) };
}

export function useCertificateKeys() {
  return useQuery({
    queryKey: ["certificate", "keys"],
    queryFn: async () => {
      const reply = await request<CertificateKey[]>(KEYS_URL, { notify: false, timeout: 20000 });
      if (reply.error !== 0)
        throw new Error(reply.status === 0 ? "网络异常：无法获取签名公钥" : reply.info || "无法获取签名公钥");
      return reply.data ?? [];
    },
    staleTime: 10 * 60 * 1000,
  });
}

/**
 * The caller's own certificates (authors and teachers). A server without the route (404)
 * or a caller with none gives an empty list: the section is simply not shown.
 */
export function useMyCertificates() {
  return useQuery({
    queryKey: ["certificate", "mine"],
    queryFn: async () => {
      const reply = await request<MyCertificate[]>("/Backend/Certificate/mine", { notify: false });
      if (reply.status === 404) return [];
      if (reply.error !== 0) throw new Error(reply.info || "无法读取获奖证书");
      return reply.data ?? [];
    },
  });
}

/** A certificate's /verify-cert address as an in-app path (verifyUrl may carry the public origin). */
export function verifyPath(verifyUrl: string): string {
  try {
    const u = new URL(verifyUrl, window.location.origin);
    return `${u.pathname}${u.search}`;
  } catch {
    return verifyUrl;
  }
}
