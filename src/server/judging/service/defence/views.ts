/**
 * The views of a defence session: the common part (arrangement, draw with its check,
 * sign-off, reopening), the defence material of works and the contest admin's view.
 */
import { DEFENCE_FILE_KIND, type AdminSession, type DefenceFileView } from "../../../../shared/judging/defence-schema";
import type { Handle } from "../../../work/repository";
import { DRAW_ALGORITHM, drawWorkOrder } from "../../draw";
import { judgeable } from "./judgeable";
import { contestOf, memberIds, slotsOf, type SessionRow, type SlotRow } from "./rows";

/**
 * The session's common view. `shown`: the works the viewing judge may see — the draw's
 * input then lists only those (a judge learns no id of a work the judge must avoid, only
 * how many); the check that the positions follow the seed still runs on every work.
 */
export function baseView(s: SessionRow, slots: SlotRow[], shown?: Set<number>) {
  const input = slots.map((x) => Number(x.work_id)).sort((a, b) => a - b);
  const listed = shown ? input.filter((id) => shown.has(id)) : input;
  const drawn = s.draw_seed !== null && s.drawn_at !== null;
  let verified = false;
  if (drawn) {
    const order = drawWorkOrder(s.draw_seed!, input);
    verified = slots.every((x) => x.position !== null && order[x.position - 1] === Number(x.work_id));
  }
  return {
    id: s.id,
    contest: { id: s.contest_id, name: s.contest_name },
    group: { id: s.group_id, name: s.group_name },
    leader: s.leader_id !== null ? { id: s.leader_id, name: s.leader_name ?? "" } : null,
    startsAt: s.starts_at,
    place: s.place,
    meetingLink: s.meeting_link,
    prepareNote: s.prepare_note,
    minutesPerWork: s.minutes_per_work,
    draw: drawn
      ? {
          seed: s.draw_seed!,
          algorithm: DRAW_ALGORITHM,
          drawnAt: s.drawn_at!,
          drawnBy: { id: s.drawn_by ?? 0, name: s.drawer_name ?? "" },
          input: listed,
          withheld: input.length - listed.length,
          verified,
        }
      : null,
    signOff: s.signed_off_at
      ? { at: s.signed_off_at, by: { id: s.signed_off_by ?? 0, name: s.signer_name ?? "" }, note: s.sign_off_note }
      : null,
    reopened: s.reopened_at
      ? { at: s.reopened_at, by: { id: s.reopened_by ?? 0, name: s.reopener_name ?? "" }, reason: s.reopen_reason ?? "" }
      : null,
  };
}

/** Defence material of works: current and earlier versions, newest first. */
export async function defenceFiles(db: Handle, workIds: number[]): Promise<Map<number, DefenceFileView[]>> {
  const out = new Map<number, DefenceFileView[]>();
  if (!workIds.length) return out;
  const rows = await db
    .selectFrom("work_file")
    .select(["id", "work_id", "filename", "size", "created_at", "replaced_at"])
    .where("work_id", "in", workIds)
    .where("kind", "=", DEFENCE_FILE_KIND)
    .where("deleted_at", "is", null)
    .orderBy("id", "desc")
    .execute();
  for (const r of rows) {
    const list = out.get(Number(r.work_id)) ?? [];
    list.push({ id: r.id, filename: r.filename, size: Number(r.size), createdAt: r.created_at, current: r.replaced_at === null });
    out.set(Number(r.work_id), list);
  }
  return out;
}

export const workRef = (x: SlotRow) => ({
  id: Number(x.work_id),
  name: x.name,
  category: x.category_name,
  subcategory: x.subcategory_name,
});

/** The session as the contest admin sees it: every slot with its code and how many scores it has. */
export async function adminSessionView(db: Handle, s: SessionRow): Promise<AdminSession> {
  const slots = await slotsOf(db, s.id);
  const c = contestOf(s);
  const members = await memberIds(db, s.group_id);
  const can = await judgeable(db, c, slots, members);
  const scores = slots.length
    ? await db
        .selectFrom("defence_score")
        .select(["slot_id", "judge_id"])
        .where(
          "slot_id",
          "in",
          slots.map((x) => x.id),
        )
        .execute()
    : [];
  const files = await defenceFiles(
    db,
    slots.map((x) => Number(x.work_id)),
  );
  return {
    ...baseView(s, slots),
    slots: slots.map((x) => ({
      position: x.position,
      time: x.slot_time,
      work: { id: Number(x.work_id), name: x.name, school: x.school_name },
      code: x.code,
      scores: scores.filter((r) => r.slot_id === x.id).length,
      expected: members.filter((m) => can.get(m)!.has(Number(x.work_id))).length,
      files: (files.get(Number(x.work_id)) ?? []).filter((f) => f.current).length,
    })),
    scores: scores.length,
  };
}
