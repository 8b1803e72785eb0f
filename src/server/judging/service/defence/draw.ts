/**
 * The random draw of a defence session's order, by the contest admin or the group leader:
 * the seed comes from crypto random and is stored with who and when; the order follows from
 * it by ../../draw.ts, so anyone can re-check it. Slot times: start + (position − 1) × minutes.
 * A redraw is refused once scoring has started.
 */
import { conflict, forbidden, notFound } from "../../../../shared/errors";
import type { DrawView } from "../../../../shared/judging/defence-schema";
import type { Db } from "../../../db";
import type { User } from "../../../db/schema";
import { record } from "../../../common/audit";
import type { Handle } from "../../../work/repository";
import { drawWorkOrder, slotTime } from "../../draw";
import { contestJudges } from "../contest";
import { newSeed } from "./codes";
import { judgeable } from "./judgeable";
import { contestOf, findSession, isManager, lockSession, memberIds, NO_SESSION, SIGNED, slotsOf } from "./rows";
import { baseView } from "./views";

/** Positions and times of the slots from the stored seed (or cleared without one). */
export async function applyOrder(trx: Handle, sessionId: number, seed: string | null, startsAt: string | null, minutes: number) {
  const slots = await trx.selectFrom("defence_slot").select(["id", "work_id"]).where("session_id", "=", sessionId).execute();
  if (!seed) {
    await trx.updateTable("defence_slot").set({ position: null, slot_time: null }).where("session_id", "=", sessionId).execute();
    return;
  }
  const order = drawWorkOrder(
    seed,
    slots.map((s) => Number(s.work_id)),
  );
  for (const [i, workId] of order.entries()) {
    const slot = slots.find((s) => Number(s.work_id) === workId)!;
    await trx
      .updateTable("defence_slot")
      .set({ position: i + 1, slot_time: slotTime(startsAt, i + 1, minutes) })
      .where("id", "=", slot.id)
      .execute();
  }
}

/** How many scores the judges gave in the session. */
export async function scoreCount(db: Handle, sessionId: number) {
  const r = await db
    .selectFrom("defence_score")
    .innerJoin("defence_slot", "defence_slot.id", "defence_score.slot_id")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("defence_slot.session_id", "=", sessionId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The random draw of the order: the contest admin or the group leader. */
export async function drawSession(
  db: Db,
  user: User,
  sessionId: number,
  redraw: boolean,
): Promise<{ draw: DrawView; message: string }> {
  const admin = await db.transaction().execute(async (trx) => {
    await lockSession(trx, sessionId);
    const s = await findSession(trx, sessionId);
    if (!s) throw notFound(NO_SESSION);
    const admin = await isManager(trx, user, s.contest_id);
    if (!admin) {
      const leader = s.leader_id === user.id && (await contestJudges(trx, contestOf(s))).some((j) => j.id === user.id);
      if (!leader) {
        if ((await memberIds(trx, s.group_id)).includes(user.id)) throw forbidden("只有专家组长或赛事管理员可以抽签");
        throw notFound(NO_SESSION);
      }
    }
    if (s.signed_off_at) throw conflict(SIGNED);
    if (s.draw_seed && !redraw) throw conflict(`已于 ${s.drawn_at} 由${s.drawer_name ?? ""}抽签，如需重新抽签请确认`);
    if (s.draw_seed && (await scoreCount(trx, s.id))) throw conflict("已有评委开始评分，不能重新抽签");
    const seed = newSeed();
    const at = new Date().toISOString();
    await trx
      .updateTable("defence_session")
      .set({ draw_seed: seed, drawn_at: at, drawn_by: user.id, updated_at: at })
      .where("id", "=", s.id)
      .execute();
    await applyOrder(trx, s.id, seed, s.starts_at, s.minutes_per_work);
    await record(trx, user.id, {
      entity: "defence_session",
      entityId: s.id,
      action: s.draw_seed ? "redraw" : "draw",
      changes: { drawSeed: [s.draw_seed, seed] },
    });
    return admin;
  });
  const s = (await findSession(db, sessionId))!;
  const slots = await slotsOf(db, s.id);
  // The leader, a judge of the group, sees the input without the works the leader avoids.
  const shown = admin ? undefined : (await judgeable(db, contestOf(s), slots, [user.id])).get(user.id)!;
  const draw = baseView(s, slots, shown).draw!;
  return { draw, message: redraw ? "已重新抽签，答辩顺序已更新" : "已抽签，答辩顺序已确定" };
}
