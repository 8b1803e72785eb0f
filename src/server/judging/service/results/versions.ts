/**
 * Published versions of a result group. A publication shows contest_result as it is; a
 * change after publication (a complaint's decision: disqualification, a changed award, a
 * re-judge) goes through changePublished, which keeps the group's rows as published before
 * the change (version 1, the first time) and after it (the next version) with the reason and
 * the complaint. The public lookup and the ranking read contest_result, i.e. the current
 * version; earlier versions stay readable by admins. The honours of an award level
 * (优秀指导教师, 优秀组织奖: group key h<award level id>) keep versions the same way
 * (changePublishedGroup).
 */
import type { Transaction } from "kysely";
import { notFound } from "../../../../shared/errors";
import type { ResultVersionDetail, ResultVersionView } from "../../../../shared/complaint/schema";
import type { DB } from "../../../db/schema";
import type { Handle } from "../../../work/repository";
import { record } from "../../../common/audit";
import { emit } from "../../../events";
import { activePublication } from "./change";
import { resultGroupNames } from "./load";
import { keyOfRow } from "./rows";

interface VersionRow {
  workId: number;
  workName: string;
  rank: number | null;
  normalised: number | null;
  award: string | null;
  promoted: boolean;
  disqualified: boolean;
}

async function groupRows(db: Handle, contestId: number, key: string): Promise<VersionRow[]> {
  const n = Number(key.slice(1));
  let q = db
    .selectFrom("contest_result")
    .innerJoin("work", "work.id", "contest_result.work_id")
    .leftJoin("award_level", "award_level.id", "contest_result.award_level_id")
    .select([
      "contest_result.work_id",
      "work.name",
      "work.status",
      "contest_result.rank",
      "contest_result.normalised",
      "award_level.name as award",
      "contest_result.promoted",
    ])
    .where("contest_result.contest_id", "=", contestId);
  q = key.startsWith("g")
    ? q.where("contest_result.group_id", "=", n)
    : q.where("contest_result.group_id", "is", null).where("work.category_id", "=", n);
  const rows = await q.orderBy("contest_result.rank").orderBy("contest_result.work_id").execute();
  return rows.map((r) => ({
    workId: Number(r.work_id),
    workName: r.name,
    rank: r.rank === null ? null : Number(r.rank),
    normalised: r.normalised === null ? null : Number(r.normalised),
    award: r.award ?? null,
    promoted: !!Number(r.promoted),
    disqualified: r.status === "disqualified",
  }));
}

/** The result group of a work in a contest, if it has a result row. */
export async function groupOfWork(db: Handle, contestId: number, workId: number): Promise<string | null> {
  const r = await db
    .selectFrom("contest_result")
    .innerJoin("work", "work.id", "contest_result.work_id")
    .select(["contest_result.group_id", "work.category_id"])
    .where("contest_result.contest_id", "=", contestId)
    .where("contest_result.work_id", "=", workId)
    .executeTakeFirst();
  return r ? keyOfRow(r) : null;
}

