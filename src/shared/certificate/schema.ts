/**
 * Certificates: the shapes of the public verification API, shared by server and browser.
 *
 *   GET /Backend/Certificate/verify?number=&name=[&code=]  public (limited per address)
 *   GET /Backend/Certificate/verify?number=&code=          (the printed QR code: no name)
 *       → CertificateCheck: valid / revoked (date, reason category) / replaced (with the
 *         latest version) with the certificate's facts, or not_found. An unknown number, a
 *         wrong name and — without a name — a code that is none of the number's versions'
 *         (e.g. one character changed) all get the same not_found answer. With a name and a
 *         code, the certificate is found by the name and `signature` says whether the code
 *         signs its facts ("invalid" for a changed code). Neither name nor code: 400.
 *         The facts include `code`, the version's own code, so the browser can check the
 *         signature itself with the published keys (src/shared/certificate/signed-facts.ts).
 *   GET /Backend/Certificate/keys                          public
 *       → CertificateKey[]: every public key ever used, with its validity period.
 *
 * Number scheme: src/server/certificate/numbering.ts (e.g. 2026-JS-1-000123).
 */
import { Type, type Static } from "typebox";

export const CERT_STATUS = ["valid", "revoked", "replaced", "not_found"] as const;
export const CERT_STATUS_NAMES: Record<(typeof CERT_STATUS)[number], string> = {
  valid: "有效",
  revoked: "已撤销",
  replaced: "已被新版本替换",
  not_found: "未找到该证书",
};
export const REVOKE_REASON_NAMES: Record<string, string> = {
  disqualified: "作品被取消资格",
  award_withdrawn: "奖项被撤销",
  result_withdrawn: "结果发布被撤回",
};

export const VerifyQuery = Type.Object({
  number: Type.String({ minLength: 1, maxLength: 40, title: "证书编号" }),
  /** required unless `code` is given */
  name: Type.Optional(Type.String({ maxLength: 50, title: "持证人姓名" })),
  code: Type.Optional(Type.String({ maxLength: 120, title: "验证码" })),
});
export type VerifyQuery = Static<typeof VerifyQuery>;

export const CertificateFacts = Type.Object({
  number: Type.String(),
  version: Type.Integer(),
  holderName: Type.String(),
  schoolName: Type.String(),
  workId: Type.Union([Type.Integer(), Type.Null()]),
  workTitle: Type.Union([Type.String(), Type.Null()]),
  categoryName: Type.Union([Type.String(), Type.Null()]),
  awardName: Type.String(),
  contestName: Type.String(),
  contestDate: Type.String(),
  issuedAt: Type.String(),
  keyId: Type.String(),
  /** this version's code `<key id>.<signature>` */
  code: Type.String(),
});
export type CertificateFacts = Static<typeof CertificateFacts>;

export const CertificateCheck = Type.Object({
  status: Type.Union([Type.Literal("valid"), Type.Literal("revoked"), Type.Literal("replaced"), Type.Literal("not_found")]),
  statusText: Type.String(),
  /** revoked/replaced: when */
  statusAt: Type.Union([Type.String(), Type.Null()]),
  /** revoked: disqualified | award_withdrawn | result_withdrawn */
  reason: Type.Union([Type.String(), Type.Null()]),
  reasonText: Type.Union([Type.String(), Type.Null()]),
  /** the current version of a replaced certificate */
  latestVersion: Type.Union([Type.Integer(), Type.Null()]),
  /** null: no code given */
  signature: Type.Union([Type.Literal("valid"), Type.Literal("invalid"), Type.Null()]),
  certificate: Type.Union([CertificateFacts, Type.Null()]),
});
export type CertificateCheck = Static<typeof CertificateCheck>;

export const CertificateKey = Type.Object({
  id: Type.String(),
  publicKey: Type.String(),
  validFrom: Type.String(),
  validTo: Type.Union([Type.String(), Type.Null()]),
});
export type CertificateKey = Static<typeof CertificateKey>;
