/** Personal data retention (issue 28): root's period and what the last purge run did. */
import { Type, type Static } from "typebox";

export const MAX_RETENTION_DAYS = 36500;

export const RetentionBody = Type.Object({
  days: Type.Union([Type.Integer({ minimum: 1, maximum: MAX_RETENTION_DAYS }), Type.Null()], {
    title: "保留期限（天）",
    description: "赛事结束后保留联系信息的天数；null 表示不清除",
  }),
});
export type RetentionBody = Static<typeof RetentionBody>;

/** The counts of one purge run. */
export const RetentionReport = Type.Object({
  cutoff: Type.String(),
  contests: Type.Integer(),
  userPhones: Type.Integer(),
  userEmails: Type.Integer(),
  complaintContacts: Type.Integer(),
  evidence: Type.Integer(),
  blobs: Type.Integer(),
  visitorCodes: Type.Integer(),
  judgePersons: Type.Integer(),
});
export type RetentionReport = Static<typeof RetentionReport>;

export const RetentionView = Type.Object({
  days: Type.Union([Type.Integer(), Type.Null()]),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
  lastRunAt: Type.Union([Type.String(), Type.Null()]),
  lastReport: Type.Union([RetentionReport, Type.Null()]),
});
export type RetentionView = Static<typeof RetentionView>;

/** What a report's counts mean, in the order shown. */
export const REPORT_LABELS: Record<Exclude<keyof RetentionReport, "cutoff">, string> = {
  contests: "涉及赛事",
  userPhones: "清除的用户手机号",
  userEmails: "清除的用户邮箱",
  complaintContacts: "清除联系方式的申诉",
  evidence: "删除的申诉证据",
  blobs: "删除的文件",
  visitorCodes: "删除的访客验证码和凭证",
  judgePersons: "清除联系方式的评委库人员",
};
