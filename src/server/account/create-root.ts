/**
 * `npm run create-root -- --username admin --name 管理员 --email admin@example.edu.cn`
 * Creates the first root account of a production database (DATABASE_URL). The password
 * comes from ROOT_PASSWORD or is read from standard input. Refuses if a root exists.
 */
import { parseArgs } from "node:util";
import { createInterface } from "node:readline/promises";
import { Value } from "typebox/value";
import { loadConfig } from "../config";
import { hashPassword } from "./password";
import { createUser } from "./create-user";
import { normEmail } from "../common/email";
import { Email, Password, Username } from "../../shared/account/schema";
import { migrate, openDb } from "../db";

const { values } = parseArgs({
  options: { username: { type: "string" }, name: { type: "string", default: "超级管理员" }, email: { type: "string" } },
});

async function readPassword(): Promise<string> {
  if (process.env.ROOT_PASSWORD) return process.env.ROOT_PASSWORD;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const p = await rl.question("请输入 root 密码（至少 8 位，含字母和数字）：");
  rl.close();
  return p.trim();
}

async function main() {
  const { username, name, email } = values;
  if (!username || !Value.Check(Username, username)) throw new Error("请用 --username 指定用户名（3–32 位字母、数字或 _.@-）");
  if (!email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || !Value.Check(Email, email))
    throw new Error("请用 --email 指定有效的邮箱");
  const password = await readPassword();
  if (!Value.Check(Password, password)) throw new Error("密码须至少 8 位，且同时包含字母和数字");
  const { db } = openDb(loadConfig().databaseUrl);
  try {
    await migrate(db);
    const root = await db.selectFrom("app_user").select("username").where("user_type", "=", 0).executeTakeFirst();
    if (root) throw new Error(`已存在 root 账号（${root.username}），未做任何更改`);
    await createUser(db, {
      username,
      password_hash: await hashPassword(password),
      name: name!,
      user_type: 0,
      email: normEmail(email),
      email_verified: 1,
    });
    console.log(`已创建 root 账号 ${username}`);
  } finally {
    await db.destroy();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
