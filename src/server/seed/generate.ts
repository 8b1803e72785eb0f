/**
 * Deterministic generators of realistic Chinese data for large data sets (benchmarks):
 * people's names, schools, work titles. Pure: a seed in, the same rows out.
 */

/** mulberry32: a small, fast, seedable PRNG. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
  };
}
export type Rng = ReturnType<typeof rng>;

const SURNAMES =
  "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤欧阳上官司马诸葛";
const COMPOUND = ["欧阳", "上官", "司马", "诸葛"];
const GIVEN =
  "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍鹏辉玲建宇浩然子轩梓涵一诺欣怡思远嘉怡雨桐俊杰晨阳若曦宇航佳琪博文天佑心悦泽宇梦琪诗涵皓轩语嫣明轩";

export function personName(r: Rng): string {
  const single = SURNAMES.slice(0, SURNAMES.length - COMPOUND.join("").length);
  const surname = r.next() < 0.01 ? r.pick(COMPOUND) : single[r.int(0, single.length - 1)];
  const len = r.next() < 0.3 ? 1 : 2;
  let given = "";
  for (let i = 0; i < len; i++) given += GIVEN[r.int(0, GIVEN.length - 1)];
  return surname + given;
}

export const PROVINCE_CITIES: Record<string, string[]> = {
  北京市: ["北京"],
  上海市: ["上海"],
  天津市: ["天津"],
  重庆市: ["重庆"],
  浙江省: ["杭州", "宁波", "温州", "绍兴", "湖州", "嘉兴", "金华", "台州"],
  江苏省: ["南京", "苏州", "无锡", "常州", "扬州", "徐州", "南通", "镇江"],
  广东省: ["广州", "深圳", "珠海", "汕头", "佛山", "东莞", "湛江"],
  山东省: ["济南", "青岛", "烟台", "潍坊", "临沂", "威海"],
  湖北省: ["武汉", "宜昌", "襄阳", "荆州", "黄冈"],
  湖南省: ["长沙", "湘潭", "衡阳", "岳阳", "常德"],
  四川省: ["成都", "绵阳", "宜宾", "南充", "乐山"],
  河南省: ["郑州", "洛阳", "开封", "新乡", "南阳"],
  陕西省: ["西安", "宝鸡", "咸阳", "延安"],
  福建省: ["福州", "厦门", "泉州", "漳州"],
  安徽省: ["合肥", "芜湖", "蚌埠", "安庆"],
  辽宁省: ["沈阳", "大连", "鞍山", "锦州"],
};
const SCHOOL_KINDS = [
  "大学",
  "理工大学",
  "师范大学",
  "科技大学",
  "工业大学",
  "财经大学",
  "学院",
  "职业技术学院",
  "信息工程学院",
  "医科大学",
];

/** `count` distinct schools spread over the provinces, with 5-digit codes. */
export function schools(r: Rng, count: number): { name: string; code: string; province: string }[] {
  const out: { name: string; code: string; province: string }[] = [];
  const seen = new Set<string>();
  const provinces = Object.keys(PROVINCE_CITIES);
  for (let i = 0; out.length < count; i++) {
    const province = provinces[i % provinces.length];
    const city = r.pick(PROVINCE_CITIES[province]);
    let name = city + r.pick(SCHOOL_KINDS);
    for (let k = 2; seen.has(name); k++)
      name = `${city}第${"二三四五六七八九十"[Math.min(k - 2, 8)]}${r.pick(SCHOOL_KINDS)}`.replace(
        /(第.)(.*)/,
        `$1${k > 10 ? k : ""}$2`,
      );
    seen.add(name);
    out.push({ name, code: String(20000 + out.length).padStart(5, "0"), province });
  }
  return out;
}

const TITLE_HEADS = [
  "智慧",
  "云端",
  "数字",
  "AI",
  "绿色",
  "乡村振兴",
  "非遗",
  "红色",
  "校园",
  "银发",
  "碳中和",
  "青少年",
  "城市",
  "古韵",
  "星河",
  "海洋",
];
const TITLE_SUBJECTS = [
  "助农",
  "文旅",
  "康养",
  "教育",
  "交通",
  "社区",
  "图书馆",
  "博物馆",
  "垃圾分类",
  "心理健康",
  "志愿服务",
  "实验室",
  "食堂",
  "宿舍",
  "非遗传承",
  "诗词",
];
const TITLE_TAILS = [
  "平台",
  "小程序",
  "管理系统",
  "可视化大屏",
  "交互游戏",
  "微课",
  "动画短片",
  "数字海报",
  "监测系统",
  "推荐系统",
  "助手",
  "APP",
];

export function workTitle(r: Rng): string {
  return `${r.pick(TITLE_HEADS)}${r.pick(TITLE_SUBJECTS)}${r.pick(TITLE_TAILS)}`;
}
