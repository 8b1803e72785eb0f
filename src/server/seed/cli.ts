/**
 * `npm run seed -- [--schools N] [--students N] [--teachers N] [--works N] [--year Y] [--seed S]`
 * Generates a large realistic data set (schools, students, teachers with Chinese names)
 * into DATABASE_URL (default: the embedded SQLite file), after migrating it and adding
 * the reference data. Generated accounts share the password Seed@2026.
 * --works N adds N works (teams of new students, teachers, varied states; seed/works.ts)
 * in the provincial contests of year Y (default: this year).
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { hashPassword } from "../account/password";
import { migrate, openDb } from "../db/index";
import { seedReference } from "./demo";
import { personName, rng, schools as genSchools } from "./generate";
import { generateWorks } from "./works";

const { values } = parseArgs({
  options: {
    schools: { type: "string", default: "700" },
    students: { type: "string", default: "0" },
    teachers: { type: "string", default: "0" },
    works: { type: "string", default: "0" },
    year: { type: "string", default: String(new Date().getFullYear()) },
    seed: { type: "string", default: "42" },
  },
});

const BATCH = 500;

async function main() {
  const config = loadConfig();
  const { db } = openDb(config.databaseUrl);
  await migrate(db);
  await seedReference(db);
  const r = rng(Number(values.seed));
  const now = new Date().toISOString();
  const t0 = Date.now();

  const nSchools = Number(values.schools);
  const existing = new Set((await db.selectFrom("school").select("code").execute()).map((s) => s.code));
  const newSchools = genSchools(r, nSchools).filter((s) => !existing.has(s.code));
  for (let i = 0; i < newSchools.length; i += BATCH) {
    await db
      .insertInto("school")
      .values(
        newSchools
          .slice(i, i + BATCH)
          .map((s) => ({ ...s, former_names: "[]", contact: null, created_at: now, updated_at: now })),
      )
      .execute();
  }
  const schoolIds = (await db.selectFrom("school").select("id").execute()).map((s) => s.id);
  console.log(`学校：新增 ${newSchools.length}，共 ${schoolIds.length}`);

  const password_hash = await hashPassword("Seed@2026");
  const runTag = `${values.seed}_${Date.now().toString(36)}`;
  for (const [kind, count, userType] of [
    ["students", Number(values.students), 100],
    ["teachers", Number(values.teachers), 99],
  ] as const) {
    for (let i = 0; i < count; i += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, count - i) }, (_, k) => {
        const n = i + k;
        const username = `${kind === "students" ? "s" : "t"}${runTag}_${n}`;
        return {
          username,
          password_hash,
          name: personName(r),
          user_type: userType,
          email: `${username}@seed.saiwu.local`,
          email_verified: 1,
          phone: null,
          school_id: r.pick(schoolIds),
          member_no: String(2020000000 + n),
          has_complaint_right: 0,
          is_school_contest_judge: 0,
          locked: 0,
          created_at: now,
          updated_at: now,
        };
      });
      await db.transaction().execute((trx) => trx.insertInto("app_user").values(rows).execute());
    }
    if (count) console.log(`${kind === "students" ? "学生" : "教师"}：新增 ${count}（密码 Seed@2026）`);
  }
  const nWorks = Number(values.works);
  if (nWorks) {
    const tw = Date.now();
    const written = await generateWorks(db, {
      count: nWorks,
      seed: Number(values.seed),
      year: Number(values.year),
      passwordHash: password_hash,
      onBatch: (done) => process.stdout.write(`\r作品：${done}/${nWorks}`),
    });
    console.log(
      `\n作品：新增 ${written}（${values.year} 年，作者和指导教师为新生成的账号，密码 Seed@2026），用时 ${((Date.now() - tw) / 1000).toFixed(1)} 秒`,
    );
  }
  console.log(`完成，用时 ${((Date.now() - t0) / 1000).toFixed(1)} 秒`);
  await db.destroy();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
