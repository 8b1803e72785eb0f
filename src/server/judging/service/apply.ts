/**
 * applyAssignments: THE ONLY WRITER of judge_assignment rows. Automatic assignment,
 * manual assignment, replacement and removal all go through it, inside the caller's
 * transaction: it serialises writers of the contest, removes the given rows (never one a
 * judge has scored, draft or submitted: that refuses all of it), reloads the
 * snapshot as it is now and re-checks every new row with checkProposal (conflicts of
 * interest from conflict.ts and declared conflicts, the work's group, no duplicate, the
 * judges' capacity, the reviews a work needs) — one problem refuses all of it, nothing is
 * written — then inserts the rows with the group each work is judged in, and records the
 * change in the audit log.
 */
import { PostgresAdapter, type Transaction } from "kysely";
import { DomainError, notFound } from "../../../shared/errors";
import type { JudgingSettings } from "../../../shared/judging/schema";
import type { DB } from "../../db/schema";
import { record } from "../../common/audit";
import { lockContest } from "../../work/repository";
import { checkProposal, type Proposal, type ProposalProblem } from "../assign";
import { settingsOf, type ContestInfo } from "./contest";
import { loadSnapshot, type LoadedSnapshot } from "./snapshot";

/** Refused rows: the first problem as the sentence, all of them as data. */
export class AssignRefused extends DomainError {
  constructor(readonly problems: { kind: string; workId?: number; judgeId?: number; message: string }[]) {
    super(
      400,
      `不能分配：${problems[0].message}${problems.length > 1 ? `（共 ${problems.length} 个问题）` : ""}；本次未做任何更改`,
    );
  }
}

export interface ApplyArgs {
  contest: ContestInfo;
  userId: number;
  add: readonly Proposal[];
  /** assignment ids of the contest to remove first */
  remove?: readonly number[];
  settings?: JudgingSettings;
}

/** What the admin can do about each kind of refusal. */
const NEXT_STEP: Partial<Record<ProposalProblem["kind"], string>> = {
  conflict: "，请改选其他评委",
  not_in_group: "，请改选本组评委，或先在「设置分组」中把该评委加入本组",
  duplicate: "，无需重复分配",
  over_capacity: "，请改选其他评委，或在分配设置中提高每位评委最多作品数",
  over_needed: "，如需增加评委，请先移除一位或提高每件作品评审次数",
};

/** The pure check's sentences with the names an admin knows the judges and works by. */
function explain(p: ProposalProblem, s: LoadedSnapshot) {
  const judge = "judgeId" in p ? s.judges.find((j) => j.id === p.judgeId) : undefined;
  const work = "workId" in p ? s.works.get(p.workId) : undefined;
  let message = p.message;
  if (p.kind === "unknown_work") {
    const ungrouped = s.ungrouped.some((w) => w.id === p.workId);
    message = ungrouped
      ? `作品 ${p.workId}（${work?.name}）尚未分入评审组`
      : `作品 ${p.workId} 不在本赛事的评审作品中（省级及以上赛事须已通过形式审查）`;
  } else if (p.kind === "unknown_judge") {
    message = "所选用户不是本赛事的评委，请先在「评委与审核员」中把其加入本赛事";
  } else {
    // Judges by name (their user ids mean nothing to an admin), and what to do next.
    if (judge) message = message.replace(new RegExp(`评委 ${judge.id}(?!\\d) ?`, "g"), `评委「${judge.name}」`);
    if (work) message = message.replace(new RegExp(`作品 ${work.id}(?!\\d) ?`), `作品 ${work.id}「${work.name}」`);
    message += NEXT_STEP[p.kind] ?? "";
  }
  return { kind: p.kind, workId: "workId" in p ? p.workId : undefined, judgeId: "judgeId" in p ? p.judgeId : undefined, message };
}

export async function applyAssignments(trx: Transaction<DB>, args: ApplyArgs): Promise<{ added: number; removed: number }> {
  const c = args.contest;
  const remove = [...new Set(args.remove ?? [])];
  // The assignments to remove are locked before the contest, in id order: a judge's save
  // locks its assignment and then the contest (for the score log), so the same order here
  // means the two queue up instead of deadlocking (PostgreSQL; SQLite has one writer).
  if (remove.length && trx.getExecutor().adapter instanceof PostgresAdapter) {
    await trx
      .selectFrom("judge_assignment")
      .select("id")
      .where("contest_id", "=", c.id)
      .where("id", "in", remove)
      .orderBy("id")
      .forUpdate()
      .execute();
  }
  // Serialise the writers of one contest (PostgreSQL row lock; SQLite has one writer anyway).
  await lockContest(trx, c.id);
  if (remove.length) {
    const found = await trx
      .selectFrom("judge_assignment")
      .select(["id", "work_id", "judge_id"])
      .where("contest_id", "=", c.id)
      .where("id", "in", remove)
      .execute();
    if (found.length !== remove.length) throw notFound("分配记录不存在或已被移除，请刷新后重试");
    // A scored assignment (draft or submitted) stays: its score and log must keep their work and judge.
    const scored = await trx
      .selectFrom("judge_score")
      .innerJoin("work", "work.id", "judge_score.work_id")
      .innerJoin("app_user", "app_user.id", "judge_score.judge_id")
      .select(["judge_score.work_id", "judge_score.status", "work.name as work_name", "app_user.name as judge_name"])
      .where("judge_score.assignment_id", "in", remove)
      .orderBy("judge_score.work_id")
      .execute();
    if (scored.length) {
      const list = scored.map(
        (s) =>
          `评委「${s.judge_name}」已为作品 ${s.work_id}「${s.work_name}」评分（${s.status === "submitted" ? "已提交" : "草稿"}）`,
      );
      throw new DomainError(
        400,
        `不能移除分配：${list.slice(0, 3).join("；")}${list.length > 3 ? `等 ${list.length} 条` : ""}。已有评分的分配须保留，如评分有误请由赛事管理员退回后由评委修改；本次未做任何更改`,
      );
    }
    await trx.deleteFrom("judge_assignment").where("contest_id", "=", c.id).where("id", "in", remove).execute();
  }
  let added = 0;
  if (args.add.length) {
    const snapshot = await loadSnapshot(trx, c, args.settings ?? (await settingsOf(trx, c.id)));
    const problems = checkProposal(snapshot.input, args.add);
    if (problems.length) throw new AssignRefused(problems.map((p) => explain(p, snapshot)));
    const at = new Date().toISOString();
    const rows = args.add.map((p) => ({
      contest_id: c.id,
      work_id: p.workId,
      judge_id: p.judgeId,
      group_id: snapshot.works.get(p.workId)?.groupId ?? null,
      created_at: at,
      created_by: args.userId,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto("judge_assignment")
        .values(rows.slice(i, i + 500))
        .execute();
    added = rows.length;
  }
  const pairs = (list: readonly Proposal[]) =>
    list.length <= 20 ? list.map((p) => `${p.workId}→${p.judgeId}`) : `${list.length} 条`;
  await record(trx, args.userId, {
    entity: "judge_assignment",
    entityId: c.id,
    action: remove.length && !added ? "delete" : "assign",
    changes: { ...(added ? { added: [null, pairs(args.add)] } : {}), ...(remove.length ? { removed: [remove, null] } : {}) },
  });
  return { added, removed: remove.length };
}
