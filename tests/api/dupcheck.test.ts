/**
 * The duplicate check in the platform, through the API on both dialects: a work is indexed
 * in the background when it is submitted and again when a document is uploaded to it; the
 * checks by id, pasted text and document; the scope (a contest admin sees a match outside
 * the own contests only as id and year, and its passages redacted in the side by side view;
 * a judge gets 404 for a work not assigned; authors reach no route); a tiny text says it
 * cannot be checked; the review sheet's matches; the batch report's clusters and .xlsx; the
 * admin routes (status, thresholds, rebuild job).
 */
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, DIALECTS, makeApp, type TestApp } from "../helpers/app";
import { multipart } from "../helpers/multipart";
import { waitJob } from "../helpers/jobs";
import { loadWorkbook, rowsOf } from "../helpers/xlsx";
import { account, catId, contestId, idOf, login, makeWork, W } from "./works-fixtures";
import { insertUser, joinContest } from "./judging-fixtures";
import { D, indexedStatus, plantWork, reindexAll as reindexAllWorks } from "./dupcheck-fixtures";
import { NOT_IN_SCOPE } from "../../src/server/dupcheck/scope";
import { recordBenchmark } from "../../src/server/dupcheck/settings";

/** Original texts (distinct topics) and copies of them. */
const COURSE =
  "本系统面向高校学生的选课难题，利用课程知识图谱刻画课程之间的先修关系、知识点覆盖和难度梯度。系统采集学生的历史选课记录与成绩，结合图神经网络学习学生与课程的表示，并对冷启动学生采用基于专业培养方案的规则推荐。推荐结果附带可解释的理由，例如某门课程能够补足学生在数据结构方面的薄弱环节。前端采用响应式设计，支持移动端浏览和一键加入选课清单。我们在三个学院进行了为期一学期的试用，学生对推荐结果的满意度达到百分之八十七，选课退改率明显下降。";
const PORT =
  "港口物流调度平台针对集装箱码头作业效率低、堆场翻箱率高的问题，建立了泊位、岸桥、集卡和堆场的联合调度模型。平台通过物联网终端实时采集集卡位置和岸桥状态，使用混合整数规划与启发式算法求解作业计划，并在突发天气或船舶延误时快速重排。调度员可以在三维可视化界面中拖拽调整计划，系统即时评估对整体作业时间的影响。经某码头的历史数据回放测试，平均船舶在港时间缩短百分之十二，集卡空驶里程减少约五分之一。";
const CARE =
  "社区养老服务预约小程序为行动不便的老年人提供助餐、助浴、理发和上门护理等服务的在线预约。考虑到老年用户的使用习惯，界面采用大字号、高对比度配色和语音播报，子女也可以绑定家人账号代为下单。后台根据服务站点的人员排班和老人住址，按距离与技能匹配自动派单，并通过短信提醒服务人员按时上门。服务完成后老人可以通过语音进行评价，社区管理者能够查看各类服务的需求分布，合理调配志愿者资源。";
const FLOOD =
  "城市内涝监测预警系统在易积水路段部署超声波水位传感器和视频摄像头，借助窄带物联网将数据上传至云端。系统融合气象部门的降雨预报和排水管网模型，提前两小时预测积水深度，并在地图上以不同颜色标注风险等级。市民可以通过公众号订阅所在街道的预警信息，交通部门则根据预测结果提前设置绕行提示。系统在试点期间成功预警了七次强降雨导致的道路积水，为应急抢险争取了宝贵时间。";
const POETRY =
  "古诗词吟诵学习应用收录了小学到高中课本中的全部古诗词，由专业播音员录制标准吟诵音频。学生跟读时，应用利用语音识别逐字比对读音和节奏，用颜色标出读错的字和停顿不当之处。每首诗配有作者生平、创作背景和逐句赏析，还设计了飞花令、诗词接龙等闯关游戏，帮助学生在趣味中积累。教师端可以布置吟诵作业，查看全班的完成情况和常见错误。";

const TEA =
  "茶园病虫害识别助手让茶农用手机拍摄茶树叶片，即可识别茶饼病、炭疽病和小绿叶蝉危害，并给出绿色防控建议。模型在十二个茶园采集的两万张图片上训练，离线也能运行。";
