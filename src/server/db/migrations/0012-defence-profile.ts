/**
 * The judge profile and the reopening of a defence sign-off (issue 5).
 *
 * - app_user.expertise: a judge's fields of expertise (专业特长), free text the judge keeps
 *   on /judge/Info; contest admins read it when they form groups.
 * - defence_session.reopened_at / reopened_by / reopen_reason: the contest admin reopened
 *   the group leader's sign-off (the last time; every reopening is also in the audit log).
 * - On PostgreSQL defence_score.score becomes double precision ("real" is 4 bytes there:
 *   77.3 would read back as 77.30000305).
 */
import { sql, type Kysely } from "kysely";
import { isPostgres } from "./util";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("app_user").addColumn("expertise", "text").execute();
  await db.schema.alterTable("defence_session").addColumn("reopened_at", "text").execute();
  await db.schema
    .alterTable("defence_session")
    .addColumn("reopened_by", "integer", (c) => c.references("app_user.id"))
    .execute();
  await db.schema.alterTable("defence_session").addColumn("reopen_reason", "text").execute();
  if (isPostgres(db)) await sql`alter table defence_score alter column score type double precision`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const c of ["reopen_reason", "reopened_by", "reopened_at"])
    await db.schema.alterTable("defence_session").dropColumn(c).execute();
  await db.schema.alterTable("app_user").dropColumn("expertise").execute();
}
