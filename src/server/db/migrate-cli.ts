/** `npm run migrate`: brings DATABASE_URL (default: the embedded SQLite file) to the latest schema. */
import { loadConfig } from "../config";
import { migrate, openDb } from "./index";

const { db } = openDb(loadConfig().databaseUrl);
migrate(db)
  .then((applied) => console.log(applied.length ? `已执行迁移：${applied.join(", ")}` : "数据库已是最新"))
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => db.destroy());
