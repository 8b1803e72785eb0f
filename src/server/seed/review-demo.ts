/**
 * Demo data for format review: ten works entered directly in the Zhejiang provincial
 * contest by schools without a school contest, accepted by the contest and waiting for
 * the demo reviewer 孙审核 (/ContestReviewer/SelectContest, fast review). Each has two
 * confirmed authors and a teacher of its school (password Demo@2026) and its log; two are
 * incomplete so the review checklist has something to find. Their attachments need the
 * blob store, so `npm start` adds them apart (seedReviewDemoFiles). Once the reviewer
 * passes works they reach the judge groups of /ContestAdmin/Group.
 */
import { Readable } from "node:stream";
import { crc32 } from "node:zlib";
import type { Transaction } from "kysely";
import type { Db } from "../db/index";
import type { DB } from "../db/schema";
import type { BlobStore } from "../storage";
import { demoPeople, insertDemoWork, type DemoStep } from "./demo-helpers";
import { chinesePdf, defenseSlides, designDocument } from "./demo-documents";

interface DemoReviewWork {
  name: string;
  school: string;
  category: string;
  sub: string;
  authors: [string, string];
  teacher: string;
  summary: string | null;
  design: string | null;
  keyPoints: string | null;
}

export const DEMO_REVIEW_WORKS: DemoReviewWork[] = [
  {
    name: "基于知识图谱的课程推荐系统",
    school: "浙江大学",
    category: "软件应用与开发",
    sub: "Web应用与开发",
    authors: ["沈一鸣", "韩晓雪"],
    teacher: "蒋文涛",
    summary: "根据学生的选课记录和课程知识图谱，为学生推荐合适的选修课程，并解释推荐理由。",
    design: "以课程知识图谱为核心，结合协同过滤与图神经网络进行推荐。",
    keyPoints: "难点在于冷启动学生的推荐和推荐理由的可解释性。",
  },
  {
    name: "社区养老服务预约小程序",
    school: "杭州电子科技大学",
    category: "软件应用与开发",
    sub: "移动应用开发",
    authors: ["许嘉豪", "曹雨欣"],
    teacher: "彭立新",
    summary: "为社区老人提供助餐、助浴、上门护理等服务的在线预约，支持子女代为预约。",
    design: "小程序前端适老化设计，后端按服务站点调度服务人员。",
    keyPoints: "重点是适老化交互，难点是服务人员的排班与就近调度。",
  },
  {
    name: "近海渔业资源数据分析平台",
    school: "宁波大学",
    category: "大数据应用",
    sub: "大数据实践赛",
    authors: ["邵海峰", "吕思琪"],
    teacher: "袁建国",
    summary: "汇集近十年近海捕捞与水文数据，分析渔业资源变化趋势，为休渔政策提供参考。",
    design: "数据湖存储多源数据，Spark 批处理，前端地图联动展示。",
    keyPoints: "难点在于多源数据的时空对齐。",
  },
  {
    name: "鞋类表面瑕疵智能检测系统",
    school: "温州大学",
    category: "人工智能应用",
    sub: "人工智能实践赛",
    authors: ["潘俊杰", "严梦琪"],
    teacher: "金卫东",
    summary: "在制鞋流水线上用摄像头采集鞋面图像，实时识别划痕、脱胶等瑕疵。",
    design: "轻量化目标检测模型部署在边缘设备上，检测结果回传质检看板。",
    keyPoints: "难点在于小样本瑕疵类别的识别准确率。",
  },
  {
    name: "《二进制与信息编码》微课",
    school: "浙江师范大学",
    category: "微课与AI辅助教学",
    sub: "计算机基础与应用类课程微课",
    authors: ["方诗涵", "任子墨"],
    teacher: "汤慧敏",
    summary: "用生活中的例子讲解二进制、字符编码和图像编码，时长 9 分钟。",
    design: "问题导入—原理讲解—动手练习—小结的教学设计。",
    keyPoints: "重点是用动画把抽象的编码过程讲清楚。",
  },
  {
    name: "实验室环境智能监测系统",
    school: "中国计量大学",
    category: "物联网应用",
    sub: "城市管理",
    authors: ["姚志远", "钟可欣"],
    teacher: "孔德明",
    summary: "监测实验室的温湿度、有害气体浓度和门禁状态，异常时自动报警。",
    design: "传感器节点经 LoRa 组网，网关汇聚数据上传云平台。",
    keyPoints: "难点是低功耗组网和误报的抑制。",
  },
  {
    name: "校园失物招领平台",
    school: "浙江工商大学",
    category: "软件应用与开发",
    sub: "Web应用与开发",
    authors: ["熊天宇", "谢雨涵"],
    teacher: "邱国平",
    summary: null,
    design: null,
    keyPoints: null,
  },
  {
    name: "城市消费数据可视化分析",
    school: "浙江财经大学",
    category: "大数据应用",
    sub: "大数据主题赛",
    authors: ["石浩然", "薛佳怡"],
    teacher: "龚晓峰",
    summary: "分析城市各商圈的消费数据，以可视化方式展示消费结构和季节变化。",
    design: "ETL 清洗后建立多维数据模型，ECharts 制作交互式图表。",
    keyPoints: "难点是海量交易数据的聚合性能。",
  },
  {
    name: "面向视障人士的出行辅助应用",
    school: "浙江大学",
    category: "人工智能应用",
    sub: "人工智能挑战赛",
    authors: ["丁思源", "魏语桐"],
    teacher: "蒋文涛",
    summary: "通过手机摄像头识别盲道、红绿灯和障碍物，以语音和振动提示视障人士。",
    design: "端侧视觉模型加语音交互，离线可用。",
    keyPoints: "难点在于复杂路况下识别的实时性和可靠性。",
  },
  {
    name: "丝绸纹样数字化设计平台",
    school: "浙江理工大学",
    category: "软件应用与开发",
    sub: "管理信息系统",
    authors: ["俞晨曦", "顾明轩"],
    teacher: "施红梅",
    summary: "收集整理传统丝绸纹样，提供纹样检索、再设计和打样管理。",
    design: null,
    keyPoints: null,
  },
];

