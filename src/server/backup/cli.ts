/**
 * `npm run backup -- [--out DIR]` and `npm run restore -- --from DIR` against DATABASE_URL
 * and the configured blob store (backup.ts, restore.ts). Messages are in Chinese; the exit
 * code is 0 on success, 1 on a failure or a mismatch, 2 on wrong arguments. A restore whose
 * data is complete but whose certificate signing key differs from the configured one exits 1;
 * one with no key configured here exits 0 with a warning (keys.ts).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { createBlobStore } from "../storage";
import { createBackup } from "./backup";
import { restoreBackup, RestoreRefused } from "./restore";

const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);

export async function main(
  argv: string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
  print: (l: string) => void = console.log,
): Promise<number> {
  const [command, ...rest] = argv;
  let values: { out?: string; from?: string };
  try {
    ({ values } = parseArgs({ args: rest, options: { out: { type: "string" }, from: { type: "string" } } }));
    if (command !== "backup" && command !== "restore") throw new Error(`未知命令 ${command ?? ""}`);
    if (command === "restore" && !values.from) throw new Error("缺少 --from");
  } catch (e) {
    print(`参数错误：${(e as Error).message}。用法：npm run backup -- [--out 目录]；npm run restore -- --from 备份目录`);
    return 2;
  }
  const config = loadConfig(env);
  const store = createBlobStore(config);
  if (command === "backup") {
    await store.check();
    const out = values.out ?? join(config.dataDir, "backups", stamp(new Date()));
    const { dir, manifest } = await createBackup({ databaseUrl: config.databaseUrl, store, out, log: print });
    const rows = Object.values(manifest.tables).reduce((s, t) => s + t.rows, 0);
    if (manifest.signingKey?.activeKeyId)
      print(`现用证书签名密钥编号 ${manifest.signingKey.activeKeyId}。${manifest.signingKey.restore}`);
    print(
      `备份完成：${dir}（${Object.keys(manifest.tables).length} 个表共 ${rows} 行，${manifest.blobs.length} 个附件文件，迁移 ${manifest.migrations.length} 个）`,
    );
    if (manifest.missingBlobs.length) {
      print(
        `警告：数据库引用的 ${manifest.missingBlobs.length} 个附件文件在附件存储中缺失或已损坏，未能备份：${manifest.missingBlobs
          .slice(0, 5)
          .map((b) => b.sha256)
          .join("、")}`,
      );
      return 1;
    }
    return 0;
  }
  try {
    const r = await restoreBackup({
      from: values.from!,
      databaseUrl: config.databaseUrl,
      store,
      log: print,
      signingKey: config.certificates,
    });
    if (r.key) print(r.key.message);
    const keyMismatch = r.key?.status === "mismatch";
    if (r.ok) {
      print(
        `恢复完成并已核对：${r.tables} 个表共 ${r.rows} 行的行数和校验和与备份一致，${r.blobs} 个附件文件齐全，评分日志哈希链完整`,
      );
      return keyMismatch ? 1 : 0;
    }
    for (const p of r.problems) print(`不一致：${p}`);
    print(`恢复后核对发现 ${r.problems.length} 处不一致`);
    return 1;
  } catch (e) {
    if (e instanceof RestoreRefused) {
      print(`拒绝恢复：${e.message}`);
      return 1;
    }
    throw e;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().then(
    (code) => (process.exitCode = code),
    (e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exitCode = 1;
    },
  );
}
