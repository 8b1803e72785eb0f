/**
 * One database's part of bench:deadline: the large data set and the bench's teams seeded in
 * this process, the server started as `npm start` runs it (SQLite: one process on a file
 * database; PostgreSQL: two processes on a scratch database, sharing DATA_DIR like a
 * deployment behind a load balancer), the load steps, the servers' peak memory, the
 * integrity check, the disk baseline, and the figures of the highest step that held.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { hashPassword } from "../../src/server/account/password";
import { openDb } from "../../src/server/db";
import { freePort, ServerProcess, serverEnv } from "../../support/cluster";
import { procStatusMB } from "../server";
import { createPgDatabase, log, seconds, seedWorksDb, YEAR } from "../works-data";
import { sequentialWriteMBps } from "./disk";
import { findViolations, readSnapshot } from "./integrity";
import { Ledger } from "./ledger";
import { flowsNeeded, runLoad } from "./load";
import { SEED_PASSWORD, seedDeadline } from "./seed";
import { heldStep, shortfalls, type StepSummary } from "./stats";

export interface Knobs {
  works: number;
  steps: number[];
  holdS: number;
  readersPerFlow: number;
  adminEvery: number;
  videoEveryS: number;
  schools: number;
  diskCapMB: number;
}

export interface Figures {
  peakSubmitsPerMin: number;
  sustainedUsers: number;
  loginP99Ms: number;
  saveP99Ms: number;
  uploadMBps: number;
  diskMBps: number;
  submitP99Ms: number;
  listP99Ms: number;
  errors: number;
  lost: number;
  peakRssMB: number;
}

const stepLine = (s: StepSummary) =>
  `每分钟 ${s.rate}：${s.flows} 个流程，提交 ${s.submits}（${s.submitsPerMin}/分），在线 ${s.users} 人；p99 登录 ${s.p99.login}、保存 ${s.p99.save}、` +
  `上传 ${s.p99.upload}、提交 ${s.p99.submit}、列表 ${s.p99.list} ms；视频最慢 ${s.videoMaxMs} ms；上传合计 ${s.uploadMBps} MB/s，` +
  `单个文件中位 ${s.fileMedianMBps} MB/s；错误 ${s.errors}，预期的拒绝 ${s.refused}` +
  (shortfalls(s).length ? `；未达标：${shortfalls(s).join("，")}` : "；达标");

export async function runDatabase(dialect: "sqlite" | "postgres", k: Knobs): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), `saiwu-deadline-${dialect}-`));
  let url = `file:${join(dir, "bench.db")}`;
  let drop = async () => {};
  if (dialect === "postgres") {
    const base = process.env.TEST_DATABASE_URL;
    if (!base || !/^postgres(ql)?:\/\//.test(base))
      throw new Error("PostgreSQL 部分需要 TEST_DATABASE_URL=postgres://…（ONLY=sqlite 可只测 SQLite）");
    ({ url, drop } = await createPgDatabase(base));
  }
  const procs: ServerProcess[] = [];
  try {
    const t0 = performance.now();
    const { db } = await seedWorksDb(url, k.works);
    const plan = await seedDeadline(db, {
      count: flowsNeeded(k.steps, k.holdS),
      schoolCount: k.schools,
      year: YEAR,
      passwordHash: await hashPassword(SEED_PASSWORD),
    });
    await sql`analyze`.execute(db);
    await db.destroy();
    log(
      `${dialect}：数据就绪，${k.works} 件作品 + ${plan.teams.length} 个待提交团队，${plan.schoolAdmins.size} 所学校，${seconds(t0)} s`,
    );

    const env = serverEnv(url, dir, { LOGIN_RATE_MAX: "1000000" });
    for (let i = 0; i < (dialect === "sqlite" ? 1 : 2); i++) procs.push(new ServerProcess(await freePort(), env));
    // A start may outlast ServerProcess's 60 s on a machine this loaded: one more try.
    await Promise.all(
      procs.map((p) =>
        p.start().catch(async (e: unknown) => {
          log(`${dialect}：服务进程启动失败，重试：${(e as Error).message.slice(0, 200)}`);
          await p.kill("SIGKILL");
          await p.start();
        }),
      ),
    );
    log(`${dialect}：${procs.length} 个服务进程已启动`);

    const ledger = new Ledger();
    const load = await runLoad(
      procs.map((p) => p.url),
      plan,
      ledger,
      { ...k, log: (m) => log(`${dialect}：${m}`) },
    );
    const rss = procs.map((p) => Math.round(procStatusMB(p.proc!.pid!, "VmHWM")));
    for (const s of load.steps) log(`${dialect}：${stepLine(s)}`);
    for (const f of load.rec.failures) log(`${dialect}：失败 ${f}`);
    const tally = new Map<string, number>();
    for (const s of load.rec.samples) tally.set(`${s.kind}/${s.outcome}`, (tally.get(`${s.kind}/${s.outcome}`) ?? 0) + 1);
    log(`${dialect}：请求 ${[...tally].map(([key, n]) => `${key} ${n}`).join("，")}`);
    const overload = procs.flatMap((p) => p.output.split("\n").filter((l) => l.includes("服务器过载")));
    log(
      `${dialect}：503（服务器繁忙）${load.rec.busy} 次；服务进程记录的过载 ${overload.length} 次${overload.length ? `，如：${overload[0].slice(0, 300)}` : ""}`,
    );
    for (const p of procs) if (!p.alive) log(`${dialect}：服务进程退出了：${p.output.slice(-2000)}`);

    const check = openDb(url).db;
    const violations = findViolations(ledger, await readSnapshot(check, join(dir, "blobs"), ledger));
    await check.destroy();
    log(
      `${dialect}：完整性检查：${ledger.fields.size} 件作品的保存、${ledger.files.length} 个附件、${ledger.submits.size} 次提交、` +
        `${ledger.states.size} 个状态，问题 ${violations.length} 个`,
    );
    for (const v of violations.slice(0, 20)) log(`${dialect}：丢失 ${v}`);

    const held = heldStep(load.steps);
    const shown = held ?? load.steps[0];
    // The reported step's attachments (or, when it stored none, the whole run's).
    const uploaded = load.rec.samples.filter((s) => (s.kind === "upload" || s.kind === "video") && s.outcome === "ok");
    const ofStep = uploaded.filter((s) => s.step === shown.step);
    const sizes = (ofStep.length ? ofStep : uploaded).map((s) => s.bytes ?? 0);
    let capped = 0;
    const baseline = sizes.filter((b) => (capped += b) <= k.diskCapMB * 1048576);
    const diskMBps = await sequentialWriteMBps(join(dir, "disk-baseline"), baseline);
    log(
      `${dialect}：${held ? `最高达标级别：每分钟 ${held.rate}` : "没有达标的级别（以下为第一级的数字）"}；同一磁盘顺序写 ${baseline.length} 个文件：${diskMBps} MB/s；` +
        `服务进程峰值内存 ${rss.join("、")} MB`,
    );
    return {
      peakSubmitsPerMin: held ? held.submitsPerMin : 0,
      sustainedUsers: shown.users,
      loginP99Ms: shown.p99.login,
      saveP99Ms: shown.p99.save,
      uploadMBps: shown.uploadMBps,
      diskMBps,
      submitP99Ms: shown.p99.submit,
      listP99Ms: shown.p99.list,
      errors: load.rec.samples.filter((s) => s.outcome === "error").length,
      lost: violations.length,
      peakRssMB: Math.max(...rss),
    };
  } finally {
    await Promise.all(procs.map((p) => p.kill("SIGTERM")));
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
