/**
 * How the tests start a real server process. With SAIWU_SERVER_BUILD set (scripts/test.mjs
 * compiles the server there before the suites, as `npm start` runs it) the compiled entry
 * runs on plain node: `node <build>/main.js`; without it (a single file run with vitest) the
 * sources run through tsx. Paths are relative to the repository root (spawn with `cwd` there).
 */
import { join } from "node:path";

/** The command and arguments of `npm start` (entry "main") or `npm run start:cluster` (entry "cluster", add `--workers N`). */
export function serverCommand(entry: "main" | "cluster"): [string, string[]] {
  const build = process.env.SAIWU_SERVER_BUILD;
  if (build) return [process.execPath, [join(build, `${entry}.js`)]];
  return [process.execPath, ["--import", "tsx", `src/server/${entry}.ts`]];
}
