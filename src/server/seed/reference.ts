/** Reference data of the competition (domain notes): categories, majors, award levels. */
import type { ContestLevel } from "../db/schema";

export interface CategorySeed {
  name: string;
  professional?: string[];
  children: string[];
}

/** 11 大类 (2026 names) with some 小类. */
export const CATEGORIES: CategorySeed[] = [
  { name: "软件应用与开发", children: ["Web应用与开发", "管理信息系统", "移动应用开发", "算法设计与应用", "信创", "区块链"] },
  { name: "微课与AI辅助教学", children: ["计算机基础与应用类课程微课", "中小学数学及自然科学微课", "AI辅助学习"] },
  { name: "物联网应用", children: ["城市管理", "医药卫生", "运动健身", "智慧农业"] },
  { name: "大数据应用", children: ["大数据实践赛", "大数据主题赛"] },
  { name: "人工智能应用", children: ["人工智能实践赛", "人工智能挑战赛"] },
  { name: "(AI+)信息可视化设计", children: ["信息图形设计", "动态信息影像", "交互信息设计", "数据可视化"] },
  {
    name: "(AI+)数媒静态设计",
    professional: ["080906", "130310", "130502", "130503", "130508"],
    children: ["平面设计", "环境设计", "产品设计", "服装设计"],
  },
  {
    name: "(AI+)数媒动漫与短片",
    professional: ["080906", "130310", "130305", "130309"],
    children: ["动画", "纪录片", "数字短片", "微电影"],
  },
  {
    name: "(AI+)数媒游戏与交互设计",
    professional: ["080906", "130310", "130508"],
    children: ["游戏设计", "交互媒体设计", "虚拟现实"],
  },
  { name: "(AI+)计算机音乐创作", professional: ["130202", "130203", "130204"], children: ["原创音乐", "视频音乐"] },
  { name: '国际生"中华优秀传统文化"数智创作', children: ["微视频", "数字绘画", "网页设计"] },
];

export interface ScoringSeed {
  rubric: { name: string; maxPoints: number; description: string }[];
  deductions: { name: string; points: number }[];
}

const ORIGINALITY = { name: "非原创", points: 10 };
const DIGITAL_MEDIA: ScoringSeed = {
  rubric: [
    { name: "主题与内容", maxPoints: 30, description: "紧扣大赛主题，内容积极健康，立意新颖，表达完整" },
    { name: "美工与创意", maxPoints: 25, description: "构图、色彩、造型和版式美观协调，创意独特" },
    { name: "技术与创新", maxPoints: 30, description: "软件工具与技术运用恰当、熟练，AI 工具使用合理并如实说明" },
    { name: "作品完整性", maxPoints: 15, description: "作品完成度高，提交材料齐全规范" },
  ],
  deductions: [
    { name: "作品无法展示", points: 10 },
    { name: "偏离主题", points: 10 },
  ],
};

