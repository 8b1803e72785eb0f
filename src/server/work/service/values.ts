/** Input values → column values (trimmed, empty → null, canonical JSON) and a work's values for the log. */
import { invalid } from "../../../shared/errors";
import { GROUP_NAMES, LINK_FIELDS, TEXT_FIELDS, type WorkField } from "../../../shared/work/fields";
import type { AiDeclaration } from "../../../shared/work/schema";
import { COLUMN, type WorkRow } from "../repository";

export const cleanText = (v: string | null) => (v === null || !v.trim() ? null : v.trim());

/** The declaration in a fixed key order, so equal declarations compare equal. */
export function aiColumn(d: AiDeclaration | null): string | null {
  if (d === null) return null;
  if (d.used && !d.tools.length) throw invalid("aiDeclaration", "已声明使用 AI 工具，请至少填写一项工具的使用情况");
  if (!d.used && d.tools.length) throw invalid("aiDeclaration", "声明未使用 AI 工具时，不能填写工具使用情况");
  return JSON.stringify({
    used: d.used,
    tools: d.tools.map((x) => ({
      tool: x.tool.trim(),
      version: x.version.trim(),
      access: x.access.trim(),
      purpose: x.purpose.trim(),
      prompts: x.prompts,
      output: x.output,
      edits: x.edits,
      adoption: x.adoption,
    })),
  });
}

/** The field's value as the log shows it: names for the 大类, 小类 and group. */
export function valueOf(
  w: Pick<WorkRow, (typeof COLUMN)[WorkField] | "category_name" | "subcategory_name">,
  f: WorkField,
): unknown {
  if (f === "categoryId") return w.category_name;
  if (f === "subcategoryId") return w.subcategory_name ?? null;
  if (f === "group") return GROUP_NAMES[w.group_type];
  const v = w[COLUMN[f]];
  return f === "aiDeclaration" && typeof v === "string" ? JSON.parse(v) : (v ?? null);
}

/** Column values of the text, link and AI fields given in an input (only those given). */
export function textColumns(
  input: Partial<Record<WorkField, unknown>>,
  fields: readonly WorkField[] = [...TEXT_FIELDS, ...LINK_FIELDS, "aiDeclaration"],
) {
  const out: Partial<Record<WorkField, string | null>> = {};
  for (const f of fields) {
    const v = input[f];
    if (v === undefined) continue;
    out[f] = f === "aiDeclaration" ? aiColumn(v as AiDeclaration | null) : cleanText(v as string | null);
  }
  return out;
}
