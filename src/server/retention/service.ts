/**
 * Root's retention period and the scheduled purge (purge.ts): the setting lives in one row of
 * retention_setting; every run with a period set stores its counts there (shown to root) and in
 * the audit log (entity "retention", action "purge").
 */
import type { Db } from "../db";
import type { BlobStore } from "../storage";
import type { TaskQueue } from "../jobs/queue";
import { record } from "../common/audit";
import type { RetentionReport, RetentionView } from "../../shared/retention/schema";
import { purgeExpired } from "./purge";

export const RETENTION_TASK = "saiwu_retention";
/** Once a day. */
export const RETENTION_EVERY_SECONDS = 86400;

const NO_SETTING = { id: 1, days: null, updated_at: null, updated_by: null, last_run_at: null, last_report: null };

/** The setting, or "off" while root never set one (the row is written only by setRetention). */
async function settingRow(db: Db) {
  return (await db.selectFrom("retention_setting").selectAll().where("id", "=", 1).executeTakeFirst()) ?? NO_SETTING;
}

export async function retentionView(db: Db): Promise<RetentionView> {
  const r = await settingRow(db);
  return {
    days: r.days === null ? null : Number(r.days),
    updatedAt: r.updated_at,
    lastRunAt: r.last_run_at,
    lastReport: r.last_report ? (JSON.parse(r.last_report) as RetentionReport) : null,
  };
}

export async function setRetention(db: Db, userId: number, days: number | null): Promise<RetentionView> {
  const before = await settingRow(db);
  const change = { days, updated_at: new Date().toISOString(), updated_by: userId };
  await db
    .insertInto("retention_setting")
    .values({ ...NO_SETTING, ...change })
    .onConflict((oc) => oc.column("id").doUpdateSet(change))
    .execute();
  await record(db, userId, {
    entity: "retention",
    entityId: 1,
    action: "update",
    changes: { days: [before.days === null ? null : Number(before.days), days] },
  });
  return retentionView(db);
}

/** One scheduled run: nothing while no period is set. */
export async function runRetention(deps: { db: Db; store: BlobStore }, now = new Date()): Promise<RetentionReport | null> {
  const { db } = deps;
  const setting = await settingRow(db);
  if (setting.days === null) return null;
  const report = await purgeExpired(deps, Number(setting.days), now);
  await db
    .updateTable("retention_setting")
    .set({ last_run_at: now.toISOString(), last_report: JSON.stringify(report) })
    .where("id", "=", 1)
    .execute();
  const { cutoff, ...counts } = report;
  await record(db, null, {
    entity: "retention",
    entityId: 1,
    action: "purge",
    changes: { cutoff: [null, cutoff], ...Object.fromEntries(Object.entries(counts).map(([k, n]) => [k, [null, n]])) },
  });
  return report;
}

export async function scheduleRetention(queue: TaskQueue, deps: { db: Db; store: BlobStore; log: (msg: string) => void }) {
  await queue.every(RETENTION_TASK, RETENTION_EVERY_SECONDS, async () => {
    const r = await runRetention(deps);
    if (r)
      deps.log(
        `个人信息清除：${r.contests} 个赛事，手机号 ${r.userPhones} 个，邮箱 ${r.userEmails} 个，申诉 ${r.complaintContacts} 件，证据 ${r.evidence} 份，评委库 ${r.judgePersons} 人`,
      );
  });
}