async function lastVersion(db: Handle, contestId: number, key: string) {
  return db
    .selectFrom("result_version")
    .select(["version"])
    .where("contest_id", "=", contestId)
    .where("group_key", "=", key)
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** A result group that keeps published versions: its key, name and rows as they stand. */
export interface VersionGroup {
  key: string;
  name: string;
  rows: () => Promise<unknown[]>;
}

/**
 * Runs `change` on the work's result in the contest; when the contest's results are
 * published, records the group's published version before (once) and after it.
 * Returns the new version number (null: not published, no version).
 */
export async function changePublished(
  trx: Transaction<DB>,
  args: { contestId: number; workId: number; reason: string; complaintId: number | null; userId: number },
  change: () => Promise<void>,
): Promise<{ version: number | null; groupName: string | null }> {
  const key = await groupOfWork(trx, args.contestId, args.workId);
  if (!key || !(await activePublication(trx, args.contestId))) {
    await change();
    return { version: null, groupName: null };
  }
  const name = (await resultGroupNames(trx, args.contestId, [key])).get(key) ?? key;
  return changePublishedGroup(
    trx,
    { ...args, workIds: [args.workId], group: { key, name, rows: () => groupRows(trx, args.contestId, key) } },
    change,
  );
}

/**
 * The same for any result group (a work's ranking group, or an honour level: honours.ts):
 * while published, version 1 (as published, once), the change, the certificates re-synced,
 * the next version with the reason, audited. Not published: just the change.
 */
export async function changePublishedGroup(
  trx: Transaction<DB>,
  args: {
    contestId: number;
    group: VersionGroup;
    reason: string;
    complaintId: number | null;
    userId: number;
    workIds?: number[];
  },
  change: () => Promise<void>,
): Promise<{ version: number | null; groupName: string | null }> {
  const pub = await activePublication(trx, args.contestId);
  if (!pub) {
    await change();
    return { version: null, groupName: null };
  }
  const { key, name } = args.group;
  const at = new Date().toISOString();
  let last = await lastVersion(trx, args.contestId, key);
  if (!last) {
    await trx
      .insertInto("result_version")
      .values({
        contest_id: args.contestId,
        group_key: key,
        group_name: name,
        version: 1,
        publication_id: pub.id,
        reason: "发布的结果",
        complaint_id: null,
        rows: JSON.stringify(await args.group.rows()),
        created_at: pub.published_at,
        created_by: pub.published_by,
      })
      .execute();
    last = { version: 1 };
  }
  await change();
  // The certificates (reissued or revoked) and the national entries follow the changed result
  // in the same transaction (src/server/effects.ts).
  await emit(trx, "results.changed", { contestId: args.contestId, userId: args.userId, workIds: args.workIds });
  const version = Number(last.version) + 1;
  await trx
    .insertInto("result_version")
    .values({
      contest_id: args.contestId,
      group_key: key,
      group_name: name,
      version,
      publication_id: pub.id,
      reason: args.reason,
      complaint_id: args.complaintId,
      rows: JSON.stringify(await args.group.rows()),
      created_at: at,
      created_by: args.userId,
    })
    .execute();
  await record(trx, args.userId, {
    entity: "result_version",
    entityId: `${args.contestId}:${key}`,
    action: "publish_version",
    changes: { version: [version - 1, version], complaint: [null, args.complaintId], reason: [null, args.reason] },
  });
  return { version, groupName: name };
}

const versionSelect = (db: Handle) =>
  db
    .selectFrom("result_version as v")
    .leftJoin("app_user as u", "u.id", "v.created_by")
    .select([
      "v.id",
      "v.contest_id",
      "v.group_key",
      "v.group_name",
      "v.version",
      "v.reason",
      "v.complaint_id",
      "v.created_at",
      "v.rows",
      "u.name as created_by",
    ]);

type Selected = Awaited<ReturnType<ReturnType<typeof versionSelect>["executeTakeFirstOrThrow"]>>;

function toView(r: Selected, latest: Map<string, number>): ResultVersionView {
  return {
    id: r.id,
    contestId: r.contest_id,
    groupKey: r.group_key,
    groupName: r.group_name,
    version: Number(r.version),
    current: latest.get(r.group_key) === Number(r.version),
    reason: r.reason,
    complaintId: r.complaint_id,
    createdAt: r.created_at,
    createdBy: r.created_by ?? "",
  };
}

async function latestOf(db: Handle, contestId: number) {
  const rows = await db
    .selectFrom("result_version")
    .select(["group_key", (eb) => eb.fn.max("version").as("v")])
    .where("contest_id", "=", contestId)
    .groupBy("group_key")
    .execute();
  return new Map(rows.map((r) => [r.group_key, Number(r.v)]));
}

/** The versions of the contest's result groups (one group with `group`), newest first. */
export async function resultVersions(db: Handle, contestId: number, group?: string): Promise<ResultVersionView[]> {
  let q = versionSelect(db).where("v.contest_id", "=", contestId);
  if (group) q = q.where("v.group_key", "=", group);
  const rows = await q.orderBy("v.group_key").orderBy("v.version", "desc").execute();
  const latest = await latestOf(db, contestId);
  return rows.map((r) => toView(r, latest));
}

export async function resultVersion(db: Handle, contestId: number, id: number): Promise<ResultVersionDetail> {
  const r = await versionSelect(db).where("v.contest_id", "=", contestId).where("v.id", "=", id).executeTakeFirst();
  if (!r) throw notFound("结果版本不存在");
  return { ...toView(r, await latestOf(db, contestId)), rows: JSON.parse(r.rows) as ResultVersionDetail["rows"] };
}
