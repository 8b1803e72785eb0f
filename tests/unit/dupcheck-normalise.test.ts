/**
 * Normalisation (per-character table, then the fast traditional → simplified conversion of
 * ./simplify.ts): the output must be exactly what opencc-js's converter gives after the
 * per-character step, on simplified, traditional and mixed texts.
 */
import { Converter } from "opencc-js/t2cn";
import { describe, expect, it } from "vitest";
import { normalise } from "../../src/server/dupcheck/normalise";
import { CorpusGenerator } from "../../bench/dupcheck-corpus";

const conv = Converter({ from: "tw", to: "cn" });
/** The reference: each code point NFKC-normalised, lower-cased, letters and digits kept; then the converter always, per character where a phrase changes the length. */
function reference(text: string): string {
  let kept = "";
  for (const ch of text) for (const c of ch.normalize("NFKC").toLowerCase()) if (/^[\p{L}\p{N}]$/u.test(c)) kept += c;
  const whole = conv(kept);
  if (whole.length === kept.length) return whole;
  let out = "";
  for (const ch of kept) {
    const c = conv(ch);
    out += c.length === ch.length ? c : ch;
  }
  return out;
}

describe("normalise with the fast converter", () => {
  const g = new CorpusGenerator(3);
  const simplified = Array.from({ length: 20 }, () => g.paragraph(2, 200));
  const traditional = [
    "這個系統採用了資料庫與網路伺服器的架構，實現了學生競賽作品的管理。",
    "軟體設計：使用者介面與後臺程式",
    "記憶體、硬碟、滑鼠與鍵盤",
  ];
  const mixed = [
    "本作品基于深度学习，實現了图像识别；ＡＢＣ１２３，①②③。",
    "Hello, 世界！這是 mixed 文本 with 数字 ２０２６ 和 emoji 😀 以及𠮷字。",
    "　全角空格　和\n换行\t制表",
  ];
  it("gives what always converting gives", () => {
    for (const t of [...simplified, ...traditional, ...mixed]) expect(normalise(t).text).toBe(reference(t));
  });
  it("converts traditional characters and leaves simplified text alone", () => {
    expect(normalise("這個系統").text).toBe("这个系统");
    expect(normalise("資料庫與網路").text).toBe(reference("資料庫與網路"));
    expect(normalise("资料库与网络").text).toBe("资料库与网络");
  });
  it("keeps the offset map in step with the text", () => {
    for (const t of mixed) {
      const n = normalise(t);
      expect(n.starts.length).toBe(n.text.length);
      expect(n.ends.length).toBe(n.text.length);
    }
  });
});
