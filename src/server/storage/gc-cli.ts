/** `npm run blobs:gc -- [--dry-run] [--grace-hours 24]`: removes blobs no attachment names (see gc.ts). */
import { loadConfig } from "../config";
import { openDb } from "../db";
import { collectOrphanBlobs } from "./gc";
import { createBlobStore } from "./index";

const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");
const i = args.indexOf("--grace-hours");
const hours = i >= 0 ? Number(args[i + 1]) : 24;
if (!Number.isFinite(hours) || hours < 1) {
  console.error("--grace-hours 须为不小于 1 的小时数（正在上传的文件需要时间写入记录）");
  process.exit(2);
}
const config = loadConfig();
const { db } = openDb(config.databaseUrl);
const store = createBlobStore(config);
store
  .check()
  .then(() => collectOrphanBlobs(db, store, { graceMs: hours * 3600_000, dryRun }))
  .then((r) => {
    console.log(
      `附件存储共 ${r.blobs} 个文件，被附件记录引用 ${r.referenced} 个；无人引用且超过 ${hours} 小时的 ${r.removed.length} 个${dryRun ? "（试运行，未删除）" : "已删除"}；较新的 ${r.young} 个暂留${dryRun ? "" : `；清理未完成的上传 ${r.unfinishedRemoved} 个`}`,
    );
  })
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => db.destroy());
