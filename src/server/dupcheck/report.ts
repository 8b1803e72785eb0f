/**
 * The batch report of a contest (the contest and its children, e.g. a provincial contest's
 * school contests): every work is checked against the index, the pairs at or above the
 * threshold are grouped into clusters of connected works (union-find, clusterPairs), and an
 * .xlsx with one row per pair, cluster by cluster, is written by an export job (any process;
 * progress per work; the file through /Backend/Common/job/:id/download). The job's result
 * holds the clusters for the screen. Partners outside the requester's scope appear as the
 * fact only (id, year, similarity, level), as everywhere in the duplicate check.
 */
import { rm } from "node:fs/promises";
import { sql } from "kysely";
import type { DupReportBody, DupReportContest, DupReportPair, DupReportResult, DupWorkRef } from "../../shared/dupcheck/api";
import { DUP_LEVEL_NAMES, type DupMatch } from "../../shared/dupcheck/schema";
import { notFound } from "../../shared/errors";
import { ROLE } from "../../shared/roles";
import type { Jobs } from "../jobs/user-jobs";
import { writeXlsx, type SheetColumn } from "../crud/excel";
import type { Db } from "../db";
import type { User } from "../db/schema";
import type { BlobStore } from "../storage";
import { adminContestIds } from "../scope";
import { checkWork, clusterPairs, getSettings, indexWork, isIndexable, levelOf } from "./index";
import { dupScope, factsOf } from "./scope";
import { refOf } from "./views";

export const REPORT_RESOURCE = "dupcheck-report";
export const NO_CONTEST = "赛事不存在或不在您的管理范围内";
/** Clusters and pairs per cluster kept in the job's result (the file has all). */
const SUMMARY_CLUSTERS = 100;
const SUMMARY_PAIRS = 50;

const pct = (x: number | null) => (x === null ? "" : `${(x * 100).toFixed(1)}%`);

export const REPORT_COLUMNS: SheetColumn[] = [
  { header: "组号", width: 7 },
  { header: "组内作品数", width: 10 },
  { header: "作品A编号", width: 13 },
  { header: "作品A名称", width: 30 },
  { header: "作品A年度", width: 9 },
  { header: "作品A赛事", width: 34 },
  { header: "作品B编号", width: 13 },
  { header: "作品B名称", width: 30 },
  { header: "作品B年度", width: 9 },
  { header: "作品B赛事", width: 34 },
  { header: "相似度", width: 9 },
  { header: "A在B中占比", width: 11 },
  { header: "B在A中占比", width: 11 },
  { header: "级别", width: 14 },
];

/** The contest and all its descendants. */
async function contestTree(db: Db, contestId: number): Promise<number[]> {
  const rows = await sql<{ id: number }>`
    with recursive tree(id) as (
      select id from contest where id = ${contestId}
      union
      select contest.id from contest inner join tree on contest.parent_id = tree.id
    )
    select id from tree`.execute(db);
  return rows.rows.map((r) => Number(r.id));
}

/** Contests the user may report on (root: all; a contest admin: the own and their children), newest first. */
export async function reportContests(db: Db, user: User): Promise<DupReportContest[]> {
  const scope = await adminContestIds(db, user);
  if (scope !== "all" && !scope.length) return [];
  let q = db
    .selectFrom("contest")
    .leftJoin("work", (j) => j.onRef("work.contest_id", "=", "contest.id").on("work.status", "!=", "draft"))
    .select(["contest.id", "contest.name", "contest.year", "contest.level", (eb) => eb.fn.count<number>("work.id").as("works")])
    .groupBy(["contest.id", "contest.name", "contest.year", "contest.level"]);
  if (scope !== "all") q = q.where("contest.id", "in", scope);
  const rows = await q.orderBy("contest.year", "desc").orderBy("contest.level").orderBy("contest.id").limit(1000).execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.name, year: Number(r.year), level: r.level, works: Number(r.works) }));
}

export async function requireReportContest(db: Db, user: User, contestId: number) {
  const c = await db.selectFrom("contest").select(["id", "name"]).where("id", "=", contestId).executeTakeFirst();
  const scope = user.user_type === ROLE.root ? "all" : await adminContestIds(db, user);
  if (!c || (scope !== "all" && !scope.includes(contestId))) throw notFound(NO_CONTEST);
  return c;
}

interface Params extends DupReportBody {
  threshold: number;
}

export async function startReport(db: Db, jobs: Jobs, user: User, body: DupReportBody): Promise<string> {
  await requireReportContest(db, user, body.contestId);
  const threshold = body.threshold ?? (await getSettings(db)).suspect;
  const jobId = await jobs.create("export", REPORT_RESOURCE, user.id, {
    contestId: body.contestId,
    threshold,
    outsideContest: body.outsideContest ?? true,
  } satisfies Params);
  await jobs.enqueue(jobId);
  return jobId;
}

