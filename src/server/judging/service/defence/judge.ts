/**
 * A judge's side of the defence: the sessions of the judge's groups, each with only the
 * works the judge may judge (the others answer 404), the defence material, and the judge's
 * score of a work (0–100, 强烈推荐/推荐/不推荐 and a comment), editable until the leader
 * signs off; every change appends to the contest's score log in the same transaction.
 */
import { conflict, forbidden, invalid, notFound } from "../../../../shared/errors";
import { DEFENCE_FILE_KIND, type JudgeSession, type MyScore, type ScoreBody } from "../../../../shared/judging/defence-schema";
import type { Db } from "../../../db";
import type { User } from "../../../db/schema";
import type { Handle } from "../../../work/repository";
import { contestJudges } from "../contest";
import { appendScoreLog } from "../score-log-store";
import { judgeable } from "./judgeable";
import {
  contestOf,
  findSession,
  lockSession,
  memberIds,
  NO_DEFENCE_WORK,
  NO_SESSION,
  NOT_JUDGED,
  sessionQuery,
  SIGNED,
  slotQuery,
  slotsOf,
  type SessionRow,
} from "./rows";
import { baseView, defenceFiles, workRef } from "./views";

/** The session for a judge of its group (member or leader) who still judges the contest; 404 otherwise. */
async function judgeSession(db: Handle, user: User, sessionId: number, info = NO_SESSION) {
  const s = await findSession(db, sessionId);
  if (!s) throw notFound(info);
  const members = await memberIds(db, s.group_id);
  const isMember = members.includes(user.id);
  const isLeader = s.leader_id === user.id;
  if ((!isMember && !isLeader) || !(await contestJudges(db, contestOf(s))).some((j) => j.id === user.id)) throw notFound(info);
  return { s, isMember, isLeader, members };
}

async function judgeSessionView(db: Handle, user: User, s: SessionRow): Promise<JudgeSession> {
  const slots = await slotsOf(db, s.id);
  const members = await memberIds(db, s.group_id);
  const mine = (await judgeable(db, contestOf(s), slots, [user.id])).get(user.id)!;
  const visible = slots.filter((x) => mine.has(Number(x.work_id)));
  const scores = visible.length
    ? await db
        .selectFrom("defence_score")
        .select(["slot_id", "score", "recommendation", "comment", "updated_at"])
        .where("judge_id", "=", user.id)
        .where(
          "slot_id",
          "in",
          visible.map((x) => x.id),
        )
        .execute()
    : [];
  const files = await defenceFiles(
    db,
    visible.map((x) => Number(x.work_id)),
  );
  const isMember = members.includes(user.id);
  return {
    ...baseView(s, slots, mine),
    isLeader: s.leader_id === user.id,
    isMember,
    slots: visible.map((x) => {
      const sc = scores.find((r) => r.slot_id === x.id);
      return {
        position: x.position,
        time: x.slot_time,
        work: workRef(x),
        files: files.get(Number(x.work_id)) ?? [],
        mine: sc
          ? { score: Number(sc.score), recommendation: sc.recommendation, comment: sc.comment, updatedAt: sc.updated_at }
          : null,
      };
    }),
    avoided: slots.length - visible.length,
    scored: isMember ? scores.length : 0,
  };
}

/** The defence sessions of the judge's groups in the contest. */
export async function mySessions(db: Db, user: User, contestId: number): Promise<JudgeSession[]> {
  const c = await db
    .selectFrom("contest")
    .select(["id", "name", "level", "school_id"])
    .where("id", "=", contestId)
    .executeTakeFirst();
  if (!c || !(await contestJudges(db, c)).some((j) => j.id === user.id)) throw notFound(NOT_JUDGED);
  const rows = await sessionQuery(db)
    .where("s.contest_id", "=", c.id)
    .where((eb) =>
      eb.or([
        eb("g.leader_id", "=", user.id),
        eb("s.group_id", "in", eb.selectFrom("judge_group_member").select("group_id").where("user_id", "=", user.id)),
      ]),
    )
    .orderBy("s.id")
    .execute();
  const out: JudgeSession[] = [];
  for (const s of rows) out.push(await judgeSessionView(db, user, s));
  return out;
}

export async function judgeSessionById(db: Db, user: User, sessionId: number): Promise<JudgeSession> {
  const { s } = await judgeSession(db, user, sessionId);
  return judgeSessionView(db, user, s);
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Saves the judge's score of one work; appends to the score log when anything changed. */
export async function saveScore(
  db: Db,
  user: User,
  sessionId: number,
  workId: number,
  body: ScoreBody,
): Promise<{ score: MyScore; changed: boolean }> {
  if (!Number.isFinite(body.score) || round1(body.score) !== body.score)
    throw invalid("score", "评分为 0–100 的数，最多保留一位小数");
  const comment = (body.comment ?? "").trim();
  return db.transaction().execute(async (trx) => {
    await lockSession(trx, sessionId);
    const { s, isMember } = await judgeSession(trx, user, sessionId, NO_DEFENCE_WORK);
    const slot = await slotQuery(trx).where("sl.session_id", "=", s.id).where("sl.work_id", "=", workId).executeTakeFirst();
    if (!slot || !(await judgeable(trx, contestOf(s), [slot], [user.id])).get(user.id)!.has(workId))
      throw notFound(NO_DEFENCE_WORK);
    if (!isMember) throw forbidden("您不是本组的评委成员，不能评分");
    if (s.signed_off_at) throw conflict(SIGNED);
    if (!s.draw_seed) throw conflict("答辩顺序尚未抽签，抽签后才能评分");
    const at = new Date().toISOString();
    const old = await trx
      .selectFrom("defence_score")
      .selectAll()
      .where("slot_id", "=", slot.id)
      .where("judge_id", "=", user.id)
      .executeTakeFirst();
    const same = old && Number(old.score) === body.score && old.recommendation === body.recommendation && old.comment === comment;
    if (!same) {
      if (old) {
        await trx
          .updateTable("defence_score")
          .set({ score: body.score, recommendation: body.recommendation, comment, updated_at: at })
          .where("id", "=", old.id)
          .execute();
      } else {
        await trx
          .insertInto("defence_score")
          .values({
            slot_id: slot.id,
            judge_id: user.id,
            score: body.score,
            recommendation: body.recommendation,
            comment,
            created_at: at,
            updated_at: at,
          })
          .execute();
      }
      await appendScoreLog(trx, {
        at,
        actorId: user.id,
        contestId: s.contest_id,
        workId,
        judgeId: user.id,
        action: "defence_score",
        score: body.score,
        comment,
        reason: body.recommendation,
      });
    }
    return {
      score: { score: body.score, recommendation: body.recommendation, comment, updatedAt: same ? old!.updated_at : at },
      changed: !same,
    };
  });
}

/** A defence file of a work the judge may judge in the session. */
export async function judgeDefenceFile(db: Db, user: User, sessionId: number, workId: number, fileId: number) {
  const { s } = await judgeSession(db, user, sessionId, NO_DEFENCE_WORK);
  const slot = await slotQuery(db).where("sl.session_id", "=", s.id).where("sl.work_id", "=", workId).executeTakeFirst();
  if (!slot || !(await judgeable(db, contestOf(s), [slot], [user.id])).get(user.id)!.has(workId)) throw notFound(NO_DEFENCE_WORK);
  const f = await db
    .selectFrom("work_file")
    .select(["id", "filename", "size", "mime", "sha256"])
    .where("id", "=", fileId)
    .where("work_id", "=", workId)
    .where("kind", "=", DEFENCE_FILE_KIND)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!f) throw notFound("答辩材料不存在");
  return f;
}