export async function seedReviewDemo(trx: Transaction<DB>, year: number, password_hash: string, now: string) {
  const zj = await trx
    .selectFrom("contest")
    .select("id")
    .where("level", "=", "provincial")
    .where("province", "=", "浙江省")
    .where("year", "=", year)
    .executeTakeFirstOrThrow();
  const schools = await trx.selectFrom("school").select(["id", "name", "code"]).execute();
  const schoolOf = (name: string) => schools.find((s) => s.name === name)!;
  const cats = await trx.selectFrom("work_category").select(["id", "name", "parent_id"]).execute();
  const top = (name: string) => cats.find((c) => c.name === name && c.parent_id === null)!.id;
  const sub = (parent: number, name: string) => cats.find((c) => c.name === name && c.parent_id === parent)!.id;
  const contestAdmin = (
    await trx.selectFrom("app_user").select("id").where("username", "=", "contest_admin").executeTakeFirstOrThrow()
  ).id;

  // Member numbers 2023000001… go to the students in order (teachers have none).
  const person = demoPeople(trx, {
    password_hash,
    at: now,
    memberNo: (n) => `2023${String(n).padStart(6, "0")}`,
    major: "080901",
    serialOf: "students",
  });
  for (const [i, w] of DEMO_REVIEW_WORKS.entries()) {
    const school = schoolOf(w.school);
    const category = top(w.category);
    const authors = [
      await person(`rv_s${i + 1}a`, w.authors[0], 100, school.id),
      await person(`rv_s${i + 1}b`, w.authors[1], 100, school.id),
    ];
    const teacher = await person(`rv_t${school.code}`, w.teacher, 99, school.id);
    const text = {
      summary: w.summary,
      design_idea: w.design,
      key_points: w.keyPoints,
      open_source: w.summary ? "使用的开源组件均已在文档中列出，其余代码为团队原创。" : null,
      teacher_review: w.summary ? "团队分工明确，作品完成度较高。" : null,
    };
    const log: DemoStep[] = [
      ["create", authors[0]],
      ["submit", authors[0]],
      ["approve", null],
      ["recommend", null],
      ["accept", contestAdmin],
    ];
    await insertDemoWork(trx, {
      year,
      contestId: zj.id,
      categoryId: category,
      subcategoryId: sub(category, w.sub),
      name: w.name,
      status: "accepted",
      schoolId: school.id,
      authors,
      teachers: [teacher],
      text,
      version: 4,
      at: now,
      log,
    });
  }
}

