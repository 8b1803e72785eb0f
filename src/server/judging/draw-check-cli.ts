/**
 * `npm run draw-check -- <抽签码> <作品编号> …`: recomputes a defence order from the draw code
 * and the works' ids (any order; they are sorted first), by the published algorithm of
 * draw.ts, and prints the order — anyone can compare it with the order the platform shows.
 */
import { pathToFileURL } from "node:url";
import { DRAW_ALGORITHM, drawWorkOrder } from "./draw";

export function drawCheck(args: readonly string[]): string[] {
  const [code, ...rest] = args;
  const ids = rest
    .flatMap((a) => a.split(/[,，、\s]+/))
    .filter(Boolean)
    .map(Number);
  if (!code || !ids.length || ids.some((n) => !Number.isInteger(n) || n < 1))
    return ["用法：npm run draw-check -- <抽签码> <作品编号> …（作品编号为正整数，顺序不限）"];
  return [
    `算法 ${DRAW_ALGORITHM}，抽签码 ${code}，作品 ${[...ids].sort((a, b) => a - b).join("、")}`,
    ...drawWorkOrder(code, ids).map((id, i) => `第 ${i + 1} 位：作品 ${id}`),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const lines = drawCheck(process.argv.slice(2));
  for (const l of lines) console.log(l);
  process.exitCode = lines.length === 1 ? 1 : 0;
}
