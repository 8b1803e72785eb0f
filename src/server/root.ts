/**
 * The project's folder (where package.json, casbin/ and node_modules/ are), found from this
 * module's own place: src/server/ when run from source (tsx, tests) and dist/server/ (or a
 * test's build folder) when compiled, so the same code finds the policy and the package's
 * version either way instead of counting "../.." from wherever the bundler put it.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "casbin", "model.conf"))) return dir;
    if (dirname(dir) === dir) throw new Error(`找不到项目目录（含 package.json 和 casbin/ 的目录），从 ${from} 向上查找`);
  }
}

export const ROOT_DIR = findRoot(import.meta.dirname);
