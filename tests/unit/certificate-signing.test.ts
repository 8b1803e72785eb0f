/** Certificate signatures and numbers without a database round trip beyond an in-memory key. */
import { generateKeyPairSync, createPublicKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keyId, signFacts } from "../../src/server/certificate/signing";
import { canonical, decodeSignature, parseCode, type SignedFacts } from "../../src/shared/certificate/signed-facts";
import { formatNumber, numberPrefix } from "../../src/server/certificate/numbering";
import { verify } from "node:crypto";

const facts: SignedFacts = {
  number: "2026-JS-1-000123",
  version: 1,
  holderName: "王䶮𠮷",
  awardName: "一等奖",
  workTitle: "智慧校园",
  contestName: "2026 江苏省赛",
  contestDate: "2026-07-01",
};

describe("certificate signing", () => {
  const priv = generateKeyPairSync("ed25519").privateKey;
  const pub = createPublicKey(priv);
  const key = { id: keyId(pub), privateKey: priv };
  const check = (f: SignedFacts, code: string) =>
    verify(null, Buffer.from(canonical(f)), pub, Buffer.from(code.split(".")[1], "base64url"));

  it("a code is `<12 hex key id>.<86 base64url>` and verifies the facts it signed", () => {
    const code = signFacts(key, facts);
    expect(code).toMatch(/^[0-9a-f]{12}\.[A-Za-z0-9_-]{86}$/);
    expect(code.startsWith(key.id)).toBe(true);
    expect(check(facts, code)).toBe(true);
  });

  it("rejects a one-character change of any signed fact", () => {
    const code = signFacts(key, facts);
    expect(check({ ...facts, holderName: "王䶮吉" }, code)).toBe(false);
    expect(check({ ...facts, number: "2026-JS-1-000124" }, code)).toBe(false);
    expect(check({ ...facts, awardName: "二等奖" }, code)).toBe(false);
    expect(check({ ...facts, version: 2 }, code)).toBe(false);
    expect(check({ ...facts, workTitle: "智慧校圆" }, code)).toBe(false);
    expect(check({ ...facts, workTitle: null }, code)).toBe(false);
    expect(check({ ...facts, contestName: "2026 江苏省赛。" }, code)).toBe(false);
    expect(check({ ...facts, contestDate: "2026-07-02" }, code)).toBe(false);
  });

  it("covers exactly what is printed: the work id is not signed; white space, width and the number's case do not matter", () => {
    const code = signFacts(key, facts);
    expect(canonical(facts)).toBe('["2026-JS-1-000123",1,"王䶮𠮷","一等奖","智慧校园","2026江苏省赛","2026-07-01"]');
    expect(check({ ...facts, ...({ workId: 1 } as object) }, code)).toBe(true);
    // A copy typed from the paper: spaces of the typesetting left out or added, full-width digits, lower case number.
    expect(
      check(
        {
          ...facts,
          number: " 2026-js-1-000123",
          holderName: "王 䶮𠮷",
          workTitle: "智慧 校园 ",
          contestName: "２０２６江苏省赛",
        },
        code,
      ),
    ).toBe(true);
  });

  it("a code parses to its key id and 64 signature bytes, the same bytes as Node's base64url; a non-canonical last character is refused", () => {
    const code = signFacts(key, facts);
    const [id, sig] = code.split(".");
    expect(parseCode(code)).toEqual({ keyId: id, signature: new Uint8Array(Buffer.from(sig, "base64url")) });
    // 86 characters carry 516 bits: the last character's 4 spare bits must be zero.
    const last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".indexOf(sig[85]);
    const twin = sig.slice(0, 85) + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[last | 1];
    expect(Buffer.from(twin, "base64url").equals(Buffer.from(sig, "base64url"))).toBe(true);
    expect(decodeSignature(twin)).toBeNull();
    expect(parseCode(`${id}.${sig.slice(1)}`)).toBeNull();
    expect(parseCode(`${id.toUpperCase()}.${sig}`)).toBeNull();
  });

  it("the canonical string cannot be shifted between fields", () => {
    expect(canonical({ ...facts, holderName: "王", awardName: "一等奖|x" })).not.toBe(
      canonical({ ...facts, holderName: "王|一等奖", awardName: "x" }),
    );
  });
});

describe("certificate numbers", () => {
  it("contest code, award rank, six-digit sequence", () => {
    expect(formatNumber(numberPrefix({ id: 3, year: 2026, code: "2026-JS" }, 1), 123)).toBe("2026-JS-1-000123");
    expect(formatNumber(numberPrefix({ id: 3, year: 2026, code: null }, 4), 7)).toBe("2026-C3-4-000007");
    expect(formatNumber("2026-JS-2", 1234567)).toBe("2026-JS-2-1234567");
  });
});
