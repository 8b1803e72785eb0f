/**
 * Which judge group a work belongs in, by category: a group fits a work when its 大类 is the
 * work's and its 小类 and 普通/专业组, where set, are the work's too. The most specific fit
 * wins (小类 over 组别 over the 大类 alone); among equally specific groups — a large
 * category split into several groups — the one holding the fewest works so far, then the
 * lowest id, so the split is even and deterministic. Pure.
 */
export interface GroupScope {
  id: number;
  category_id: number;
  subcategory_id: number | null;
  group_type: string | null;
}

export interface WorkScope {
  category_id: number;
  subcategory_id: number | null;
  group_type: string;
}

export const fits = (g: GroupScope, w: WorkScope) =>
  g.category_id === w.category_id &&
  (g.subcategory_id === null || g.subcategory_id === w.subcategory_id) &&
  (g.group_type === null || g.group_type === w.group_type);

const specificity = (g: GroupScope) => (g.subcategory_id !== null ? 2 : 0) + (g.group_type !== null ? 1 : 0);

/** The group for the work, counting it in `sizes` (group id → works so far); null when none fits. */
export function pickGroup(w: WorkScope, groups: readonly GroupScope[], sizes: Map<number, number>): number | null {
  const fitting = groups.filter((g) => fits(g, w));
  if (!fitting.length) return null;
  const best = Math.max(...fitting.map(specificity));
  const [chosen] = fitting
    .filter((g) => specificity(g) === best)
    .sort((a, b) => (sizes.get(a.id) ?? 0) - (sizes.get(b.id) ?? 0) || a.id - b.id);
  sizes.set(chosen.id, (sizes.get(chosen.id) ?? 0) + 1);
  return chosen.id;
}
