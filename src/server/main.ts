/**
 * The server's main entry (`npm start` runs it compiled, as dist/server/main.js, after
 * scripts/run.mjs has built what was missing or stale): migrates the database, seeds demo
 * data into a new embedded database, and serves the platform (front end + /Backend) on one
 * port. Several processes on one PostgreSQL: `npm run start:cluster` (cluster.ts).
 */
import { loadConfig } from "./config";
import { openDb } from "./db";
import { precompressFrontEnd, prepareDatabase, serve } from "./serve";

async function main() {
  const config = loadConfig();
  precompressFrontEnd(config);
  const opened = openDb(config.databaseUrl);
  await prepareDatabase(config, opened);
  await serve(config, opened);
  console.log(`赛务平台已启动：http://localhost:${config.port}  （API 文档：/Backend/docs）`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
