/**
 * The contest drawer's form values and their mapping to and from the API: stages as
 * one date-time range per stage, per-category quotas keyed by 大类 id, members by id.
 */
import type { Dayjs } from "dayjs";
import type { ContestCreate, ContestUpdate, ContestView } from "../../shared/contest/schema";
import { STAGE_KEYS, type ContestLevelKey, type StageKey } from "../../shared/contest/stages";
import { bj, pickerIso } from "../format";

export interface StageRow {
  stage: StageKey;
  range?: [Dayjs | null, Dayjs | null] | null;
}

export interface ContestFormValues {
  name: string;
  code?: string;
  year: number;
  parentId?: number | null;
  province?: string | null;
  schoolId?: number | null;
  description?: string | null;
  categories: number[];
  stages: StageRow[];
  recommendQuota?: number | null;
  quotas: Record<string, number | null | undefined>;
  adminIds: number[];
  reviewerIds: number[];
}

export const emptyStages = (): StageRow[] => STAGE_KEYS.map((stage) => ({ stage, range: null }));

export function newContestValues(parentId?: number, year = new Date().getFullYear()): Partial<ContestFormValues> {
  return { year, parentId: parentId ?? null, categories: [], stages: emptyStages(), quotas: {}, adminIds: [], reviewerIds: [] };
}

export function toFormValues(v: ContestView | undefined): Partial<ContestFormValues> | undefined {
  if (!v) return undefined;
  return {
    name: v.name,
    code: v.code,
    year: v.year,
    parentId: v.parentId,
    province: v.province,
    schoolId: v.schoolId,
    description: v.description,
    categories: v.categories,
    stages: STAGE_KEYS.map((stage) => {
      const s = v.stages.find((x) => x.stage === stage);
      return { stage, range: s ? [bj(s.startsAt), bj(s.endsAt)] : null };
    }),
    recommendQuota: v.recommendQuota,
    quotas: Object.fromEntries(v.categoryQuotas.map((q) => [String(q.categoryId), q.quota])),
    adminIds: v.admins.map((a) => a.id),
    reviewerIds: v.reviewers.map((r) => r.id),
  };
}

/** The stages that have both times, in form order; `rows` maps a payload index back to the form row. */
export function stagesOf(rows: StageRow[] | undefined) {
  const out: { stage: StageKey; startsAt: string; endsAt: string }[] = [];
  const formRow: number[] = [];
  (rows ?? []).forEach((r, i) => {
    const [from, to] = r.range ?? [];
    if (from && to) {
      out.push({ stage: r.stage, startsAt: pickerIso(from), endsAt: pickerIso(to) });
      formRow.push(i);
    }
  });
  return { stages: out, formRow };
}

/**
 * The body of a create or update. `restricted` (a contest admin) leaves out what only root
 * may change: level, parent, admins and archive state.
 */
export function toPayload(v: ContestFormValues, level: ContestLevelKey, restricted: boolean): ContestCreate | ContestUpdate {
  const categories = v.categories ?? [];
  const categoryQuotas = categories
    .map((id) => ({ categoryId: id, quota: v.quotas?.[String(id)] }))
    .filter((q): q is { categoryId: number; quota: number } => typeof q.quota === "number");
  const body: ContestUpdate = {
    name: v.name?.trim(),
    ...(v.code?.trim() ? { code: v.code.trim() } : {}),
    year: v.year,
    description: v.description?.trim() || null,
    categories,
    stages: stagesOf(v.stages).stages,
    reviewerIds: v.reviewerIds ?? [],
  };
  if (level !== "national") {
    body.recommendQuota = v.recommendQuota ?? null;
    body.categoryQuotas = categoryQuotas;
  }
  if (level === "provincial") body.province = v.province?.trim() || null;
  if (level === "school") body.schoolId = v.schoolId ?? null;
  if (restricted) return body;
  return {
    ...body,
    level,
    parentId: level === "national" ? null : (v.parentId ?? null),
    adminIds: v.adminIds ?? [],
  } as ContestCreate;
}