/** The scoring standard of each 大类 (domain notes); max points add up to 100. */
export const SCORING: Record<string, ScoringSeed> = {
  软件应用与开发: {
    rubric: [
      { name: "主题与内容", maxPoints: 20, description: "选题有实际应用价值，需求分析清楚" },
      { name: "方案概要", maxPoints: 25, description: "总体设计合理，架构、模块划分和技术路线清晰" },
      { name: "核心内容", maxPoints: 35, description: "核心功能实现完整、运行稳定，界面友好，测试充分" },
      { name: "技术与创新", maxPoints: 20, description: "技术难度和创新性，原创程度" },
    ],
    deductions: [ORIGINALITY],
  },
  微课与AI辅助教学: {
    rubric: [
      { name: "主题与内容", maxPoints: 20, description: "选题小而精，知识点讲解科学准确" },
      { name: "教学设计", maxPoints: 20, description: "教学目标明确，教学过程设计合理" },
      { name: "微视频", maxPoints: 20, description: "视频结构完整，讲解清晰，时长适当" },
      { name: "美工", maxPoints: 10, description: "画面美观，字幕、配色和版式规范" },
      { name: "技术", maxPoints: 20, description: "录制、剪辑和交互技术运用得当" },
      { name: "整体协调", maxPoints: 10, description: "各部分风格统一，声画同步" },
    ],
    deductions: [ORIGINALITY],
  },
  物联网应用: {
    rubric: [
      { name: "选题与需求", maxPoints: 20, description: "应用场景明确，需求分析充分" },
      { name: "系统设计", maxPoints: 25, description: "感知、传输和应用各层设计合理" },
      { name: "功能实现", maxPoints: 30, description: "软硬件功能完整，运行稳定，测试充分" },
      { name: "技术与创新", maxPoints: 15, description: "技术难度和创新点" },
      { name: "文档与演示", maxPoints: 10, description: "文档规范，演示清楚" },
    ],
    deductions: [ORIGINALITY],
  },
  大数据应用: {
    rubric: [
      { name: "选题与数据", maxPoints: 20, description: "问题有意义，数据来源合法可靠" },
      { name: "数据处理与分析", maxPoints: 30, description: "数据清洗、建模和分析方法正确" },
      { name: "结果与可视化", maxPoints: 20, description: "结论有数据支撑，展示直观" },
      { name: "应用价值", maxPoints: 15, description: "成果可落地，有实际效益" },
      { name: "技术与创新", maxPoints: 15, description: "技术难度和创新性" },
    ],
    deductions: [ORIGINALITY],
  },
  人工智能应用: {
    rubric: [
      { name: "选题与场景", maxPoints: 20, description: "应用场景真实，问题定义清楚" },
      { name: "模型与算法", maxPoints: 30, description: "模型和算法选择合理，训练与调优充分" },
      { name: "系统实现", maxPoints: 25, description: "系统完整可运行，工程质量好" },
      { name: "效果与评估", maxPoints: 15, description: "评估指标合理，效果有对比" },
      { name: "创新性", maxPoints: 10, description: "方法或应用上的创新" },
    ],
    deductions: [ORIGINALITY],
  },
  "(AI+)信息可视化设计": {
    rubric: [
      { name: "主题与内容", maxPoints: 30, description: "主题明确，信息准确、有价值" },
      { name: "信息设计", maxPoints: 25, description: "信息结构清晰，图形化表达恰当" },
      { name: "视觉表达", maxPoints: 25, description: "视觉美观，风格统一" },
      { name: "技术与创新", maxPoints: 20, description: "工具与技术运用熟练，表现形式新颖" },
    ],
    deductions: DIGITAL_MEDIA.deductions,
  },
  "(AI+)数媒静态设计": DIGITAL_MEDIA,
  "(AI+)数媒动漫与短片": DIGITAL_MEDIA,
  "(AI+)数媒游戏与交互设计": DIGITAL_MEDIA,
  "(AI+)计算机音乐创作": {
    rubric: [
      { name: "主题与立意", maxPoints: 20, description: "主题鲜明，立意积极" },
      { name: "音乐创作", maxPoints: 35, description: "旋律、和声、配器和结构完整，有原创性" },
      { name: "制作技术", maxPoints: 25, description: "编曲、混音和母带处理的技术水平" },
      { name: "艺术表现", maxPoints: 20, description: "整体艺术感染力" },
    ],
    deductions: [ORIGINALITY],
  },
  '国际生"中华优秀传统文化"数智创作': {
    rubric: [
      { name: "文化内涵", maxPoints: 30, description: "准确体现中华优秀传统文化" },
      { name: "创意与表现", maxPoints: 30, description: "构思新颖，表现力强" },
      { name: "技术运用", maxPoints: 25, description: "数字技术和 AI 工具运用得当" },
      { name: "作品完整性", maxPoints: 15, description: "作品完整，材料齐全" },
    ],
    deductions: [ORIGINALITY],
  },
};

export interface AttachmentSeed {
  key: string;
  name: string;
  required: boolean;
  maxSizeMB: number;
  types: string[];
}

/** The 2026 submission package of every 大类; static designs need no demo video. */
export function attachmentsOf(category: string): AttachmentSeed[] {
  return [
    { key: "defense", name: "作品与答辩材料", required: true, maxSizeMB: 200, types: ["pdf", "ppt", "pptx", "zip"] },
    { key: "source", name: "素材与源码", required: true, maxSizeMB: 500, types: ["zip", "rar", "7z"] },
    { key: "docs", name: "设计与开发文档", required: true, maxSizeMB: 50, types: ["pdf", "doc", "docx"] },
    { key: "video", name: "作品演示视频", required: category !== "(AI+)数媒静态设计", maxSizeMB: 500, types: ["mp4"] },
  ];
}

