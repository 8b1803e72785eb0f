/**
 * The text of the demo works' documents (设计与开发文档, 答辩材料): plausible student-project
 * writing in Chinese, built from section templates with variation per work, written as PDFs
 * the duplicate check can read (PDF.js through unpdf). Every document carries the same
 * boilerplate headings and declarations a real submission package has (文档结构, 原创声明,
 * 运行环境…), which the duplicate check learns to ignore as common fragments, and a body of
 * its own made from the work's name, summary, design idea and key points, so the demo's
 * 常见片段 list shows template sentences and the checks compare real content (issue 29: the
 * placeholder text "Design document - work N" gave English three-letter fragments instead).
 */
import { rng } from "./generate";

export interface DemoDocumentWork {
  id: number;
  name: string;
  summary?: string | null;
  design_idea?: string | null;
  key_points?: string | null;
}

/** Boilerplate every design document carries (what the duplicate check should ignore). */
const DOC_BOILERPLATE = [
  "本文档包括作品概述、需求分析、总体设计、详细设计、测试报告和安装说明等部分。",
  "本作品严格遵守大赛章程和参赛规则，所有内容均由参赛团队独立完成，不存在抄袭和剽窃行为。",
  "作品中使用的开源代码和第三方组件均已在开源代码与组件使用情况说明中如实列出。",
];

const NEEDS = [
  "在前期调研中，团队走访了{who}，共收集有效问卷{n}份，发现{pain}。",
  "我们对{who}进行了访谈和问卷调查（有效问卷{n}份），结果表明{pain}。",
  "通过实地调研和{n}份问卷，我们了解到{who}普遍反映{pain}。",
];
const WHO = ["校内师生", "社区居民和工作人员", "合作企业的一线员工", "相关管理部门", "本校三个学院的学生"];
const PAIN = [
  "现有工具操作繁琐、信息分散，难以满足日常使用需求",
  "人工处理耗时长、容易出错，数据难以汇总分析",
  "已有产品功能单一，缺少针对具体场景的个性化支持",
  "信息获取不及时，决策往往依赖个人经验",
];
const ARCH = [
  "系统采用前后端分离架构：前端基于{fe}实现，后端使用{be}提供接口，数据存储在{db}中。",
  "整体分为数据采集层、业务服务层和展示层三层，前端使用{fe}，服务端采用{be}，数据库选用{db}。",
  "我们将系统划分为若干相互独立的模块，前端框架为{fe}，后端框架为{be}，持久化使用{db}。",
];
const FE = ["微信小程序", "Vue 3", "React", "Flutter"];
const BE = ["Spring Boot", "Django", "FastAPI", "Node.js"];
const DB = ["MySQL", "PostgreSQL", "SQLite", "MongoDB"];
const TEST = [
  "测试阶段共设计了{n}个功能测试用例，全部通过；在{m}名用户参与的试用中，满意度达到百分之{p}。",
  "我们编写了{n}个测试用例覆盖主要功能，并邀请{m}名同学试用两周，{p}%的用户认为系统明显提高了效率。",
  "经过{n}轮功能测试和压力测试，系统运行稳定；{m}名试用者的反馈中，好评率为百分之{p}。",
];
const TEAM = [
  "团队成员分工明确，共同完成了需求调研、系统设计、编码实现和测试工作。",
  "队长负责需求分析和项目管理，其余成员分别承担前端开发、后端开发与测试工作。",
];
const INSTALL = [
  "作品安装说明：请按照以下步骤完成环境配置、依赖安装和服务启动。",
  "如需运行本作品，请使用推荐的浏览器并确保网络连接正常。",
];

const fill = (s: string, r: ReturnType<typeof rng>) =>
  s
    .replace("{who}", r.pick(WHO))
    .replace("{pain}", r.pick(PAIN))
    .replace("{fe}", r.pick(FE))
    .replace("{be}", r.pick(BE))
    .replace("{db}", r.pick(DB))
    .replace("{n}", String(r.int(30, 260)))
    .replace("{m}", String(r.int(12, 80)))
    .replace("{p}", String(r.int(82, 96)));