const BIKE =
  "共享单车停放秩序管理系统通过电子围栏和车锁上的定位模块，引导用户把车停入规定区域，对乱停车辆自动计费提醒，并为运维人员规划最短调度路线。";

/** A light edit: a few characters changed. */
const lightly = (s: string) =>
  s.replace("高校学生", "大学生").replace("百分之八十七", "百分之八十五").replace("响应式设计", "自适应设计");

/** A minimal .docx with the given paragraphs (what mammoth reads). */
async function docx(paragraphs: string[]): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    "[Content_Types].xml",
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    "_rels/.rels",
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${p}</w:t></w:r></w:p>`).join("");
  zip.file(
    "word/document.xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: "nodebuffer" });
}

describe.each(DIALECTS)("duplicate check on %s", (dialect) => {
  let t: TestApp;
  let root: Client, cadmin: Client, reviewer: Client, judge: Client, student: Client, sadmin: Client;
  let zj: number, js: number, zjut: number, soft: number;
  /** works by name */
  const w: Record<string, number> = {};
  let serial = 0;

  /** A work by two new students inserted directly, recorded under its name. */
  async function plant(
    name: string,
    contest: number,
    school: string,
    text: string,
    opts: { year?: number; status?: "accepted" | "format_passed" | "draft" } = {},
  ) {
    const n = ++serial;
    const authors = [`查重甲${n}`, `查重乙${n}`];
    w[name] = await plantWork(t, { serial: n, prefix: "dup", name, contest, categoryId: soft, school, text, authors, ...opts });
    return w[name];
  }
  const indexed = (id: number) => indexedStatus(t, id);
  const reindexAll = (ids: number[]) => reindexAllWorks(t, root, ids);

  beforeAll(async () => {
    t = await makeApp(dialect);
    [root, cadmin, reviewer, judge, sadmin] = await Promise.all(
      ["root", "contest_admin", "reviewer", "judge", "school_admin"].map((u) => login(t, u)),
    );
    student = await login(t, "student");
    zj = await contestId(t, "2026-ZJ");
    js = await contestId(t, "2026-JS");
    zjut = await contestId(t, "2026-ZJ-10337");
    soft = await catId(t, "软件应用与开发");
    await plant("课程推荐", zj, "浙江大学", COURSE);
    await plant("课程推荐（改）", zj, "宁波大学", lightly(COURSE));
    // Half of the lightly edited copy, and an unrelated half: a third work of the same cluster.
    await plant("课程推荐（拼）", zj, "温州大学", lightly(COURSE).slice(0, 180) + TEA);
    await plant("港口调度", zj, "宁波大学", PORT);
    await plant("养老预约", zj, "杭州电子科技大学", CARE);
    // Jiangsu: a flood warning system, copied by a Zhejiang work.
    await plant("内涝预警", js, "南京大学", FLOOD);
    await plant("内涝监测", zj, "浙江工业大学", FLOOD.slice(0, 130) + BIKE);
    // Last year's Zhejiang-like work: the poetry app.
    const pastCn = await t.db
      .insertInto("contest")
      .values({
        name: "2025年中国大学生计算机设计大赛",
        level: "national",
        year: 2025,
        parent_id: null,
        province: null,
        school_id: null,
        archived: 1,
        code: "2025-CN",
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await plant("诗词吟诵", pastCn.id, "浙江大学", POETRY, { year: 2025, status: "format_passed" });
    await plant("诗词吟诵（今年）", zj, "浙江师范大学", POETRY.replace("小学到高中", "中小学").replace("两万", "三万"));
    await reindexAll(Object.values(w));
  });
  afterAll(async () => t?.close());

  it("indexes a work in the background when it is submitted, and again when a document is uploaded", async () => {
    const author = await account(t, "dup_author", "查重作者");
    const co = await account(t, "dup_coauthor", "查重合作者");
    const id = await makeWork(t, author, {
      contest: zjut,
      category: soft,
      name: "港口作业优化系统",
      coAuthors: [co],
      teachers: ["teacher"],
    });
    w["港口作业优化系统"] = id;
    const draft = (await author.get(`${W}/${id}`)).body.data;
    expect(
      (
        await author.req("PATCH", `${W}/${id}`, {
          version: draft.version,
          summary: PORT.slice(0, 120),
          designIdea: PORT.slice(120),
        })
      ).status,
    ).toBe(200);
    // A draft is not indexed.
    expect(await t.db.selectFrom("dup_entry").select("work_id").where("work_id", "=", id).executeTakeFirst()).toBeUndefined();
    const version = (await author.get(`${W}/${id}`)).body.data.version;
    const submitted = await author.post(`${W}/${id}/submit`, { version });
    expect(submitted.status, submitted.body.info).toBe(200);
    // The entry exists at once (pending, or already indexed by the background task) …
    expect(["pending", "indexed"]).toContain(
      (await t.db.selectFrom("dup_entry").select("status").where("work_id", "=", id).executeTakeFirstOrThrow()).status,
    );
    // … and is indexed soon after, without anyone checking it.
    expect(await indexed(id)).toBe("indexed");
    const first = (await root.get(`${D}/work/${id}`)).body.data;
    expect(first.index).toMatchObject({ status: "indexed", tooShort: false });
    expect(first.matches[0]).toMatchObject({ workId: w["港口调度"], inScope: true, name: "港口调度", level: "likely" });
    expect(first.matches.map((m: { workId: number }) => m.workId)).not.toContain(w["养老预约"]);

    // The school returns it; the author uploads a document with the elderly-care text.
    expect((await sadmin.post(`/Backend/School/work/${id}/return`, { reason: "请补充文档" })).status).toBe(200);
    const { requirements } = (await author.get(`${W}/${id}/files`)).body.data as {
      requirements: { key: string; types: string[] }[];
    };
    const kind = requirements.find((r) => r.types.includes("docx"))!;
    const m = multipart([
      { name: "kind", value: kind.key },
      { name: "file", filename: "设计文档.docx", content: await docx([CARE]) },
    ]);
    expect((await author.req("POST", `${W}/${id}/files`, m.body, m.headers)).status).toBe(201);
    expect(await indexed(id)).toBe("indexed");
    const again = (await root.get(`${D}/work/${id}`)).body.data;
    expect(again.matches.map((x: { workId: number }) => x.workId)).toEqual(
      expect.arrayContaining([w["港口调度"], w["养老预约"]]),
    );
    // The side by side view shows the document as a section of the work's text.
    const pair = (await root.get(`${D}/pair/${id}/${w["养老预约"]}`)).body.data;
    expect(pair.a.sections.map((s: { label: string }) => s.label)).toContain("设计文档.docx");
    expect(pair.passages.length).toBeGreaterThan(0);
  });

  it("checks a work by id: matches with year, contest, similarity and containment both ways, filtered", async () => {
    const r = await root.get(`${D}/work/${w["课程推荐"]}`);
    expect(r.status).toBe(200);
    const ids = r.body.data.matches.map((m: { workId: number }) => m.workId);
    expect(ids.slice(0, 2)).toEqual([w["课程推荐（改）"], w["课程推荐（拼）"]]);
    const copy = r.body.data.matches[0];
    expect(copy).toMatchObject({ year: 2026, contestId: zj, inScope: true, level: "likely" });
    expect(copy.similarity).toBeGreaterThan(0.8);
    expect(copy.containmentAB).toBeGreaterThan(0.8);
    const part = r.body.data.matches[1];
    // The spliced work holds most of the original, and other text: more of the original is in it than of it in the original.
    expect(part.containmentAB).toBeGreaterThan(part.containmentBA);
    // Filters: level, minimum similarity, year.
    expect(
      (await root.get(`${D}/work/${w["课程推荐"]}?level=likely`)).body.data.matches.every(
        (m: { level: string }) => m.level === "likely",
      ),
    ).toBe(true);
    expect(
      (await root.get(`${D}/work/${w["课程推荐"]}?minSimilarity=0.9`)).body.data.matches.map((m: { workId: number }) => m.workId),
    ).toEqual([w["课程推荐（改）"]]);
    expect((await root.get(`${D}/work/${w["课程推荐"]}?year=2025`)).body.data.matches).toEqual([]);
    // Last year's work is found from this year's copy; last year's work is not compared with later years by default.
    const poetry = (await root.get(`${D}/work/${w["诗词吟诵（今年）"]}`)).body.data.matches.map(
      (m: { workId: number; year: number }) => [m.workId, m.year],
    );
    expect(poetry).toContainEqual([w["诗词吟诵"], 2025]);
    expect(
      (await root.get(`${D}/work/${w["诗词吟诵"]}`)).body.data.matches.map((m: { workId: number }) => m.workId),
    ).not.toContain(w["诗词吟诵（今年）"]);
    expect(
      (await root.get(`${D}/work/${w["诗词吟诵"]}?allYears=true`)).body.data.matches.map((m: { workId: number }) => m.workId),
    ).toContain(w["诗词吟诵（今年）"]);
    // A draft is not checked (nor indexed): it says so, with no figure.
    const draft = await plant("草稿作品", zj, "浙江大学", COURSE, { status: "draft" });
    const d = await cadmin.get(`${D}/work/${draft}`);
    expect(d.body.data).toMatchObject({
      index: { status: "missing", tooShort: true, reason: expect.stringContaining("草稿") },
      matches: [],
    });
    expect(await t.db.selectFrom("dup_entry").select("work_id").where("work_id", "=", draft).executeTakeFirst()).toBeUndefined();
  });

  it("a contest admin sees a match outside the own contests only as id and year, and its passages redacted", async () => {
    const r = await cadmin.get(`${D}/work/${w["内涝监测"]}`);
    expect(r.status).toBe(200);
    const outside = r.body.data.matches.find((m: { workId: number }) => m.workId === w["内涝预警"]);
    expect(outside).toEqual({
      workId: w["内涝预警"],
      year: 2026,
      inScope: false,
      name: null,
      contestId: null,
      contestName: null,
      similarity: expect.any(Number),
      level: "likely",
      jaccard: null,
      containmentAB: null,
      containmentBA: null,
      shared: null,
    });
    expect(r.body.data.outside).toBe(1);
    // Root sees the same match in full.
    expect((await root.get(`${D}/work/${w["内涝监测"]}`)).body.data.matches[0]).toMatchObject({
      workId: w["内涝预警"],
      inScope: true,
      name: "内涝预警",
      contestId: js,
    });
    // The side by side view: the own work in full, the outside one only as its shared passages.
    const pair = (await cadmin.get(`${D}/pair/${w["内涝监测"]}/${w["内涝预警"]}`)).body.data;
    expect(pair.a).toMatchObject({ redacted: false, inScope: true, workId: w["内涝监测"] });
    expect(pair.a.text).toContain("窄带物联网");
    expect(pair.b).toMatchObject({
      redacted: true,
      inScope: false,
      workId: w["内涝预警"],
      year: 2026,
      title: null,
      contestName: null,
      text: "",
      sections: [],
    });
    expect(pair.b.snippets.length).toBeGreaterThan(0);
    // Only what the two share: not the rest of the Jiangsu work.
    expect(pair.b.snippets.map((s: { text: string }) => s.text).join("")).not.toContain("七次强降雨");
    expect(pair.b.length).toBeGreaterThan(FLOOD.length);
    expect(pair.b.snippets.reduce((n: number, s: { text: string }) => n + s.text.length, 0)).toBeLessThan(FLOOD.length);
    // The Jiangsu work itself, and a work that does not exist: the same 404.
    const theirs = await cadmin.get(`${D}/work/${w["内涝预警"]}`);
    const missing = await cadmin.get(`${D}/work/2026999999`);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(missing.body);
    expect(theirs.body.info).toBe(NOT_IN_SCOPE);
    expect((await cadmin.get(`${D}/pair/${w["内涝预警"]}/${w["内涝监测"]}`)).body).toEqual(missing.body);
    // An outside work that is no match of the own one is not even confirmed to exist.
    expect((await cadmin.get(`${D}/pair/${w["养老预约"]}/${w["内涝预警"]}`)).body).toEqual(missing.body);
  });

  it("a judge checks only the works assigned to them; an author reaches no duplicate-check route", async () => {
    const judgeId = await idOf(t, "judge");
    await t.db
      .insertInto("judge_assignment")
      .values({
        contest_id: zj,
        work_id: w["课程推荐"],
        judge_id: judgeId,
        group_id: null,
        created_at: new Date().toISOString(),
        created_by: null,
      })
      .execute();
    const mine = await judge.get(`${D}/work/${w["课程推荐"]}`);
    expect(mine.status).toBe(200);
    // The copies are not assigned to the judge: facts only.
    expect(mine.body.data.matches[0]).toMatchObject({ workId: w["课程推荐（改）"], inScope: false, name: null });
    const other = await judge.get(`${D}/work/${w["港口调度"]}`);
    expect(other.status).toBe(404);
    expect(other.body.info).toBe(NOT_IN_SCOPE);
    expect((await judge.get(`${D}/pair/${w["港口调度"]}/${w["课程推荐"]}`)).status).toBe(404);
    // Pasted text only against a work the judge may open: the unassigned copy answers as an unknown work.
    const outOfReach = await judge.post(`${D}/pair-text`, { text: COURSE, workId: w["课程推荐（改）"] });
    expect(outOfReach.status).toBe(404);
    expect(outOfReach.body.info).toBe(NOT_IN_SCOPE);
    expect(JSON.stringify(outOfReach.body)).not.toContain(COURSE.slice(0, 20));
    expect((await judge.post(`${D}/pair-text`, { text: COURSE, workId: w["课程推荐"] })).status).toBe(200);
    // Authors: refused everywhere (the policy gives them none of these routes).
    for (const [method, url, body] of [
      ["GET", `${D}/work/${w["课程推荐"]}`],
      ["POST", `${D}/text`, { text: COURSE }],
      ["GET", `${D}/pair/${w["课程推荐"]}/${w["课程推荐（改）"]}`],
      ["POST", `${D}/pair-text`, { text: COURSE, workId: w["课程推荐"] }],
      ["GET", `/Backend/Review/work/${w["课程推荐"]}/dupcheck`],
      ["POST", `${D}/report`, { contestId: zj }],
      ["GET", `${D}/admin/stats`],
    ] as [string, string, unknown?][]) {
      const r = await student.req(method as "GET", url, body);
      expect(r.status, url).toBe(403);
      expect(JSON.stringify(r.body)).not.toContain("课程推荐");
    }
  });

  it("checks a pasted text against every year and shows it beside a work; a tiny text says it cannot be checked", async () => {
    const pasted = `${COURSE.slice(40, 200)}${CARE.slice(0, 30)}`;
    const r = await root.post(`${D}/text`, { text: pasted });
    expect(r.status).toBe(200);
    expect(r.body.data.index).toMatchObject({ status: "text", tooShort: false });
    expect(r.body.data.matches[0]).toMatchObject({ workId: expect.any(Number), inScope: true });
    expect([w["课程推荐"], w["课程推荐（改）"], w["课程推荐（拼）"]]).toContain(r.body.data.matches[0].workId);
    expect(r.body.data.matches[0].containmentAB).toBeGreaterThan(0.6);
    const pair = await root.post(`${D}/pair-text`, { text: pasted, workId: w["课程推荐"] });
    expect(pair.status).toBe(200);
    expect(pair.body.data.a).toMatchObject({ workId: null, title: "粘贴的文本", redacted: false });
    const p = pair.body.data.passages[0];
    // The positions lead to the same text on both sides.
    expect(pair.body.data.a.text.slice(p.aStart, p.aEnd).slice(0, 10)).toBe(
      pair.body.data.b.text.slice(p.bStart, p.bEnd).slice(0, 10),
    );

    for (const tiny of ["你好", "", "   ", "系统采用了先进的技术。"]) {
      const s = await root.post(`${D}/text`, { text: tiny });
      expect(s.status).toBe(200);
      expect(s.body.data.index.tooShort).toBe(true);
      expect(s.body.data.matches).toEqual([]);
      expect(s.body.info).toMatch(/过短|太短/);
    }
    // Bounded input: an over-long text is refused before anything runs.
    expect((await root.post(`${D}/text`, { text: "字".repeat(100_001) })).status).toBe(422);
  });

  it("checks an uploaded document and refuses what cannot be read", async () => {
    const send = (filename: string, content: Buffer) => {
      const m = multipart([{ name: "file", filename, content }]);
      return cadmin.req("POST", `${D}/document`, m.body, m.headers);
    };
    const ok = await send("申报书.docx", await docx([PORT.slice(0, 100), PORT.slice(100)]));
    expect(ok.status).toBe(200);
    expect(ok.body.data.document).toMatchObject({ filename: "申报书.docx", reason: null });
    expect(ok.body.data.matches[0]).toMatchObject({ workId: w["港口调度"], inScope: true, level: "likely" });
    const broken = await send("坏文件.docx", Buffer.from("PK\u0003\u0004 not really a zip"));
    expect(broken.status).toBe(400);
    expect(broken.body.info).toContain("坏文件.docx");
    const wrongType = await send("表格.xlsx", Buffer.from("x"));
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.info).toContain(".docx");
  });

  it("shows the format reviewer the work's top matches on the review sheet", async () => {
    const r = await reviewer.get(`/Backend/Review/work/${w["课程推荐（改）"]}/dupcheck`);
    expect(r.status).toBe(200);
    expect(r.body.data.index.status).toBe("indexed");
    expect(r.body.data.matches[0]).toMatchObject({ workId: w["课程推荐"], inScope: true, level: "likely", name: "课程推荐" });
    expect(r.body.data.matches.length).toBeLessThanOrEqual(5);
    // The reviewer opens the side by side view of the pair.
    const pair = await reviewer.get(`${D}/pair/${w["课程推荐（改）"]}/${w["课程推荐"]}`);
    expect(pair.status).toBe(200);
    expect(pair.body.data.a.ranges.length).toBeGreaterThan(0);
    expect(pair.body.data.b.ranges.length).toBeGreaterThan(0);
    // A reviewer of another contest: the sheet's 404.
    const jr = await insertUser(t, { username: "dup_js_reviewer", name: "苏查重", role: 3 });
    await joinContest(t, jr, js, "reviewer");
    const other = await login(t, "dup_js_reviewer");
    expect((await other.get(`/Backend/Review/work/${w["课程推荐（改）"]}/dupcheck`)).status).toBe(404);
    // The reviewer has no /dup-check of their own.
    expect((await reviewer.get(`${D}/work/${w["课程推荐"]}`)).status).toBe(403);
  });

  it("the batch report groups the pairs above the threshold into clusters and writes them to .xlsx", async () => {
    const start = await cadmin.post(`${D}/report`, { contestId: zj, threshold: 0.3 });
    expect(start.status).toBe(202);
    const job = await waitJob(cadmin, start.body.data.jobId, 30_000);
    expect(job.status).toBe("done");
    expect(job.processed).toBe(job.total);
    const result = job.result;
    const clusters = result.clusters.map((c: { works: { workId: number }[] }) => c.works.map((x) => x.workId).sort());
    expect(clusters).toContainEqual([w["课程推荐"], w["课程推荐（改）"], w["课程推荐（拼）"]].sort());
    // This year's poetry app and last year's, outside the admin's scope (the fact only).
    const poetry = result.clusters.find((c: { works: { workId: number }[] }) =>
      c.works.some((x) => x.workId === w["诗词吟诵（今年）"]),
    );
    expect(
      poetry.works.map((x: { workId: number; inScope: boolean; year: number }) => [x.workId, x.inScope, x.year]).sort(),
    ).toEqual(
      [
        [w["诗词吟诵"], false, 2025],
        [w["诗词吟诵（今年）"], true, 2026],
      ].sort(),
    );
    // The Jiangsu work is outside the admin's scope: the fact only.
    const flood = result.clusters.find((c: { works: { workId: number }[] }) => c.works.some((x) => x.workId === w["内涝预警"]));
    expect(flood.works.find((x: { workId: number }) => x.workId === w["内涝预警"])).toEqual({
      workId: w["内涝预警"],
      year: 2026,
      inScope: false,
      name: null,
      contestId: null,
      contestName: null,
    });
    // The submitted work (port text, care document, in the school contest below) joins the two it copies.
    expect(clusters).toContainEqual([w["港口调度"], w["养老预约"], w["港口作业优化系统"]].sort());
    // The file: one row per pair, cluster by cluster.
    const file = await cadmin.get(job.downloadUrl);
    expect(file.status).toBe(200);
    const rows = rowsOf((await loadWorkbook(file.res.rawPayload)).worksheets[0]);
    expect(rows.length).toBe(result.pairs);
    expect(rows.map((r) => Number(r[0]))).toEqual([...rows.map((r) => Number(r[0]))].sort((a, b) => a - b));
    const floodRow = rows.find((r) => r.includes(String(w["内涝预警"])))!;
    expect(floodRow).toContain("（不在管理范围内）");
    // A contest outside the admin's scope: 404, no job.
    const jobs = Number(
      (
        await t.db
          .selectFrom("job")
          .select((e) => e.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect((await cadmin.post(`${D}/report`, { contestId: js })).status).toBe(404);
    expect(
      Number(
        (
          await t.db
            .selectFrom("job")
            .select((e) => e.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(jobs);
  });

  it("the admin page: status, thresholds (refused when inconsistent), rebuild as a job", async () => {
    const stats = (await root.get(`${D}/admin/stats`)).body.data;
    expect(stats.stats.indexed).toBeGreaterThanOrEqual(Object.keys(w).length);
    // The last benchmark: none until `npm run bench:dupcheck -- --record` writes it into this database.
    expect(stats.benchmark).toBeNull();
    const figures = {
      works: 100000,
      buildSeconds: 300,
      addMs: 2,
      checkP50Ms: 3,
      checkP99Ms: 12,
      recallAt05: 1,
      lightEditsFound: 1,
      rewritesFound: 0.97,
      originalsFlagged: 0,
    };
    await recordBenchmark(t.db, { ...figures, dialect: "SQLite", date: "2026-11-24T23:00:00.000Z", machine: "2 核" });
    expect((await root.get(`${D}/admin/stats`)).body.data.benchmark).toEqual({
      ...figures,
      dialect: "SQLite",
      date: "2026-11-24T23:00:00.000Z",
      machine: "2 核",
    });
    const bad = await root.req("PUT", `${D}/admin/settings`, { suspect: 0.7, likely: 0.5 });
    expect(bad.status).toBe(422);
    expect((await root.get(`${D}/admin/stats`)).body.data.stats.settings).toMatchObject({
      suspect: stats.stats.settings.suspect,
      likely: stats.stats.settings.likely,
    });
    const saved = await root.req("PUT", `${D}/admin/settings`, { suspect: 0.35, likely: 0.65 });
    expect(saved.body.data).toMatchObject({ suspect: 0.35, likely: 0.65 });
    expect((await root.get(`${D}/work/${w["课程推荐"]}`)).body.data.thresholds).toEqual({ suspect: 0.35, likely: 0.65 });
    // Rebuild: a job with progress; the index answers the same afterwards.
    const before = (await root.get(`${D}/work/${w["课程推荐"]}`)).body.data.matches.map(
      (m: { workId: number; similarity: number }) => [m.workId, m.similarity],
    );
    const job = await root.post(`${D}/admin/rebuild`, { reextract: true });
    expect(job.status).toBe(202);
    const done = await waitJob(root, job.body.data.jobId, 60_000);
    expect(done).toMatchObject({ status: "done", kind: "task", processed: 1000, total: 1000, downloadUrl: null });
    expect(done.message).toContain("查重索引已重建");
    expect((await root.get(`${D}/admin/stats`)).body.data.stats.lastRebuild).toMatchObject({ reextract: true, error: null });
    const after = (await root.get(`${D}/work/${w["课程推荐"]}`)).body.data.matches.map(
      (m: { workId: number; similarity: number }) => [m.workId, m.similarity],
    );
    expect(after).toEqual(before);
    // Entries list with names.
    const entries = (await root.get(`${D}/admin/entries?status=indexed&pageSize=100`)).body.data;
    expect(entries.list.find((e: { workId: number }) => e.workId === w["课程推荐"])).toMatchObject({
      name: "课程推荐",
      statusName: "已索引",
    });
    // Contest admins do not manage the engine.
    expect((await cadmin.get(`${D}/admin/stats`)).status).toBe(403);
  });
});
