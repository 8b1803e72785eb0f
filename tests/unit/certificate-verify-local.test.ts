/**
 * The browser's signature check (src/client/certificate/verify-local.ts) on Node's WebCrypto,
 * against codes signed by the server's signFacts with key pairs made by node:crypto.
 */
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keyId, signFacts } from "../../src/server/certificate/signing";
import type { SignedFacts } from "../../src/shared/certificate/signed-facts";
import { describeCheck, parsePastedKeys, verifyLocally } from "../../src/client/certificate/verify-local";

const facts: SignedFacts = {
  number: "2026-ZJ-1-000007",
  version: 1,
  holderName: "欧阳䶮𠮷",
  awardName: "一等奖",
  workTitle: "基于大模型的课堂问答助教",
  contestName: "2026 年（第 19 届）中国大学生计算机设计大赛浙江省级赛",
  contestDate: "2026-07-20",
};

function pair(validFrom = "2026-01-01T00:00:00.000Z", validTo: string | null = null) {
  const privateKey = generateKeyPairSync("ed25519").privateKey;
  const pub = createPublicKey(privateKey);
  const id = keyId(pub);
  return {
    signing: { id, privateKey },
    published: { id, publicKey: pub.export({ type: "spki", format: "pem" }).toString(), validFrom, validTo },
  };
}

describe("verifyLocally (WebCrypto Ed25519)", () => {
  const a = pair("2026-01-01T00:00:00.000Z", "2026-06-01T00:00:00.000Z");
  const b = pair("2026-06-01T00:00:00.000Z");
  const keys = [a.published, b.published];

  it("accepts the code of the facts and names the key and its validity", async () => {
    const code = signFacts(b.signing, facts);
    const c = await verifyLocally(facts, code, keys);
    expect(c).toEqual({ result: "valid", key: b.published });
    expect(describeCheck(c)).toBe(`签名已在本机核验：由 ${b.signing.id} 公钥签发（有效期 2026-06-01 起至今）`);
    // An older key's code still verifies (rotation keeps every key published).
    expect(await verifyLocally(facts, signFacts(a.signing, facts), keys)).toMatchObject({
      result: "valid",
      key: { id: a.signing.id, validTo: "2026-06-01T00:00:00.000Z" },
    });
    // A copy typed from the paper: spaces and widths differ, the number in lower case.
    expect(
      (
        await verifyLocally(
          { ...facts, number: "2026-zj-1-000007", contestName: "2026年（第19届）中国大学生计算机设计大赛浙江省级赛" },
          code,
          keys,
        )
      ).result,
    ).toBe("valid");
  });

  it("refuses one character of the name changed", async () => {
    const code = signFacts(b.signing, facts);
    const c = await verifyLocally({ ...facts, holderName: "欧阳䶮吉" }, code, keys);
    expect(c).toEqual({ result: "invalid", reason: "mismatch", keyId: b.signing.id });
    expect(describeCheck(c)).toBe("签名不符：证书内容被改动或为伪造");
    expect((await verifyLocally({ ...facts, version: 2 }, code, keys)).result).toBe("invalid");
  });

  it("refuses a signature by another key: unpublished, or passed off under a published key's id", async () => {
    const c = pair();
    const forged = signFacts(c.signing, facts);
    expect(await verifyLocally(facts, forged, keys)).toEqual({ result: "invalid", reason: "unknown_key", keyId: c.signing.id });
    const relabelled = `${b.signing.id}.${forged.split(".")[1]}`;
    expect(await verifyLocally(facts, relabelled, keys)).toEqual({ result: "invalid", reason: "mismatch", keyId: b.signing.id });
    // A list that names the forger's key with a published id is not believed (the id is the key's hash).
    expect((await verifyLocally(facts, relabelled, [{ ...c.published, id: b.signing.id }])).result).toBe("invalid");
  });

  it("refuses a code that is not of the form <key id>.<signature>, and one character changed in the signature", async () => {
    const code = signFacts(b.signing, facts);
    expect(await verifyLocally(facts, code.slice(0, -1), keys)).toEqual({ result: "invalid", reason: "format" });
    const i = 20;
    const tampered = code.slice(0, 13 + i) + (code[13 + i] === "A" ? "B" : "A") + code.slice(14 + i);
    expect((await verifyLocally(facts, tampered, keys)).result).toBe("invalid");
  });

  it("reads pasted keys: the published JSON (bare or in the envelope) or PEM blocks, deriving the id", async () => {
    const code = signFacts(a.signing, facts);
    expect(await parsePastedKeys(JSON.stringify(keys))).toEqual(keys);
    expect(await parsePastedKeys(JSON.stringify({ error: 0, info: "成功", data: keys }))).toEqual(keys);
    const pem = await parsePastedKeys(`说明\n${a.published.publicKey}`);
    expect(pem.map((k) => k.id)).toEqual([a.signing.id]);
    expect((await verifyLocally(facts, code, pem)).result).toBe("valid");
    await expect(parsePastedKeys("随便写的")).rejects.toThrow("PEM 公钥");
  });
});
