/** Reference data of the competition (domain notes): categories, majors, award levels. */
import type { ContestLevel } from "../schema";

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
  { name: "(AI+)数媒静态设计", professional: ["080906", "130310", "130502", "130503", "130508"], children: ["平面设计", "环境设计", "产品设计", "服装设计"] },
  { name: "(AI+)数媒动漫与短片", professional: ["080906", "130310", "130305", "130309"], children: ["动画", "纪录片", "数字短片", "微电影"] },
  { name: "(AI+)数媒游戏与交互设计", professional: ["080906", "130310", "130508"], children: ["游戏设计", "交互媒体设计", "虚拟现实"] },
  { name: "(AI+)计算机音乐创作", professional: ["130202", "130203", "130204"], children: ["原创音乐", "视频音乐"] },
  { name: "国际生\"中华优秀传统文化\"数智创作", children: ["微视频", "数字绘画", "网页设计"] },
];

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
