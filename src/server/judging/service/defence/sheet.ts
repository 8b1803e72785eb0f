/**
 * The group sheet of a defence session: the leader (专家组长) and the contest admin see every
 * member's score, the mean, the counts of each recommendation and the ranking; the leader
 * signs off (missing scores only with a confirming note), after which the session is
 * read-only until the contest admin reopens it.
 */
import { conflict, forbidden, invalid, notFound } from "../../../../shared/errors";
import {
  RECOMMENDATION_NAMES,
  type GroupSheet,
  type Recommendation,
  type SheetRow,
  type SignOffBody,
} from "../../../../shared/judging/defence-schema";
import type { Db } from "../../../db";
import type { User } from "../../../db/schema";
import { record } from "../../../common/audit";
import type { Handle } from "../../../work/repository";
import { contestJudges } from "../contest";
import { judgeable } from "./judgeable";
import { contestOf, findSession, isManager, lockSession, NO_SHEET, slotsOf, type SessionRow } from "./rows";
import { baseView, workRef } from "./views";

async function sheetAccess(db: Handle, user: User, sessionId: number) {
  const s = await findSession(db, sessionId);
  if (!s) throw notFound(NO_SHEET);
  if (await isManager(db, user, s.contest_id)) return { s, asLeader: false };
  if (s.leader_id === user.id && (await contestJudges(db, contestOf(s))).some((j) => j.id === user.id))
    return { s, asLeader: true };
  throw notFound(NO_SHEET);
}

interface Consolidated {
  rows: (SheetRow & { hidden: boolean })[];
  members: GroupSheet["members"];
  /** missing scores per member: names and work ids (all works) */
  missing: Map<number, { name: string; workIds: number[] }>;
}

async function consolidate(db: Handle, s: SessionRow, viewerId: number | null): Promise<Consolidated> {
  const c = contestOf(s);
  const slots = await slotsOf(db, s.id);
  const members = await db
    .selectFrom("judge_group_member as m")
    .innerJoin("app_user as u", "u.id", "m.user_id")
    .select(["u.id", "u.name"])
    .where("m.group_id", "=", s.group_id)
    .orderBy("u.name")
    .orderBy("u.id")
    .execute();
  const ids = members.map((m) => m.id);
  const viewerCan = viewerId !== null ? (await judgeable(db, c, slots, [viewerId])).get(viewerId)! : null;
  const can = await judgeable(db, c, slots, ids);
  const scores = slots.length
    ? await db
        .selectFrom("defence_score as ds")
        .innerJoin("app_user as u", "u.id", "ds.judge_id")
        .select(["ds.slot_id", "ds.judge_id", "u.name", "ds.score", "ds.recommendation", "ds.comment", "ds.updated_at"])
        .where(
          "ds.slot_id",
          "in",
          slots.map((x) => x.id),
        )
        .orderBy("u.name")
        .execute()
    : [];
  const missing = new Map<number, { name: string; workIds: number[] }>();
  const rows = slots
    .filter((x) => x.status !== "disqualified")
    .map((x) => {
      const workId = Number(x.work_id);
      const own = scores.filter((r) => r.slot_id === x.id);
      const expected = members.filter((m) => can.get(m.id)!.has(workId));
      const lacking = expected.filter((m) => !own.some((r) => r.judge_id === m.id));
      for (const m of lacking) {
        const e = missing.get(m.id) ?? { name: m.name, workIds: [] };
        e.workIds.push(workId);
        missing.set(m.id, e);
      }
      const mean = own.length ? Math.round((own.reduce((a, r) => a + Number(r.score), 0) / own.length) * 100) / 100 : null;
      const counts = { strong: 0, recommend: 0, not: 0 };
      for (const r of own) counts[r.recommendation as Recommendation]++;
      return {
        hidden: viewerCan !== null && !viewerCan.has(workId),
        position: x.position,
        time: x.slot_time,
        work: workRef(x),
        scores: own.map((r) => ({
          judge: { id: r.judge_id, name: r.name },
          score: Number(r.score),
          recommendation: r.recommendation,
          comment: r.comment,
          updatedAt: r.updated_at,
        })),
        missing: lacking.map((m) => ({ id: m.id, name: m.name })),
        avoiding: members.length - expected.length,
        mean,
        counts,
        rank: null as number | null,
      };
    });
  return {
    rows,
    members: members.map((m) => {
      const expected = slots.filter((x) => x.status !== "disqualified" && can.get(m.id)!.has(Number(x.work_id))).length;
      return { id: m.id, name: m.name, scored: scores.filter((r) => r.judge_id === m.id).length, expected };
    }),
    missing,
  };
}

