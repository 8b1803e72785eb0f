/**
 * The mails of invitations: the invitation with its link (also on resend), and the reminder
 * before the answer-by date. The reminder cannot repeat the link (only the code's hash is
 * kept), so it points to the invitation mail and to 「我的邀请」 on /judgePool.
 */
import type { Mail } from "../mail/mailer";
import { beijingTime as bj } from "../../shared/time";

export interface MailFacts {
  to: string;
  name: string;
  contestName: string;
  categories: string[];
  message: string;
  answerBy: string;
  invitedBy: string;
}

export function invitationMail(publicUrl: string, f: MailFacts, code: string, resent = false): Mail {
  const link = `${publicUrl}/inviteJudge/${code}`;
  return {
    to: f.to,
    subject: `【赛务平台】评委邀请：${f.contestName}`,
    text:
      `${f.name}，您好：\n\n${f.invitedBy}邀请您担任「${f.contestName}」的评委，评审类别：${f.categories.join("、")}。\n` +
      (f.message.trim() ? `\n${f.message.trim()}\n` : "") +
      `\n请在 ${bj(f.answerBy)}（北京时间）前打开下面的链接答复（接受或谢绝）：\n${link}\n\n` +
      `没有平台账号的，可在链接页面直接创建评委账号（邮箱已由本邮件验证）；已有账号的请用本邮箱对应的账号登录后答复。` +
      `链接只能使用一次，仅限本邮箱对应的账号使用，请勿转发。` +
      (resent ? `\n\n这是重新发送的邀请，之前邮件中的链接已失效。` : "") +
      `\n`,
  };
}

export function reminderMail(publicUrl: string, f: MailFacts & { sentAt: string }): Mail {
  return {
    to: f.to,
    subject: `【赛务平台】评委邀请即将截止：${f.contestName}`,
    text:
      `${f.name}，您好：\n\n您于 ${bj(f.sentAt)} 收到「${f.contestName}」的评委邀请（评审类别：${f.categories.join("、")}），` +
      `答复截止时间为 ${bj(f.answerBy)}（北京时间），目前尚未答复。\n\n` +
      `请打开邀请邮件中的链接答复；已有评委账号的，也可登录后在「评委库 → 我的邀请」中答复：${publicUrl}/judgePool\n` +
      `如找不到邀请邮件，请联系${f.invitedBy}重新发送。\n`,
  };
}
