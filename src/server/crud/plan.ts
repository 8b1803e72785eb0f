/**
 * An import plan (the rows a confirmed import will write) as stored between the dry run and
 * the apply: JSON lines — a header, then one line per row — read back in slices that yield
 * to the event loop, so a 50,000-row plan never holds the process for hundreds of
 * milliseconds in one JSON.parse (other requests are answered in between).
 */
export interface Plan<C, U> {
  creates: C[];
  updates: { id: number; input: U }[];
}

const FORMAT = "import-plan/1";
const SLICE = 1000;

export function planToText<C, U>(plan: Plan<C, U>): string {
  const lines = [JSON.stringify({ format: FORMAT, creates: plan.creates.length, updates: plan.updates.length })];
  for (const c of plan.creates) lines.push(JSON.stringify(c));
  for (const u of plan.updates) lines.push(JSON.stringify(u));
  return lines.join("\n");
}

const turn = () => new Promise<void>((r) => setImmediate(r));

export async function planFromText<C, U>(text: string): Promise<Plan<C, U>> {
  const end = text.indexOf("\n");
  const head = JSON.parse(end < 0 ? text : text.slice(0, end)) as {
    format?: string;
    creates: number | C[];
    updates: number | { id: number; input: U }[];
  };
  // A plan written before this format: one JSON document.
  if (head.format !== FORMAT) return head as Plan<C, U>;
  const lines = end < 0 ? [] : text.slice(end + 1).split("\n");
  const nCreates = head.creates as number;
  if (lines.length !== nCreates + (head.updates as number)) throw new Error("导入计划不完整，请重新上传");
  const plan: Plan<C, U> = { creates: [], updates: [] };
  for (let i = 0; i < lines.length; i++) {
    if (i > 0 && i % SLICE === 0) await turn();
    const row = JSON.parse(lines[i]);
    if (i < nCreates) plan.creates.push(row as C);
    else plan.updates.push(row as { id: number; input: U });
  }
  return plan;
}
