/**
 * The print pages' data: the registration form (作品报名表) and the copyright and
 * originality statement (版权与原创声明), fetched by /print/Registration/:workId and
 * /print/Copyright/:workId with POST { work: <workId> }. The statement's wording lives
 * here so the page prints exactly what the server vouches for.
 */
import { Type, type Static } from "typebox";
import { WorkId, WorkTextView } from "./schema";

const Nullable = <T extends import("typebox").TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const PrintBody = Type.Object({ work: WorkId });

const PrintContest = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  level: Type.String(),
  levelName: Type.String(),
  year: Type.Integer(),
});
const PrintSchool = Type.Object({ id: Type.Integer(), name: Type.String(), code: Type.String(), province: Type.String() });
const PrintPerson = Type.Object({
  rank: Type.Integer(),
  name: Type.String(),
  school: Type.String(),
  memberNo: Nullable(Type.String()),
  majorCode: Nullable(Type.String()),
  majorName: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
});

export const RegistrationPrint = Type.Object({
  work: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    statusName: Type.String(),
    categoryName: Type.String(),
    subcategoryName: Nullable(Type.String()),
    groupName: Type.String(),
    ...WorkTextView,
    submittedAt: Nullable(Type.String()),
  }),
  contest: PrintContest,
  school: PrintSchool,
  authors: Type.Array(PrintPerson),
  teachers: Type.Array(PrintPerson),
  printedAt: Type.String(),
});
export type RegistrationPrint = Static<typeof RegistrationPrint>;

export const CopyrightPrint = Type.Object({
  work: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    categoryName: Type.String(),
    subcategoryName: Nullable(Type.String()),
  }),
  contest: PrintContest,
  school: PrintSchool,
  authors: Type.Array(PrintPerson),
  teachers: Type.Array(PrintPerson),
  /** the statement's paragraphs, with the work's data filled in */
  statement: Type.Array(Type.String()),
  printedAt: Type.String(),
});
export type CopyrightPrint = Static<typeof CopyrightPrint>;

/** The copyright and originality statement of a work. */
export function copyrightStatement(p: {
  workId: number;
  workName: string;
  contestName: string;
  schoolName: string;
  authorNames: string[];
}): string[] {
  const authors = p.authorNames.join("、");
  return [
    `我们（${authors}）是${p.schoolName}的学生，以作品《${p.workName}》（作品编号 ${p.workId}）参加${p.contestName}。`,
    "我们郑重声明：本作品是我们在指导教师指导下独立完成的原创作品，作品中不存在抄袭、剽窃他人成果的内容；引用他人的素材、代码、组件与资料均已在作品中注明来源，并符合其许可协议。",
    "作品中使用 AI 工具的情况已在《AI工具使用声明》中如实、完整说明；如有虚假陈述，我们接受降低奖项等级或取消获奖资格的处理。",
    "本作品未同时以相同或相近内容参加本届大赛的其他类别（一稿多投），也未以相同内容在其他同类赛事中获奖。",
    "我们同意大赛组织方在大赛相关的宣传、展示、出版和教学研究中，非商业性地使用本作品及其介绍材料，并署作者姓名；作品的著作权仍归作者所有。",
    "如因本作品的版权或原创性问题引起纠纷，由作者承担全部责任，与大赛组织方无关。",
  ];
}
