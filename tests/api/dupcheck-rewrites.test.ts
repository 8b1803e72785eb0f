/**
 * Issue 29, through the API on both dialects: the duplicate check's list finds what its
 * comparison flags. Generated Chinese works (same-topic originals of the benchmark's corpus
 * generator) and copies with 20 % and 30 % of their characters substituted: each copy's check
 * (GET /DupCheck/work/:id) reports its original on top at the level the comparison
 * (GET /DupCheck/pair/:a/:b) gives, and on a sample of pairs the two agree on suspect-or-above.
 * The side by side view: two parts standing in opposite order on the two sides are two
 * passages, each reading the same on both sides; a passage with a small difference says so;
 * root and a contest admin see the same length for the same passage.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { catId, contestId, login } from "./works-fixtures";
import { D, plantWork, reindexAll } from "./dupcheck-fixtures";
import { rng } from "../../src/server/seed/generate";
import { normalise } from "../../src/server/dupcheck/normalise";
import { CorpusGenerator } from "../../bench/dupcheck-corpus";

/** Common characters a substitution draws from. */
const POOL =
  "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严龙飞";

/** `text` with `share` of its Chinese characters replaced by other ones (positions and characters seeded). */
function substitute(text: string, share: number, seed: number): string {
  const r = rng(seed);
  const chars = [...text];
  const cjk = chars.map((c, i) => (/\p{Script=Han}/u.test(c) ? i : -1)).filter((i) => i >= 0);
  for (let k = cjk.length - 1; k > 0; k--) {
    const j = r.int(0, k);
    [cjk[k], cjk[j]] = [cjk[j], cjk[k]];
  }
  for (const i of cjk.slice(0, Math.round(share * cjk.length))) {
    let c = chars[i];
    while (c === chars[i]) c = POOL[r.int(0, POOL.length - 1)];
    chars[i] = c;
  }
  return chars.join("");
}

/** Two parts of a text about the elderly-care app, shared by two works in opposite order. */
const PART_X =
  "社区养老服务预约小程序为行动不便的老年人提供助餐、助浴、理发和上门护理等服务的在线预约，子女也可以绑定家人账号代为下单。";
const PART_Y =
  "后台根据服务站点的人员排班和老人住址，按距离与技能匹配自动派单，并通过短信提醒服务人员按时上门，社区管理者能够查看需求分布。";
const FILLER_A = "项目组在三个街道开展了为期两个月的试点，累计完成服务订单一千二百余单，老人满意度较高。";
const FILLER_B = "我们的作品还提供了志愿者积分功能，鼓励大学生利用课余时间参与敬老服务，积分可以兑换学习用品。";