export async function groupSheet(db: Db, user: User, sessionId: number): Promise<GroupSheet> {
  const { s, asLeader } = await sheetAccess(db, user, sessionId);
  const slots = await slotsOf(db, s.id);
  const { rows, members } = await consolidate(db, s, asLeader ? user.id : null);
  const hidden = rows.filter((r) => r.hidden);
  const shown = rows.filter((r) => !r.hidden);
  // Standard competition ranking by mean (1, 2, 2, 4) among the shown works with a score.
  const ranked = shown.filter((r) => r.mean !== null).sort((a, b) => b.mean! - a.mean!);
  for (const r of ranked) r.rank = ranked.findIndex((o) => o.mean === r.mean) + 1;
  return {
    ...baseView(s, slots, asLeader ? new Set(shown.map((r) => r.work.id)) : undefined),
    members,
    rows: shown.map(({ hidden: _h, ...r }) => r),
    hidden: { works: hidden.length, missingScores: hidden.reduce((a, r) => a + r.missing.length, 0) },
    complete: rows.every((r) => r.missing.length === 0),
    canSignOff: asLeader && !s.signed_off_at && !!s.draw_seed,
  };
}

export async function signOff(db: Db, user: User, sessionId: number, body: SignOffBody): Promise<GroupSheet> {
  await db.transaction().execute(async (trx) => {
    await lockSession(trx, sessionId);
    const s = await findSession(trx, sessionId);
    const leader = !!s && s.leader_id === user.id && (await contestJudges(trx, contestOf(s))).some((j) => j.id === user.id);
    if (!s || !leader) {
      if (s && (await isManager(trx, user, s.contest_id))) throw forbidden("答辩结果由专家组长签署");
      throw notFound(NO_SHEET);
    }
    if (s.signed_off_at) throw conflict(`本组答辩结果已于 ${s.signed_off_at} 签署`);
    if (!s.draw_seed) throw conflict("答辩顺序尚未抽签，不能签署");
    const { rows, missing } = await consolidate(trx, s, user.id);
    if (!rows.some((r) => r.scores.length)) throw conflict("还没有评委评分，不能签署");
    const note = body.note?.trim() ?? "";
    if (missing.size) {
      const visible = new Set(rows.filter((r) => !r.hidden).map((r) => r.work.id));
      const list = [...missing.values()]
        .map((m) => {
          const shown = m.workIds.filter((w) => visible.has(w));
          const other = m.workIds.length - shown.length;
          return `${m.name}（${[...shown.map(String), ...(other ? [`另有 ${other} 件回避作品`] : [])].join("、")}）`;
        })
        .join("；");
      if (!body.confirmMissing) throw conflict(`以下评委尚未评完：${list}。如有评委缺席，请在签署说明中写明原因并确认签署`);
      if (!note) throw invalid("note", "有评委尚未评完时，请在签署说明中写明原因（如评委缺席）");
    }
    const at = new Date().toISOString();
    await trx
      .updateTable("defence_session")
      .set({ signed_off_at: at, signed_off_by: user.id, sign_off_note: note || null, updated_at: at })
      .where("id", "=", s.id)
      .execute();
    await record(trx, user.id, {
      entity: "defence_session",
      entityId: s.id,
      action: "sign_off",
      changes: {
        signedOffAt: [null, at],
        note: [null, note || null],
        missing: [null, [...missing.entries()].map(([id, m]) => ({ judgeId: id, workIds: m.workIds }))],
      },
    });
  });
  return groupSheet(db, user, sessionId);
}

export const recommendationName = (r: string) => RECOMMENDATION_NAMES[r as Recommendation] ?? r;
