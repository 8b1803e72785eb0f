/**
 * A fixed-seed synthetic corpus of Chinese contest works for the duplicate-check benchmark.
 *
 * Texts are built from sentence patterns filled with words: a general vocabulary (verbs,
 * adjectives, connectors, technical nouns) with Zipf-like frequencies, and per topic a set
 * of compound words made of two morphemes (智能+灌溉, 校园+导航, …), so works of one topic share
 * their vocabulary the way real same-topic works do. Template sentences (the contest's
 * boilerplate) appear in many works; a few "school templates" (a longer boilerplate shared
 * by a group of works) appear in small groups.
 *
 * Derived works: exact copies, light edits (1–5 % of characters changed), rewrites (10 %,
 * 20 %, 30 % of characters changed: words replaced, plus sentences reordered).
 */
import { rng, type Rng } from "../src/server/seed/generate";

const MORPHEMES = (
  "智能 校园 垃圾 分类 导航 灌溉 农业 医疗 健康 教育 学习 课堂 图书 管理 交通 出行 停车 物流 仓储 电商 社区 养老 " +
  "环境 监测 水质 空气 能源 电力 光伏 风电 储能 安全 预警 消防 应急 识别 检测 推荐 搜索 问答 翻译 语音 图像 视频 " +
  "文本 情感 舆情 金融 风控 信用 支付 区块 溯源 食品 药品 气象 地震 海洋 森林 野生 动物 植物 病虫 土壤 作物 " +
  "无人 机器 巡检 装配 质检 工业 制造 设备 故障 诊断 运维 网络 入侵 漏洞 隐私 加密 身份 认证 考勤 会议 办公 " +
  "旅游 景区 文化 博物 非遗 方言 诗词 音乐 绘画 体育 运动 健身 睡眠 心理 饮食 营养 康复 助残 盲人 听障 儿童 " +
  "老人 宠物 家居 照明 门禁 快递 外卖 二手 租房 招聘 就业 志愿 公益 捐赠 选课 排课 作业 考试 阅卷 实验 编程 " +
  "代码 评测 答疑 数字 孪生 地图 轨迹 定位 室内 虚拟 现实 增强 游戏 动画 模型 渲染 三维 重建 点云 雷达 传感"
).split(" ");

const VERBS = (
  "实现 设计 采用 利用 构建 提出 完成 支持 提供 优化 改进 分析 处理 识别 检测 预测 展示 部署 集成 调用 训练 " +
  "评估 验证 测试 记录 统计 上传 下载 推送 同步 存储 查询 生成 转换 解析 计算 比较 匹配 筛选 整合 维护 扩展 " +
  "降低 提高 保证 满足 解决 改善 加快 减少 增强 简化"
).split(" ");

const ADJS = (
  "高效 稳定 可靠 便捷 实时 准确 智能化 轻量级 模块化 可扩展 低成本 高精度 个性化 多维度 跨平台 自动化 安全 " +
  "友好 直观 灵活 完整 丰富 快速 精准 开放 统一 分布式 移动端 云端 本地"
).split(" ");

const NOUNS = (
  "系统 平台 模块 功能 界面 用户 数据 算法 模型 框架 架构 接口 服务 数据库 服务器 客户端 前端 后端 小程序 " +
  "应用 方案 流程 性能 效率 体验 需求 问题 结果 信息 资源 场景 技术 工具 组件 参数 特征 样本 准确率 响应时间 " +
  "并发量 可视化 报表 日志 权限 配置 终端 设备 传感器 摄像头 网关 协议 消息 队列 缓存 索引"
).split(" ");

const TECH = (
  "深度学习 卷积神经网络 循环神经网络 注意力机制 迁移学习 强化学习 知识图谱 自然语言处理 计算机视觉 边缘计算 " +
  "云计算 物联网 大数据 微服务 容器化 消息队列 关系型数据库 非关系型数据库 前后端分离 响应式布局 单页应用 " +
  "蓝牙低功耗 无线通信 嵌入式系统 单片机 树莓派 开源框架 决策树 随机森林 支持向量机 聚类算法 推荐算法 目标检测 " +
  "语义分割 光学字符识别 语音合成 语音识别 图数据库 时序数据库 负载均衡 身份认证 数据加密 区块链技术"
).split(" ");

const CONN =
  "同时 此外 另外 然后 因此 所以 并且 而且 其中 首先 其次 最后 通过 基于 针对 为了 在此基础上 与此同时 总之 一方面 另一方面".split(
    " ",
  );
const ADVS = "进一步 有效地 自动 快速地 充分 显著 逐步 主要 整体 持续 灵活地 合理地 实时地 准确地".split(" ");
const MEASURE = "多个 若干 大量 一系列 各类 不同 相关 主要 核心 关键 常见 典型".split(" ");