describe.each(DIALECTS)("duplicate check of substituted copies on %s", (dialect) => {
  let t: TestApp;
  let root: Client, cadmin: Client;
  let zj: number, js: number, soft: number;
  let serial = 0;
  const originals: number[] = [];
  const copies: { id: number; of: number; share: number }[] = [];
  const w: Record<string, number> = {};

  const plant = (name: string, contest: number, school: string, text: string) => {
    const n = ++serial;
    return plantWork(t, { serial: n, prefix: "rw", name, contest, categoryId: soft, school, text, authors: [`改写甲${n}`] });
  };
  const indexAll = (ids: number[]) => reindexAll(t, root, ids);

  beforeAll(async () => {
    t = await makeApp(dialect);
    [root, cadmin] = await Promise.all(["root", "contest_admin"].map((u) => login(t, u)));
    zj = await contestId(t, "2026-ZJ");
    js = await contestId(t, "2026-JS");
    soft = await catId(t, "软件应用与开发");
    // Three topics of four originals each (same-topic works share much of their vocabulary).
    const g = new CorpusGenerator(29);
    const texts: string[] = [];
    for (let topic = 0; topic < 3; topic++)
      for (let k = 0; k < 4; k++) {
        const text = g.original(topic, null);
        texts.push(text);
        originals.push(await plant(`原创${topic}-${k}`, zj, "浙江大学", text));
      }
    // One original of each topic and one more: copied with 20 % and with 30 % of the characters substituted.
    for (const [n, k] of [0, 4, 8, 9].entries())
      for (const share of [0.2, 0.3]) {
        const id = await plant(`改写${k}-${share * 100}`, zj, "宁波大学", substitute(texts[k], share, 100 * n + share * 10));
        copies.push({ id, of: originals[k], share });
      }
    // The two parts side by side, in opposite order (the second work's copy of PART_X has a word one character longer).
    w.xy = await plant("养老预约（甲）", zj, "浙江大学", PART_X + PART_Y + FILLER_A);
    w.yx = await plant("养老预约（乙）", js, "南京大学", PART_Y + PART_X.replace("老年人", "老年朋友") + FILLER_B);
    await indexAll([...originals, ...copies.map((c) => c.id), w.xy, w.yx]);
  });
  afterAll(async () => t?.close());

  it("finds every 20 % and 30 % substituted copy with its original on top, at the comparison's level", async () => {
    for (const c of copies) {
      const pair = (await root.get(`${D}/pair/${c.id}/${c.of}`)).body.data;
      expect(pair.level, `${c.share} copy ${c.id}: the comparison flags it`).not.toBe("none");
      const r = await root.get(`${D}/work/${c.id}?minSimilarity=0.05`);
      expect(r.status).toBe(200);
      const top = r.body.data.matches[0];
      expect(top, `${c.share} copy ${c.id} has a match`).toBeDefined();
      expect(top).toMatchObject({ workId: c.of, level: pair.level });
      expect(top.similarity).toBeCloseTo(pair.similarity, 6);
    }
  });

  it("agrees with the comparison on suspect-or-above over a sample of pairs", async () => {
    const ids = [...originals, ...copies.map((c) => c.id)];
    const r = rng(7);
    const pairs: [number, number][] = copies.map((c) => [c.of, c.id]);
    while (pairs.length < 40) {
      const a = ids[r.int(0, ids.length - 1)];
      const b = ids[r.int(0, ids.length - 1)];
      if (a !== b) pairs.push([a, b]);
    }
    const listed = new Map<number, Map<number, string>>();
    let disagree: string[] = [];
    for (const [a, b] of pairs) {
      if (!listed.has(a)) {
        const m = (await root.get(`${D}/work/${a}?minSimilarity=0.05&limit=200`)).body.data.matches as {
          workId: number;
          level: string;
        }[];
        listed.set(a, new Map(m.map((x) => [x.workId, x.level])));
      }
      const byCheck = (listed.get(a)!.get(b) ?? "none") !== "none";
      const byPair = (await root.get(`${D}/pair/${a}/${b}`)).body.data.level !== "none";
      if (byCheck !== byPair) disagree = [...disagree, `${a}–${b}: 查重 ${byCheck}，比对 ${byPair}`];
    }
    expect(disagree).toEqual([]);
  });

  it("shows two parts in opposite order as two passages that each read the same on both sides", async () => {
    const pair = (await root.get(`${D}/pair/${w.xy}/${w.yx}`)).body.data as {
      a: { text: string };
      b: { text: string };
      passages: { aStart: number; aEnd: number; bStart: number; bEnd: number; differs: boolean }[];
    };
    const counted = pair.passages.filter((p) => p.aEnd - p.aStart > 20);
    expect(counted.length).toBe(2);
    const strip = (s: string) => normalise(s).text;
    for (const p of counted) {
      const left = strip(pair.a.text.slice(p.aStart, p.aEnd));
      const right = strip(pair.b.text.slice(p.bStart, p.bEnd));
      // Each side holds one part: the same part, up to the small difference the passage says it has.
      const part = left.includes(strip(PART_Y).slice(0, 20)) ? "Y" : "X";
      expect(right.includes((part === "Y" ? strip(PART_Y) : strip(PART_X)).slice(-20))).toBe(true);
      expect(left.includes((part === "Y" ? strip(PART_X) : strip(PART_Y)).slice(0, 20))).toBe(false);
      expect(p.differs).toBe(left !== right);
    }
    // PART_X was changed in one place (老年人 → 老年朋友): that passage says it differs; PART_Y reads alike.
    expect(counted.map((p) => p.differs).sort()).toEqual([false, true]);
  });

  it("gives root and a contest admin the same length for the same passage", async () => {
    // The contest admin opens it from the own Zhejiang work; root from the Jiangsu one.
    const mine = (await cadmin.get(`${D}/pair/${w.xy}/${w.yx}`)).body.data;
    const theirs = (await root.get(`${D}/pair/${w.yx}/${w.xy}`)).body.data;
    expect(mine.b.redacted).toBe(true);
    type P = { aStart: number; aEnd: number; bStart: number; bEnd: number; length: number; differs: boolean };
    const seen = (mine.passages as P[]).map((p) => `${p.aStart}-${p.aEnd}/${p.bStart}-${p.bEnd}:${p.length}:${p.differs}`).sort();
    const swapped = (theirs.passages as P[])
      .map((p) => `${p.bStart}-${p.bEnd}/${p.aStart}-${p.aEnd}:${p.length}:${p.differs}`)
      .sort();
    expect(swapped).toEqual(seen);
    expect((mine.passages as P[]).some((p) => p.differs)).toBe(true);
  });
});