export function registerReport(db: Db, store: BlobStore, jobs: Jobs) {
  jobs.register("export", REPORT_RESOURCE, async (rc) => {
    const p = rc.params as Params;
    const contest = await requireReportContest(db, rc.user, p.contestId);
    const settings = await getSettings(db);
    const tree = await contestTree(db, p.contestId);
    const works = (
      await db.selectFrom("work").select(["id", "status"]).where("contest_id", "in", tree).orderBy("id").execute()
    ).filter((w) => isIndexable(w.status));
    const inContest = new Set(works.map((w) => Number(w.id)));
    rc.progress(0, works.length);

    // Every pair once (smaller id first), with the figures as seen from the contest's work.
    const pairs = new Map<string, { a: number; b: number; m: DupMatch }>();
    let checked = 0;
    let notChecked = 0;
    for (const [i, w] of works.entries()) {
      rc.signal.throwIfAborted();
      const id = Number(w.id);
      let r = await checkWork(db, id, { minSimilarity: p.threshold, limit: 1000 });
      if (r.status === "missing") {
        await indexWork(db, store, id);
        r = await checkWork(db, id, { minSimilarity: p.threshold, limit: 1000 });
      }
      if (r.tooShort || r.status === "failed" || r.status === "missing") notChecked++;
      else checked++;
      for (const m of r.matches) {
        if (m.similarity < p.threshold) continue;
        if (!p.outsideContest && !inContest.has(m.workId)) continue;
        const key = id < m.workId ? `${id}:${m.workId}` : `${m.workId}:${id}`;
        const seen = pairs.get(key);
        if (!seen || seen.m.similarity < m.similarity) pairs.set(key, { a: id, b: m.workId, m });
      }
      rc.progress(i + 1);
    }

    const scope = await dupScope(db, rc.user);
    const list = [...pairs.values()];
    const clusters = clusterPairs(list.map((x) => ({ a: x.a, b: x.b })));
    const facts = await factsOf(db, clusters.flat());
    const ref = (id: number, year: number): DupWorkRef => refOf(scope, id, facts.get(id), year);
    const yearOf = new Map<number, number>();
    for (const x of list) yearOf.set(x.b, x.m.year);
    const clusterOf = new Map<number, number>();
    clusters.forEach((c, i) => c.forEach((id) => clusterOf.set(id, i)));
    const byCluster = clusters.map(() => [] as typeof list);
    for (const x of list) byCluster[clusterOf.get(x.a)!].push(x);
    for (const c of byCluster) c.sort((x, y) => y.m.similarity - x.m.similarity || x.a - y.a || x.b - y.b);

    const rowOf = (ci: number, x: (typeof list)[number]) => {
      const a = ref(x.a, facts.get(x.a)?.year ?? 0);
      const b = ref(x.b, x.m.year);
      const both = a.inScope && b.inScope;
      return [
        ci + 1,
        clusters[ci].length,
        a.workId,
        a.name ?? "（不在管理范围内）",
        a.year,
        a.contestName ?? "",
        b.workId,
        b.name ?? "（不在管理范围内）",
        b.year,
        b.contestName ?? "",
        pct(x.m.similarity),
        both ? pct(x.m.containmentAB) : "",
        both ? pct(x.m.containmentBA) : "",
        DUP_LEVEL_NAMES[levelOf(x.m.similarity, settings)],
      ];
    };
    const file = await jobs.tmpPath("xlsx");
    try {
      await writeXlsx(
        file,
        "疑似重复作品",
        REPORT_COLUMNS,
        (async function* () {
          for (const [ci, c] of byCluster.entries()) yield c.map((x) => rowOf(ci, x));
        })(),
      );
    } catch (err) {
      await rm(file, { force: true });
      throw err;
    }
    const sha = await jobs.storeFile(file);
    const result: DupReportResult = {
      contestId: contest.id,
      contestName: contest.name,
      threshold: p.threshold,
      works: works.length,
      checked,
      notChecked,
      pairs: list.length,
      clusters: byCluster.slice(0, SUMMARY_CLUSTERS).map((c, i) => ({
        index: i + 1,
        maxSimilarity: c[0]?.m.similarity ?? 0,
        works: clusters[i].map((id) => ref(id, facts.get(id)?.year ?? yearOf.get(id) ?? 0)),
        pairs: c
          .slice(0, SUMMARY_PAIRS)
          .map((x): DupReportPair => ({ a: x.a, b: x.b, similarity: x.m.similarity, level: levelOf(x.m.similarity, settings) })),
      })),
      moreClusters: Math.max(0, clusters.length - SUMMARY_CLUSTERS),
    };
    const message = list.length
      ? `检查了 ${works.length} 件作品，发现 ${list.length} 对疑似重复，分为 ${clusters.length} 组`
      : `检查了 ${works.length} 件作品，未发现相似度达到 ${pct(p.threshold)} 的作品对`;
    await jobs.finish(rc.job.id, "running", "done", {
      output_sha256: sha,
      processed: works.length,
      total: works.length,
      message,
      result,
    });
  });
}
