/**
 * `npm run start:cluster` (src/server/cluster.ts): refuses the embedded SQLite database;
 * on PostgreSQL migrates a new database once, serves from N workers on one port, restarts a
 * worker that is killed (logging why), and stops every worker on SIGTERM.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createScratchPgDatabase } from "../../src/server/db/scratch-pg";
import { freePort, within } from "../../support/cluster";
import { serverCommand } from "../../support/server-command";

const ROOT = resolve(import.meta.dirname, "../..");

function startCluster(args: string[], env: Record<string, string>) {
  const [cmd, base] = serverCommand("cluster");
  const proc = spawn(cmd, [...base, ...args], {
    cwd: ROOT,
    env: { ...process.env, SKIP_BUILD: "1", LOG_LEVEL: "warn", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out = { text: "" };
  proc.stdout!.on("data", (d) => (out.text += d));
  proc.stderr!.on("data", (d) => (out.text += d));
  const exited = new Promise<number | null>((ok) => proc.on("exit", (code) => ok(code)));
  return { proc, out, exited };
}

/** The pids of a process's children. */
const children = (pid: number) =>
  execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
const childrenOrNone = (pid: number) => {
  try {
    return children(pid);
  } catch {
    return []; // ps exits 1 when it lists nothing
  }
};

describe("start:cluster", () => {
  const dir = mkdtempSync(join(tmpdir(), "saiwu-start-cluster-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses the embedded SQLite database with a clear message", async () => {
    const { out, exited } = startCluster(["--workers", "2"], { DATABASE_URL: `file:${join(dir, "one.db")}`, DATA_DIR: dir });
    expect(await exited).toBe(2);
    expect(out.text).toContain("多进程运行需要 PostgreSQL");
  }, 60_000);

  it("refuses a bad worker count", async () => {
    const { out, exited } = startCluster(["--workers", "0"], {
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
      DATA_DIR: dir,
    });
    expect(await exited).toBe(2);
    expect(out.text).toContain("--workers 应为 1 到 64 之间的整数");
  }, 60_000);

  describe.skipIf(!process.env.TEST_DATABASE_URL)("on PostgreSQL", () => {
    let proc: ChildProcess | undefined;
    let drop = async () => {};
    afterAll(async () => {
      if (proc && proc.exitCode === null) proc.kill("SIGKILL");
      await drop();
    });

    it("migrates once, serves from N workers on one port, restarts a killed worker and stops on SIGTERM", async () => {
      const db = await createScratchPgDatabase(process.env.TEST_DATABASE_URL!, "saiwu_sc");
      drop = db.drop;
      const port = await freePort();
      const c = startCluster(["--workers", "2", "--port", String(port)], {
        DATABASE_URL: db.url,
        DATA_DIR: dir,
        DIST_DIR: join(dir, "no-dist"),
        PUBLIC_URL: "http://localhost:8080",
      });
      proc = c.proc;
      const pid = c.proc.pid!;
      const up = async () => {
        try {
          return (await fetch(`http://127.0.0.1:${port}/Backend/Common/user/get-current`)).status === 200;
        } catch {
          return false;
        }
      };
      await within(60_000, async () => c.out.text.includes("赛务平台已启动：2 个进程") && (await up())).catch((e) => {
        throw new Error(`${e.message}:\n${c.out.text}`);
      });
      expect(c.out.text.match(/数据库迁移完成/g)).toHaveLength(1);
      const workers = children(pid);
      expect(workers).toHaveLength(2);

      process.kill(workers[0], "SIGKILL");
      await within(
        30_000,
        async () =>
          /工作进程 \d（pid \d+）运行 \d+ 秒后意外退出（被信号 SIGKILL 终止）/.test(c.out.text) &&
          childrenOrNone(pid).length === 2 &&
          !childrenOrNone(pid).includes(workers[0]),
      );
      await within(30_000, async () => /工作进程 \d 已重启/.test(c.out.text) && (await up()));
      expect(c.out.text.match(/数据库迁移完成/g)).toHaveLength(1);

      const now = childrenOrNone(pid);
      c.proc.kill("SIGTERM");
      expect(await c.exited).toBe(0);
      expect(c.out.text).toContain("收到 SIGTERM，正在停止 2 个工作进程");
      // The workers stopped too, and nothing answers on the port.
      for (const w of now) expect(() => process.kill(w, 0)).toThrow();
      expect(await up()).toBe(false);
    }, 180_000);
  });
});
