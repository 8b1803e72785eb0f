/**
 * npm run bench:deadline — deadline day (issue 30) against the real server through its HTTP
 * API, on the large data set (demo, 700 schools, WORKS generated works, default 100,000):
 * teams of students log in, open their work and to-do, the co-author confirms, the teacher
 * writes the 自评, the first author saves 2–3 times, uploads four attachments (1–20 MB,
 * median 5 MB, generated and hashed while sent; one 200 MB video a minute) and submits;
 * readers open the public pages, their user centre and the works lists; school admins
 * approve and recommend in batches (bench/deadline/flows.ts). Open arrivals ramp through
 * STEPS flows a minute, HOLD_S seconds each (bench/deadline/load.ts). Runs on embedded SQLite
 * with one server process, then on PostgreSQL (TEST_DATABASE_URL, a scratch database
 * dropped afterwards) with two; ONLY=sqlite|postgres runs one. After the load the database
 * and blob store are checked against every acknowledged write (bench/deadline/integrity.ts).
 *
 * Per database, the figures of the highest step held with 0 errors and every p99 under the
 * aims (login 500, save 200, submit 300, list 100, upload 2,000 ms; every flow submitted):
 * peakSubmitsPerMin (0: no step held; the other figures are then the first step's),
 * sustainedUsers (people online at once, mean), the p99s, uploadMBps (all the step's upload
 * bytes over the time its uploads were under way) against diskMBps (the same sizes written
 * one after another to the same filesystem with fsync, in the same run); errors (non-2xx
 * other than expected refusals, and timeouts) and lost (integrity violations) over the whole
 * run; peakRssMB the larger VmHWM of the server processes.
 * The servers run compiled (scripts/build.mjs), as `npm start` runs them.
 * Ends with one JSON line {"sqlite":{…},"postgres":{…}}.
 * Knobs: WORKS, STEPS (e.g. 120,240,300,360), HOLD_S, READERS_PER_FLOW, ADMIN_EVERY,
 * VIDEO_EVERY_S (0: no 200 MB video), SCHOOLS, DISK_CAP_MB, REQUEST_TIMEOUT_S, ONLY.
 */
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { buildServer, ROOT } from "../scripts/build.mjs";
import { log, seconds } from "./works-data";
import { runDatabase, type Figures, type Knobs } from "./deadline/run";

const knobs: Knobs = {
  works: Number(process.env.WORKS ?? 100_000),
  steps: (process.env.STEPS ?? "120,240,300,360").split(",").map(Number),
  holdS: Number(process.env.HOLD_S ?? 60),
  readersPerFlow: Number(process.env.READERS_PER_FLOW ?? 2),
  adminEvery: Number(process.env.ADMIN_EVERY ?? 10),
  videoEveryS: Number(process.env.VIDEO_EVERY_S ?? 60),
  schools: Number(process.env.SCHOOLS ?? 50),
  diskCapMB: Number(process.env.DISK_CAP_MB ?? 4096),
};

async function main() {
  const only = process.env.ONLY;
  if (only && only !== "sqlite" && only !== "postgres") throw new Error("ONLY 只能是 sqlite 或 postgres");
  log(`bench:deadline：${JSON.stringify(knobs)}`);
  // The servers run compiled, as `npm start` runs them (support/server-command.ts reads SAIWU_SERVER_BUILD).
  const build = join(ROOT, ".tmp", `bench-deadline-${randomUUID().slice(0, 8)}`);
  const t0 = performance.now();
  await buildServer(build);
  process.env.SAIWU_SERVER_BUILD = build;
  log(`编译服务器：${seconds(t0)} s`);
  const out: Partial<Record<"sqlite" | "postgres", Figures>> = {};
  try {
    for (const dialect of ["sqlite", "postgres"] as const)
      if (!only || only === dialect) out[dialect] = await runDatabase(dialect, knobs);
  } finally {
    rmSync(build, { recursive: true, force: true });
  }
  console.log(JSON.stringify(out));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