export const MAJORS: { code: string; name: string; discipline: string }[] = [
  { code: "080901", name: "计算机科学与技术", discipline: "工学" },
  { code: "080902", name: "软件工程", discipline: "工学" },
  { code: "080903", name: "网络工程", discipline: "工学" },
  { code: "080904K", name: "信息安全", discipline: "工学" },
  { code: "080905", name: "物联网工程", discipline: "工学" },
  { code: "080906", name: "数字媒体技术", discipline: "工学" },
  { code: "080910T", name: "数据科学与大数据技术", discipline: "工学" },
  { code: "080717T", name: "人工智能", discipline: "工学" },
  { code: "120102", name: "信息管理与信息系统", discipline: "管理学" },
  { code: "130202", name: "音乐学", discipline: "艺术学" },
  { code: "130203", name: "作曲与作曲技术理论", discipline: "艺术学" },
  { code: "130204", name: "舞蹈表演", discipline: "艺术学" },
  { code: "130305", name: "广播电视编导", discipline: "艺术学" },
  { code: "130309", name: "播音与主持艺术", discipline: "艺术学" },
  { code: "130310", name: "动画", discipline: "艺术学" },
  { code: "130502", name: "视觉传达设计", discipline: "艺术学" },
  { code: "130503", name: "环境设计", discipline: "艺术学" },
  { code: "130508", name: "数字媒体艺术", discipline: "艺术学" },
  { code: "040104", name: "教育技术学", discipline: "教育学" },
  { code: "070101", name: "数学与应用数学", discipline: "理学" },
];

export const AWARD_LEVELS: { contest_level: ContestLevel; name: string; kind: string; ratio: number | null; sort: number }[] = (
  ["national", "provincial", "school"] as ContestLevel[]
).flatMap((level) => [
  { contest_level: level, name: "一等奖", kind: "work", ratio: 0.1, sort: 1 },
  { contest_level: level, name: "二等奖", kind: "work", ratio: 0.2, sort: 2 },
  { contest_level: level, name: "三等奖", kind: "work", ratio: 0.3, sort: 3 },
  { contest_level: level, name: "优秀奖", kind: "work", ratio: null, sort: 4 },
  { contest_level: level, name: "优秀指导教师", kind: "teacher", ratio: null, sort: 5 },
  { contest_level: level, name: "优秀组织奖", kind: "organisation", ratio: null, sort: 6 },
]);

export const PROVINCES = ["浙江省", "江苏省"] as const;

/** ~20 real-sounding schools in two provinces. */
export const DEMO_SCHOOLS: { name: string; code: string; province: string; former?: string[] }[] = [
  { name: "浙江大学", code: "10335", province: "浙江省" },
  { name: "浙江工业大学", code: "10337", province: "浙江省" },
  { name: "浙江师范大学", code: "10345", province: "浙江省" },
  { name: "宁波大学", code: "11646", province: "浙江省" },
  { name: "杭州电子科技大学", code: "10336", province: "浙江省", former: ["杭州电子工业学院"] },
  { name: "浙江理工大学", code: "10338", province: "浙江省", former: ["浙江工程学院"] },
  { name: "温州大学", code: "10351", province: "浙江省" },
  { name: "浙江工商大学", code: "10353", province: "浙江省", former: ["杭州商学院"] },
  { name: "中国计量大学", code: "10356", province: "浙江省", former: ["中国计量学院"] },
  { name: "浙江财经大学", code: "10347", province: "浙江省" },
  { name: "南京大学", code: "10284", province: "江苏省" },
  { name: "东南大学", code: "10286", province: "江苏省" },
  { name: "南京航空航天大学", code: "10287", province: "江苏省" },
  { name: "南京理工大学", code: "10288", province: "江苏省" },
  { name: "苏州大学", code: "10285", province: "江苏省" },
  { name: "江南大学", code: "10295", province: "江苏省", former: ["无锡轻工大学"] },
  { name: "南京师范大学", code: "10319", province: "江苏省" },
  { name: "扬州大学", code: "11117", province: "江苏省" },
  { name: "南京邮电大学", code: "10293", province: "江苏省" },
  { name: "江苏大学", code: "10299", province: "江苏省" },
];