/** A ZIP archive holding one stored (uncompressed) text file. */
function tinyZip(name: string, content: string): Buffer {
  const data = Buffer.from(content, "utf8");
  const fname = Buffer.from(name, "utf8");
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(0x0800, 6); // UTF-8 names
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fname.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(0x0800, 8);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fname.length, 28);
  const localSize = local.length + fname.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fname.length, 12);
  end.writeUInt32LE(localSize, 16);
  return Buffer.concat([local, fname, data, central, fname, end]);
}

/** The start of an MP4 file (an ftyp box): a placeholder for a demo video. */
const tinyMp4 = () => Buffer.from([0, 0, 0, 0x18, ...Buffer.from("ftypmp42"), 0, 0, 0, 0, ...Buffer.from("mp42isom")]);

/**
 * Attachments of the review demo works, for `npm start` (the blob store is not part of
 * seedDemo): every complete work gets its registration package — answers, sources and
 * documents — and all but one a demo video, so the reviewer has one to return for a missing
 * video; the two incomplete works have none. Runs once (works that have files are skipped).
 */
export async function seedReviewDemoFiles(db: Db, store: BlobStore) {
  const works = await db
    .selectFrom("work")
    .select(["id", "name", "created_by"])
    .where(
      "name",
      "in",
      DEMO_REVIEW_WORKS.map((w) => w.name),
    )
    .where("status", "=", "accepted")
    .orderBy("id")
    .execute();
  const now = new Date().toISOString();
  for (const w of works) {
    const spec = DEMO_REVIEW_WORKS.find((d) => d.name === w.name)!;
    if (!spec.summary || !spec.design) continue;
    await attachDemoFiles(db, store, w, { video: spec.name !== "鞋类表面瑕疵智能检测系统", at: now });
  }
}

/**
 * A demo work's registration package through the blob store: 答辩材料 (PDF), 源码 (ZIP),
 * 设计与开发文档 (PDF) and, unless told otherwise, a demo video. Skipped when the work has
 * files already; returns whether files were added.
 */
export async function attachDemoFiles(
  db: Db,
  store: BlobStore,
  w: { id: number; name: string; created_by: number },
  opts: { video?: boolean; at?: string } = {},
): Promise<boolean> {
  if (await db.selectFrom("work_file").select("id").where("work_id", "=", w.id).executeTakeFirst()) return false;
  const at = opts.at ?? new Date().toISOString();
  // The documents' Chinese text (./demo-documents.ts), from the work's own fields.
  const fields = await db
    .selectFrom("work")
    .select(["summary", "design_idea", "key_points"])
    .where("id", "=", w.id)
    .executeTakeFirst();
  const doc = { id: w.id, name: w.name, ...fields };
  const files: [string, string, string, Buffer][] = [
    ["defense", `${w.name}-答辩材料.pdf`, "application/pdf", chinesePdf(defenseSlides(doc))],
    ["source", `${w.name}-源码.zip`, "application/zip", tinyZip("README.txt", `${w.name}\n源码与素材（演示数据）\n`)],
    ["docs", `${w.name}-设计与开发文档.pdf`, "application/pdf", chinesePdf(designDocument(doc))],
    ...(opts.video === false
      ? []
      : [["video", `${w.name}-演示视频.mp4`, "video/mp4", tinyMp4()] as [string, string, string, Buffer]]),
  ];
  for (const [kind, filename, mime, bytes] of files) {
    const blob = await store.put(Readable.from([bytes]));
    await db
      .insertInto("work_file")
      .values({
        work_id: w.id,
        kind,
        filename,
        size: blob.size,
        mime,
        sha256: blob.sha256,
        uploaded_by: w.created_by,
        created_at: at,
        replaced_at: null,
        deleted_at: null,
        deleted_by: null,
      })
      .execute();
  }
  return true;
}
