/** Public certificate routes (see src/shared/certificate/schema.ts). */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { CertificateCheck, CertificateKey, VerifyQuery } from "../../shared/certificate/schema";
import type { Db } from "../db";
import { perAddress } from "../plugins/limits";
import { publicKeys } from "./signing";
import { checkCertificate } from "./verify";

const tags = ["证书"];

export function certificateRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get("/Backend/Certificate/verify", {
    schema: { tags, summary: "核验证书：编号 + 持证人姓名（可附验证码），或编号 + 验证码（证书二维码，无需姓名）；未知编号、姓名不符、验证码不符的回答相同", querystring: VerifyQuery, response: { 200: Envelope(CertificateCheck) } },
    config: { access: "public", limits: [perAddress("certificate-verify", 30)] },
  }, async (req) => ({ error: 0, info: "成功", data: await checkCertificate(db, req.query) }));
  r.get("/Backend/Certificate/keys", {
    schema: { tags, summary: "证书签名公钥（历来使用的全部公钥及有效期）", response: { 200: Envelope(Type.Array(CertificateKey)) } },
    config: { access: "public" },
  }, async () => ({ error: 0, info: "成功", data: await publicKeys(db) }));
}
