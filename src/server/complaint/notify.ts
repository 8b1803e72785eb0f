/**
 * Mails of the complaint steps: the filer hears of a refusal, a decision and the confirmed
 * arbitration; the work's first author hears of the decision and the arbitration — never
 * who filed. Without SMTP they land in the outbox like every other mail.
 */
import {
  ARBITRATION_OUTCOME_NAMES,
  COMPLAINT_TYPE_NAMES,
  DECISION_ACTION_NAMES,
  DECISION_OUTCOME_NAMES,
  type ArbitrationOutcome,
  type ComplaintAction,
  type ComplaintType,
  type DecisionAction,
  type DecisionOutcome,
} from "../../shared/complaint/states";
import type { Mail } from "../mail/mailer";
import { plainText } from "../richtext/sanitize";
import { beijingTime as bj } from "../../shared/time";
import type { ComplaintRow, Handle } from "./scope";

async function filerEmail(db: Handle, c: ComplaintRow): Promise<string | null> {
  if (c.filer_user_id === null) return c.filer_email;
  return (await db.selectFrom("app_user").select("email").where("id", "=", c.filer_user_id).executeTakeFirst())?.email ?? null;
}

async function firstAuthor(db: Handle, workId: number) {
  return db
    .selectFrom("work_author")
    .innerJoin("app_user", "app_user.id", "work_author.user_id")
    .select(["app_user.id", "app_user.name", "app_user.email"])
    .where("work_author.work_id", "=", workId)
    .where("work_author.rank", "=", 1)
    .executeTakeFirst();
}

const workName = async (db: Handle, id: number) =>
  (await db.selectFrom("work").select("name").where("id", "=", id).executeTakeFirst())?.name ?? String(id);

export async function stepMails(db: Handle, publicUrl: string, action: ComplaintAction, c: ComplaintRow): Promise<Mail[]> {
  if (action !== "refuse") return [];
  const to = await filerEmail(db, c);
  if (!to) return [];
  const kind = COMPLAINT_TYPE_NAMES[c.type as ComplaintType];
  return [
    {
      to,
      subject: `【赛务平台】您的${kind} #${c.id} 不予受理`,
      text: `您好：\n\n您对作品 ${c.work_id}「${await workName(db, c.work_id)}」提出的${kind}（编号 ${c.id}）不予受理，理由：\n${plainText(c.refusal ?? "", 2000)}\n\n查看详情：${publicUrl}/complaint\n`,
    },
  ];
}

/** The decision (decide) or the confirmed arbitration (confirm): to the filer and the first author. */
export async function decisionMails(
  db: Handle,
  publicUrl: string,
  c: ComplaintRow,
  action: "decide" | "confirm",
): Promise<Mail[]> {
  const kind = COMPLAINT_TYPE_NAMES[c.type as ComplaintType];
  const name = await workName(db, c.work_id);
  const decision = `结论：${DECISION_OUTCOME_NAMES[c.decision_outcome as DecisionOutcome] ?? ""}；处理：${DECISION_ACTION_NAMES[c.decision_action as DecisionAction] ?? ""}`;
  const body =
    action === "decide"
      ? `关于作品 ${c.work_id}「${name}」的${kind}（编号 ${c.id}）已作出决定。\n${decision}\n理由：${plainText(c.decision_text ?? "", 2000)}\n${c.decision_effect ? `处理结果：${c.decision_effect}\n` : ""}\n对决定不服的，可在 ${c.arbitration_due_at ? bj(c.arbitration_due_at) : ""} 前申请仲裁。`
      : `关于作品 ${c.work_id}「${name}」的${kind}（编号 ${c.id}）的仲裁结果已确认生效。\n仲裁结论：${ARBITRATION_OUTCOME_NAMES[c.arb_outcome as ArbitrationOutcome] ?? ""}${c.arb_outcome === "revise" ? `（${DECISION_OUTCOME_NAMES[c.arb_revised_outcome as DecisionOutcome]}，${DECISION_ACTION_NAMES[c.arb_revised_action as DecisionAction]}）` : ""}\n理由：${plainText(c.arb_text ?? "", 2000)}\n${c.arb_effect ? `处理结果：${c.arb_effect}\n` : ""}仲裁结果为最终结果。`;
  const subject = action === "decide" ? `【赛务平台】${kind} #${c.id} 的处理决定` : `【赛务平台】${kind} #${c.id} 的仲裁结果`;
  const out: Mail[] = [];
  const filer = await filerEmail(db, c);
  if (filer) out.push({ to: filer, subject, text: `您好：\n\n${body}\n\n查看详情：${publicUrl}/complaint\n` });
  const author = await firstAuthor(db, c.work_id);
  if (author?.email && author.email !== filer)
    out.push({
      to: author.email,
      subject,
      text: `${author.name}，您好：\n\n${body}\n\n查看详情：${publicUrl}/complaint-view/view-complaint\n`,
    });
  return out;
}
