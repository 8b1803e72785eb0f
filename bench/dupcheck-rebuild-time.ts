/**
 * Times the full rebuild (common shingles + recomputeBands + WAL checkpoint) on a kept
 * bench:dupcheck SQLite database, repeatedly: `npm run bench:dupcheck-rebuild -- <file> [runs]`.
 * Ends with one JSON line `{"works","runs","rebuildSeconds","bandSeconds","checkpointSeconds","walMB","writtenMB"}`
 * (the last run's figures; the full rebuild = common shingles + band keys + WAL checkpoint;
 * walMB: the size of the WAL file the band keys left, writtenMB: what the process wrote
 * during the band keys and the checkpoint — WAL frames and pages checkpointed; Linux only). Migrations the database still lacks are
 * applied first and timed (a database kept by older code).
 * Each run (also across invocations) alternates the ignored list between the computed one and
 * the computed one without every 10th hash, so nearly every work's band keys change (as in the
 * bench's build, where the entries were written without an ignored list). DUP_REBUILD_SORT_MB=0
 * times the old path (the load summed up by the database's group by).
 */
import { execSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { sql } from "kysely";
import { migrate, openDb } from "../src/server/db";
import { computeIgnored } from "../src/server/dupcheck/ignored";
import { rebuildPhases, recomputeBands } from "../src/server/dupcheck/rebuild-bands";
import { getSettings } from "../src/server/dupcheck/settings";

const file = process.argv[2];
const runs = Number(process.argv[3] ?? 1);
const round = (v: number) => Math.round(v / 100) / 10;
/** Bytes this process has written so far (every thread: the checkpointer's too). */
const written = () =>
  existsSync("/proc/self/io") ? Number(/wchar: (\d+)/.exec(readFileSync("/proc/self/io", "utf8"))?.[1] ?? 0) : 0;

async function main() {
  const { db } = openDb(`file:${file}`);
  const m0 = performance.now();
  const applied = await migrate(db);
  if (applied.length) {
    const m1 = performance.now();
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    console.log(
      `migrations ${applied.join(", ")}: ${round(m1 - m0)} s, checkpoint ${round(performance.now() - m1)} s; ${execSync("uptime")
        .toString()
        .trim()
        .replace(/.*load/, "load")}`,
    );
  }
  const settings = await getSettings(db);
  const works = Number(
    (
      await db
        .selectFrom("dup_entry")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
  let last = { rebuildSeconds: 0, bandSeconds: 0, checkpointSeconds: 0, walMB: 0, writtenMB: 0 };
  for (let r = 0; r < runs; r++) {
    const load = execSync("uptime").toString().trim();
    const t0 = performance.now();
    await computeIgnored(db, null, settings);
    const t1 = performance.now();
    // (alternating across invocations too: the parity is kept in dup_setting)
    const flip = await db.selectFrom("dup_setting").select("value").where("key", "=", "benchRebuildFlip").executeTakeFirst();
    const drop10 = flip?.value !== "1";
    await db
      .insertInto("dup_setting")
      .values({ key: "benchRebuildFlip", value: drop10 ? "1" : "0" })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: drop10 ? "1" : "0" }))
      .execute();
    if (drop10) {
      // drop every 10th ignored hash: the effective sets, so the band keys, change
      const rows = await db.selectFrom("dup_ignored").select("hash").orderBy("hash").execute();
      const drop = rows.filter((_, i) => i % 10 === 0).map((x) => Number(x.hash));
      for (let i = 0; i < drop.length; i += 500)
        await db
          .deleteFrom("dup_ignored")
          .where("hash", "in", drop.slice(i, i + 500))
          .execute();
    }
    const t2 = performance.now();
    const w2 = written();
    const phases: string[] = [];
    rebuildPhases.log = (phase, ms) => phases.push(`${phase} ${round(ms)} s`);
    const changed = await recomputeBands(db, settings);
    const t3 = performance.now();
    const walMB = existsSync(`${file}-wal`) ? Math.round(statSync(`${file}-wal`).size / 2 ** 20) : 0;
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    const t4 = performance.now();
    const writtenMB = Math.round((written() - w2) / 2 ** 20);
    console.log(
      `run ${r}: ignored ${round(t1 - t0)} s, bands ${round(t3 - t2)} s (${phases.join(", ")}), checkpoint ${round(t4 - t3)} s (WAL ${walMB} MB, written ${writtenMB} MB); full rebuild ${round(t1 - t0 + t4 - t2)} s; changed ${changed}; ${load} → ${execSync(
        "uptime",
      )
        .toString()
        .trim()
        .replace(/.*load/, "load")}`,
    );
    last = {
      rebuildSeconds: round(t1 - t0 + t4 - t2),
      bandSeconds: round(t3 - t2),
      checkpointSeconds: round(t4 - t3),
      walMB,
      writtenMB,
    };
  }
  await db.destroy();
  console.log(JSON.stringify({ works, runs, ...last }));
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
