/** The whole ranking of a contest as an .xlsx file. */
import { rm, readFile, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { badRequest } from "../../../../shared/errors";
import { RECOMMENDATION_NAMES } from "../../../../shared/judging/result-schema";
import type { Db } from "../../../db";
import type { User } from "../../../db/schema";
import { writeXlsx } from "../../../crud/excel";
import { groupRanking, resultsOverview } from "./overview";

const COLUMNS = [
  { header: "结果分组", width: 24 },
  { header: "排名", width: 8 },
  { header: "作品编号", width: 14 },
  { header: "作品名称", width: 30 },
  { header: "学校", width: 20 },
  { header: "大类", width: 16 },
  { header: "评委数", width: 8 },
  { header: "原始平均分", width: 12 },
  { header: "标准化成绩", width: 12 },
  { header: "分差", width: 8 },
  { header: "分歧", width: 8 },
  { header: "评分未完成", width: 10 },
  { header: "答辩平均分", width: 12 },
  { header: RECOMMENDATION_NAMES.strong, width: 10 },
  { header: RECOMMENDATION_NAMES.recommend, width: 8 },
  { header: RECOMMENDATION_NAMES.not, width: 8 },
  { header: "奖项", width: 10 },
  { header: "手动设置奖项", width: 12 },
  { header: "晋级", width: 8 },
];

const round = (v: number | null, d = 2) => (v === null ? null : Math.round(v * 10 ** d) / 10 ** d);

/** The whole ranking as .xlsx (one row per work, groups in order, ranked works first). */
export async function exportResults(db: Db, user: User, contestId: number): Promise<{ filename: string; buffer: Buffer }> {
  const overview = await resultsOverview(db, user, contestId);
  if (!overview.groups.length) throw badRequest("请先计算成绩，再导出");
  const dir = await mkdtemp(join(tmpdir(), "saiwu-results-"));
  const file = join(dir, "results.xlsx");
  try {
    await writeXlsx(
      file,
      "成绩排名",
      COLUMNS,
      (async function* () {
        for (const g of overview.groups) {
          const rows = await groupRanking(db, user, contestId, g.key);
          yield rows.map((r) => [
            g.name,
            r.rank,
            r.workId,
            r.workName,
            r.schoolName,
            r.categoryName,
            r.judgeCount,
            round(r.rawMean),
            round(r.normalised),
            round(r.spread),
            r.flagged ? "是" : "",
            r.incomplete ? "是" : "",
            round(r.defenceMean),
            r.recommendations.strong,
            r.recommendations.recommend,
            r.recommendations.not,
            r.award?.name ?? "",
            r.awardManual ? "是" : "",
            r.promoted ? "是" : "",
          ]);
        }
      })(),
    );
    return { filename: `${overview.contest.name}成绩排名.xlsx`, buffer: await readFile(file) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