/** The contest's boilerplate: many works carry some of these word for word. */
export const TEMPLATE_SENTENCES = [
  "本作品严格遵守大赛章程和参赛规则，所有内容均由参赛团队独立完成，不存在抄袭和剽窃行为。",
  "作品中使用的开源代码和第三方组件均已在开源代码与组件使用情况说明中如实列出。",
  "本作品未在其他比赛中获奖，也未以任何形式公开发表。",
  "参赛团队承诺对作品的原创性负责，如有违规愿意承担相应责任。",
  "作品安装说明：请按照以下步骤完成环境配置、依赖安装和服务启动。",
  "指导教师在作品选题、方案论证和测试过程中给予了指导。",
  "本文档包括作品概述、需求分析、概要设计、详细设计、测试报告和安装说明等部分。",
  "如需运行本作品，请使用推荐的浏览器并确保网络连接正常。",
  "作品的全部源代码已按要求打包上传，演示视频时长不超过十分钟。",
  "团队成员分工明确，共同完成了需求调研、系统设计、编码实现和测试工作。",
  "以上内容真实有效，特此声明。",
  "本作品所用数据均来源于公开数据集或团队自行采集，不涉及个人隐私信息。",
];

export type Kind = "original" | "exact" | "light" | "rewrite10" | "rewrite20" | "rewrite30" | "template";

export interface SynthWork {
  id: number;
  year: number;
  contestId: number;
  topic: number;
  kind: Kind;
  /** the original a derived work was made from */
  source: number | null;
  /** share of characters changed (derived works) */
  changed: number;
  text: string;
}

const TOPICS = 60;

function zipfPicker<T>(r: Rng, xs: readonly T[], s = 1.0): () => T {
  const cum: number[] = [];
  let total = 0;
  for (let i = 0; i < xs.length; i++) cum.push((total += 1 / Math.pow(i + 1, s)));
  return () => {
    const x = r.next() * total;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (cum[m] < x) lo = m + 1;
      else hi = m;
    }
    return xs[lo];
  };
}

export class CorpusGenerator {
  readonly r: Rng;
  #topicWords: string[][] = [];
  #topicPick: Array<() => string> = [];
  #verb: () => string;
  #adj: () => string;
  #noun: () => string;
  #tech: () => string;
  #schoolTemplates: string[] = [];

  constructor(seed = 2026) {
    this.r = rng(seed);
    const r = this.r;
    this.#verb = zipfPicker(r, VERBS, 0.8);
    this.#adj = zipfPicker(r, ADJS, 0.8);
    this.#noun = zipfPicker(r, NOUNS, 0.8);
    this.#tech = zipfPicker(r, TECH, 0.9);
    for (let t = 0; t < TOPICS; t++) {
      const words = new Set<string>();
      const core = [r.pick(MORPHEMES), r.pick(MORPHEMES), r.pick(MORPHEMES)];
      while (words.size < 40) {
        const a = r.next() < 0.6 ? r.pick(core) : r.pick(MORPHEMES);
        const b = r.pick(MORPHEMES);
        if (a !== b) words.add(a + b);
      }
      for (const c of core) words.add(c);
      const list = [...words];
      this.#topicWords.push(list);
      this.#topicPick.push(zipfPicker(r, list, 0.7));
    }
    for (let i = 0; i < 40; i++) this.#schoolTemplates.push(this.paragraph(r.int(0, TOPICS - 1), 260));
  }

  get topics() {
    return TOPICS;
  }

  /** One sentence of topic t. */
  sentence(t: number): string {
    const r = this.r;
    const tw = this.#topicPick[t];
    const v = this.#verb;
    const a = this.#adj;
    const n = this.#noun;
    switch (r.int(0, 9)) {
      case 0:
        return `本${n()}${v()}${this.#tech()}，${v()}${tw()}${n()}的${a()}${n()}。`;
      case 1:
        return `${r.pick(CONN)}，${tw()}${n()}${r.pick(ADVS)}${v()}了${r.pick(MEASURE)}${tw()}${n()}。`;
      case 2:
        return `用户可以通过${a()}的${n()}${v()}${tw()}，${v()}${tw()}${n()}。`;
      case 3:
        return `${r.pick(CONN)}${tw()}的${n()}，我们${v()}了${a()}的${tw()}${n()}，${v()}${n()}${r.pick(ADVS)}${v()}。`;
      case 4:
        return `${tw()}${n()}采用${this.#tech()}和${this.#tech()}，${r.pick(ADVS)}${v()}${n()}的${n()}。`;
      case 5:
        return `经过${r.int(2, 30)}轮测试，${tw()}${n()}的${n()}${v()}到${r.int(60, 99)}%以上，${v()}了${a()}${n()}的${n()}。`;
      case 6:
        return `在${tw()}场景下，${n()}${r.pick(ADVS)}${v()}${r.pick(MEASURE)}${tw()}，${r.pick(CONN)}${v()}${a()}${n()}。`;
      case 7:
        return `${tw()}是${tw()}领域的${r.pick(MEASURE)}${n()}，${r.pick(CONN)}${n()}${v()}${a()}${tw()}${n()}具有${a()}意义。`;
      case 8:
        return `${r.pick(CONN)}，${v()}${tw()}${n()}的${r.pick(MEASURE)}${n()}，${v()}${a()}、${a()}的${n()}。`;
      default:
        return `${n()}由${tw()}${n()}、${tw()}${n()}和${n()}${n()}组成，${r.pick(ADVS)}${v()}${tw()}。`;
    }
  }

