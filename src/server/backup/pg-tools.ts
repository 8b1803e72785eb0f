/**
 * pg_dump and pg_restore, found on PATH or in PG_BIN_DIR. pg_dump refuses a server newer
 * than itself and an archive is readable by a pg_restore of its own major version or
 * newer, so both must be at least the server's major version.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";

export const pgTool = (name: "pg_dump" | "pg_restore", binDir = process.env.PG_BIN_DIR) => (binDir ? join(binDir, name) : name);

/** Runs a tool; resolves with its stdout, rejects with its stderr (in Chinese context) on a non-zero exit. */
export function runTool(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    p.on("error", (e) =>
      reject(new Error(`无法运行 ${cmd}：${e.message}（请安装 PostgreSQL 客户端工具，或用 PG_BIN_DIR 指定其目录）`)),
    );
    p.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} 失败（退出码 ${code}）：${err.trim()}`))));
  });
}

/** "pg_dump (PostgreSQL) 15.20 (Debian …)" → 15 */
export const majorOf = (version: string) => Number(/(\d+)(?:\.\d+)?/.exec(version.replace(/^[^)]*\)/, ""))?.[1] ?? NaN);

/** The tool's version line, after checking its major version is at least the server's. */
export async function checkToolVersion(cmd: string, serverVersionNum: number): Promise<string> {
  const line = (await runTool(cmd, ["--version"])).trim();
  const tool = majorOf(line);
  const server = Math.floor(serverVersionNum / 10000);
  if (!(tool >= server))
    throw new Error(
      `${cmd} 的版本（${line}）低于数据库服务器的主版本 ${server}，无法使用；请安装 PostgreSQL ${server} 或更新的客户端工具，或用 PG_BIN_DIR 指定其目录`,
    );
  return line;
}