/** The paragraphs of a work's 设计与开发文档 (headings included). */
export function designDocument(w: DemoDocumentWork): string[] {
  const r = rng(w.id * 7919 + 17);
  const summary = w.summary?.trim() || `${w.name}是团队针对实际需求设计开发的作品。`;
  const design = w.design_idea?.trim() || `${w.name}以模块化设计为核心，兼顾易用性与可扩展性。`;
  const keys = w.key_points?.trim() || "难点在于复杂场景下的稳定性和数据的准确性。";
  return [
    `《${w.name}》设计与开发文档`,
    DOC_BOILERPLATE[0],
    "一、作品概述",
    `${summary}本作品的名称为“${w.name}”，目标是让使用者以更低的成本完成原本繁琐的工作。`,
    "二、需求分析",
    fill(r.pick(NEEDS), r),
    `基于上述调研，我们确定了${w.name}的核心需求：${r.pick(["信息集中管理", "实时提醒与反馈", "数据统计与可视化", "多角色协同"])}、${r.pick(["移动端便捷访问", "权限分级", "历史记录追溯", "智能推荐"])}。`,
    "三、总体设计",
    `${design}`,
    fill(r.pick(ARCH), r),
    "四、关键技术与难点",
    `${keys}为此我们${r.pick(["查阅了相关文献并对比了多种方案", "在原型阶段做了多轮实验", "请教了指导教师和企业工程师"])}，最终选定了兼顾效果与开销的实现方式。`,
    "五、测试与评估",
    fill(r.pick(TEST), r),
    "六、安装与使用说明",
    r.pick(INSTALL),
    "七、团队分工与原创声明",
    r.pick(TEAM),
    DOC_BOILERPLATE[1],
    DOC_BOILERPLATE[2],
  ];
}

/** The lines of a work's 答辩材料 (a short slide outline). */
export function defenseSlides(w: DemoDocumentWork): string[] {
  const r = rng(w.id * 104729 + 3);
  return [
    `${w.name} · 作品答辩`,
    "目录：项目背景、解决方案、系统演示、创新点、总结与展望",
    `项目背景：${w.summary?.trim() || `${w.name}源于团队在日常学习和生活中发现的实际问题。`}`,
    `解决方案：${w.design_idea?.trim() || "以模块化设计为核心，兼顾易用性与可扩展性。"}`,
    `创新点：${r.pick(["面向具体场景的个性化设计", "多源数据的融合分析", "轻量级部署，普通设备即可运行", "简洁直观的交互方式"])}。`,
    `总结与展望：下一步我们计划${r.pick(["扩大试用范围并收集更多反馈", "完善数据分析功能", "与合作单位开展长期试点", "优化性能以支持更多用户"])}。`,
    "谢谢各位评委老师！",
  ];
}

/** Splits paragraphs into lines of at most `width` characters (a PDF line does not wrap by itself). */
function wrap(paragraphs: string[], width = 38): string[] {
  const out: string[] = [];
  for (const p of paragraphs) for (let i = 0; i < p.length; i += width) out.push(p.slice(i, i + width));
  return out;
}

/**
 * A PDF of Chinese lines (A4, 40 lines a page): a Type0 font with Identity-H encoding whose
 * codes are the characters' Unicode values, and a ToUnicode map saying so, so text extraction
 * reads the characters back. The font (STSong-Light) is not embedded: a viewer substitutes one.
 */
export function chinesePdf(paragraphs: string[]): Buffer {
  const hex = (s: string) =>
    [...s]
      .map((c) => c.codePointAt(0)!)
      .filter((c) => c <= 0xffff)
      .map((c) => c.toString(16).padStart(4, "0"))
      .join("");
  const lines = wrap(paragraphs);
  const pages: string[][] = [];
  for (let i = 0; i < lines.length; i += 40) pages.push(lines.slice(i, i + 40));
  const cmap = [
    "/CIDInit /ProcSet findresource begin",
    "12 dict begin",
    "begincmap",
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
    "/CMapName /Adobe-Identity-UCS def",
    "/CMapType 2 def",
    "1 begincodespacerange",
    "<0000> <FFFF>",
    "endcodespacerange",
    "1 beginbfrange",
    "<0000> <FFFF> <0000>",
    "endbfrange",
    "endcmap",
    "CMapName currentdict /CMap defineresource pop",
    "end",
    "end",
  ].join("\n");
  // Objects: 1 catalog, 2 pages, 3 font, 4 descendant font, 5 ToUnicode, 6 descriptor, then page and content pairs.
  const first = 7;
  const objs = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${first + i * 2} 0 R`).join(" ")}] /Count ${pages.length} >>`,
    "<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /Identity-H /DescendantFonts [4 0 R] /ToUnicode 5 0 R >>",
    "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 6 0 R /DW 1000 >>",
    `<< /Length ${Buffer.byteLength(cmap)} >>\nstream\n${cmap}\nendstream`,
    "<< /Type /FontDescriptor /FontName /STSong-Light /Flags 4 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>",
  ];
  pages.forEach((page, i) => {
    const content = page.map((l, j) => `BT /F1 12 Tf 56 ${790 - j * 18} Td <${hex(l)}> Tj ET`).join("\n");
    objs.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents ${first + i * 2 + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
    );
    objs.push(`<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`);
  });
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((n) => `${String(n).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "utf8");
}