  paragraph(t: number, chars: number): string {
    let p = "";
    while (p.length < chars) p += this.sentence(t);
    return p;
  }

  /** An original work of topic t, 1200–3000 characters, with some boilerplate. */
  original(t: number, schoolTemplate: number | null): string {
    const r = this.r;
    const target = r.int(1200, 3000);
    const parts: string[] = [];
    parts.push(`${this.#topicPick[t]()}${this.#topicPick[t]()}${r.pick(["系统", "平台", "小程序", "管理系统", "助手"])}`);
    let len = 0;
    while (len < target) {
      const p = this.paragraph(t, r.int(150, 400));
      parts.push(p);
      len += p.length;
    }
    // Boilerplate: each work carries 0–4 of the contest's template sentences.
    const k = r.int(0, 4);
    for (let i = 0; i < k; i++) parts.splice(r.int(1, parts.length), 0, r.pick(TEMPLATE_SENTENCES));
    if (schoolTemplate !== null) parts.splice(1, 0, this.#schoolTemplates[schoolTemplate]);
    return parts.join("\n\n");
  }

  /** Changes `share` of the characters: words replaced by other words (and, for rewrites, sentences reordered). */
  edit(text: string, t: number, share: number, reorder: boolean): string {
    const r = this.r;
    let paragraphs = text.split("\n\n");
    if (reorder) {
      paragraphs = paragraphs.map((p) => {
        const s = p.split(/(?<=。)/);
        for (let i = 0; i < s.length / 4; i++) {
          const a = r.int(0, s.length - 1);
          const b = r.int(0, s.length - 1);
          [s[a], s[b]] = [s[b], s[a]];
        }
        return s.join("");
      });
    }
    const chars = [...paragraphs.join("\n\n")];
    const total = chars.length;
    let changed = 0;
    const pool = [this.#topicPick[t], this.#noun, this.#verb, this.#adj];
    while (changed < share * total) {
      const at = r.int(0, chars.length - 1);
      if (chars[at] === "\n") continue;
      const len = r.int(1, 3);
      const w = r.pick(pool)();
      const repl = [...w].slice(0, len);
      for (let i = 0; i < repl.length && at + i < chars.length; i++) {
        if (chars[at + i] === "\n") break;
        if (chars[at + i] !== repl[i]) {
          chars[at + i] = repl[i];
          changed++;
        }
      }
      // Now and then a character inserted or dropped, not only replaced.
      if (r.next() < 0.1) {
        if (r.next() < 0.5) chars.splice(at, 0, r.pick(pool)()[0]);
        else chars.splice(at, 1);
        changed++;
      }
    }
    return chars.join("");
  }
}

/**
 * The corpus, work by work (a generator: a million works never sit in memory at once). Kinds:
 * 2 % exact copies, 3 % light edits, 1 % each rewrites at 10 %, 20 %, 30 %, 3 % works of a
 * school template group, the rest originals. Derived works copy an earlier original kept in
 * a bounded pool.
 */
export function* corpus(n: number, seed = 2026): Generator<SynthWork> {
  const g = new CorpusGenerator(seed);
  const r = g.r;
  const pool: SynthWork[] = [];
  const POOL = 5000;
  for (let i = 0; i < n; i++) {
    const id = 2015000001 + i;
    const year = 2015 + Math.floor((i / n) * 12);
    const contestId = 1 + (i % 97);
    const x = r.next();
    let w: SynthWork;
    if (pool.length > 50 && x < 0.08) {
      const src = pool[r.int(0, pool.length - 1)];
      const kind: Kind = x < 0.02 ? "exact" : x < 0.05 ? "light" : x < 0.06 ? "rewrite10" : x < 0.07 ? "rewrite20" : "rewrite30";
      const share =
        kind === "exact"
          ? 0
          : kind === "light"
            ? 0.01 + r.next() * 0.04
            : kind === "rewrite10"
              ? 0.1
              : kind === "rewrite20"
                ? 0.2
                : 0.3;
      const text = kind === "exact" ? src.text : g.edit(src.text, src.topic, share, kind !== "light");
      w = { id, year, contestId, topic: src.topic, kind, source: src.id, changed: share, text };
    } else {
      const topic = r.int(0, g.topics - 1);
      const template = x < 0.11 ? r.int(0, 39) : null;
      w = {
        id,
        year,
        contestId,
        topic,
        kind: template === null ? "original" : "template",
        source: null,
        changed: 0,
        text: g.original(topic, template),
      };
      if (pool.length < POOL) pool.push(w);
      else if (r.next() < 0.05) pool[r.int(0, POOL - 1)] = w;
    }
    yield w;
  }
}
