/**
 * The works admin API as the pages call it: list paths for useTable (meta.path under
 * /Backend), per-work decisions of the school and of the contest, and which decisions a
 * row offers (the documented state machine, src/shared/work/states.ts; the server decides).
 */
import { CONTEST_ACTIONS, SCHOOL_ACTIONS } from "../../shared/work/schema";
import { actionsFor, type WorkAction, type WorkState } from "../../shared/work/states";
import { post } from "../request";

export type Side = "school" | "contest";

/** meta.path of the lists (the data provider prefixes /Backend/). */
export const LIST_PATH: Record<Side, string> = { school: "School/work", contest: "Admin/work" };

const BASE: Record<Side, string> = { school: "/Backend/School/work", contest: "/Backend/Admin/work" };
const SIDE_ACTIONS: Record<Side, readonly WorkAction[]> = { school: SCHOOL_ACTIONS, contest: CONTEST_ACTIONS };

/** The decisions a row offers for a work in this state. */
export const rowActions = (side: Side, status: WorkState): WorkAction[] =>
  actionsFor(status, side).filter((a) => SIDE_ACTIONS[side].includes(a));

/** Performs one decision; the reply's info is shown as the success message or the error notification. */
export const decide = (side: Side, id: number, action: WorkAction, body: { reason?: string; version?: number }) =>
  post<{ id: number; status: WorkState }>(`${BASE[side]}/${id}/${action}`, body);

export const detailPath = (id: number) => `/workDetail/${id}`;
