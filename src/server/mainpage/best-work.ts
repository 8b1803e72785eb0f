/**
 * /admin/BestWork (root, casbin api.bestWork): outstanding works chosen among published
 * awards, ordered, with a cover image (blob store; PNG or JPEG by the first bytes, like the
 * certificate backgrounds), a short text and an optional video address, published or not.
 * Every change is written to the audit log.
 */
import { Readable } from "node:stream";
import { sql } from "kysely";
import { conflict, invalid, notFound } from "../../shared/errors";
import type { BestWorkAdmin, BestWorkUpdate, Candidate, PageOf } from "../../shared/mainpage/schema";
import type { Db } from "../db";
import type { BlobStore } from "../storage";
import { record, diff } from "../common/audit";
import { readImage, type IncomingImage } from "../storage/image-upload";
import { bestWorkBase, bestWorkCard, filteredAwards, type BestWorkRow, type ResultFilters } from "./public";

export const COVER_MAX_BYTES = 5 * 1024 * 1024;
const ENTITY = "best_work";

const adminView = (r: BestWorkRow): BestWorkAdmin => ({
  ...bestWorkCard(r),
  coverUrl: r.cover_sha256 ? `/Backend/Admin/best-work/${r.id}/cover?v=${r.cover_sha256.slice(0, 16)}` : null,
  sort: r.sort,
  published: !!Number(r.published),
  publishedAt: r.published_at,
  coverSha256: r.cover_sha256,
  updatedAt: r.updated_at,
});

export async function listBest(db: Db): Promise<BestWorkAdmin[]> {
  const rows = (await bestWorkBase(db).orderBy("best_work.sort").orderBy("best_work.id").execute()) as BestWorkRow[];
  return rows.map(adminView);
}

async function getBest(db: Db, id: number): Promise<BestWorkAdmin> {
  const row = (await bestWorkBase(db).where("best_work.id", "=", id).executeTakeFirst()) as BestWorkRow | undefined;
  if (!row) throw notFound("优秀作品不存在");
  return adminView(row);
}

export async function candidates(db: Db, f: ResultFilters): Promise<PageOf<Candidate>> {
  const q = filteredAwards(db, f);
  const size = f.pageSize ?? 10;
  const [total, rows] = await Promise.all([
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    q
      .select([
        "work.id as work_id",
        "work.name as work_name",
        "contest.id as contest_id",
        "contest.name as contest_name",
        "contest.year",
        "work_category.name as category_name",
        "award_level.name as award_name",
        "school.name as school_name",
        "work.author_names",
        "work.teacher_names",
      ])
      .select((eb) =>
        eb.exists(eb.selectFrom("best_work").select("best_work.id").whereRef("best_work.work_id", "=", "work.id")).as("chosen"),
      )
      .orderBy("contest.year", "desc")
      .orderBy("contest.id")
      .orderBy("award_level.sort")
      .orderBy("contest_result.rank")
      .orderBy("work.id")
      .offset(((f.current ?? 1) - 1) * size)
      .limit(size)
      .execute(),
  ]);
  return {
    list: rows.map((r) => ({
      workId: r.work_id,
      workName: r.work_name,
      contestId: r.contest_id,
      contestName: r.contest_name,
      year: r.year,
      categoryName: r.category_name,
      awardName: r.award_name,
      schoolName: r.school_name,
      authorNames: r.author_names,
      teacherNames: r.teacher_names,
      chosen: !!Number(r.chosen),
    })),
    total: Number(total.n),
  };
}

/** Chooses a work: it must hold a published award; the award's contest (the highest level) goes with it. */
export async function addBest(db: Db, userId: number, workId: number): Promise<BestWorkAdmin> {
  const award = await filteredAwards(db, {})
    .where("work.id", "=", workId)
    .select(["contest.id"])
    .orderBy(sql`case contest.level when 'national' then 0 when 'provincial' then 1 else 2 end`)
    .orderBy("contest.year", "desc")
    .executeTakeFirst();
  if (!award) throw invalid("workId", `作品 ${workId} 没有已发布的奖项，不能选为优秀作品`);
  const id = await db.transaction().execute(async (trx) => {
    const exists = await trx.selectFrom("best_work").select("id").where("work_id", "=", workId).executeTakeFirst();
    if (exists) throw conflict(`作品 ${workId} 已在优秀作品中`);
    const max = await trx
      .selectFrom("best_work")
      .select((eb) => eb.fn.max("sort").as("m"))
      .executeTakeFirst();
    const now = new Date().toISOString();
    const { id } = await trx
      .insertInto("best_work")
      .values({
        work_id: workId,
        contest_id: award.id,
        sort: Number(max?.m ?? 0) + 1,
        text: "",
        published: 0,
        updated_by: userId,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await record(trx, userId, { entity: ENTITY, entityId: id, action: "create", changes: { workId: [null, workId] } });
    return id;
  });
  return getBest(db, id);
}

function cleanVideo(url: string | null | undefined): string | null | undefined {
  if (url === undefined || url === null) return url;
  const u = url.trim();
  if (!u) return null;
  let parsed: URL;
  try {
    parsed = new URL(u);
  } catch {
    throw invalid("videoUrl", "视频地址须为以 http:// 或 https:// 开头的网址");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw invalid("videoUrl", "视频地址须为以 http:// 或 https:// 开头的网址");
  return u;
}

export async function updateBest(db: Db, userId: number, id: number, input: BestWorkUpdate): Promise<BestWorkAdmin> {
  const before = await getBest(db, id);
  const video = cleanVideo(input.videoUrl);
  const next = {
    text: input.text === undefined ? before.text : input.text.trim(),
    videoUrl: video === undefined ? before.videoUrl : video,
    sort: input.sort ?? before.sort,
    published: input.published ?? before.published,
  };
  if (next.published && !before.published && !before.awardName) throw invalid("published", "该作品的奖项已撤回发布，不能公开");
  const changes = diff({ text: before.text, videoUrl: before.videoUrl, sort: before.sort, published: before.published }, next);
  if (!Object.keys(changes).length) return before;
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("best_work")
      .set({
        text: next.text,
        video_url: next.videoUrl,
        sort: next.sort,
        published: next.published ? 1 : 0,
        published_at: next.published ? (before.publishedAt ?? now) : null,
        updated_by: userId,
        updated_at: now,
      })
      .where("id", "=", id)
      .execute();
    await record(trx, userId, { entity: ENTITY, entityId: id, action: "update", changes });
  });
  return getBest(db, id);
}

export async function orderBest(db: Db, userId: number, ids: number[]): Promise<BestWorkAdmin[]> {
  if (new Set(ids).size !== ids.length) throw invalid("ids", "顺序中有重复的优秀作品");
  await db.transaction().execute(async (trx) => {
    const all = await trx.selectFrom("best_work").select(["id", "sort"]).execute();
    const known = new Set(all.map((r) => r.id));
    const missing = ids.filter((i) => !known.has(i));
    if (missing.length) throw notFound(`优秀作品 ${missing.join("、")} 不存在`);
    const now = new Date().toISOString();
    for (const [i, id] of ids.entries()) {
      const old = all.find((r) => r.id === id)!.sort;
      if (old === i + 1) continue;
      await trx
        .updateTable("best_work")
        .set({ sort: i + 1, updated_by: userId, updated_at: now })
        .where("id", "=", id)
        .execute();
      await record(trx, userId, { entity: ENTITY, entityId: id, action: "update", changes: { sort: [old, i + 1] } });
    }
  });
  return listBest(db);
}

export async function removeBest(db: Db, userId: number, id: number) {
  const before = await getBest(db, id);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("best_work").where("id", "=", id).execute();
    await record(trx, userId, { entity: ENTITY, entityId: id, action: "delete", changes: { workId: [before.workId, null] } });
  });
}

export async function setCover(
  db: Db,
  store: BlobStore,
  userId: number,
  id: number,
  incoming: IncomingImage | undefined,
): Promise<BestWorkAdmin> {
  const before = await getBest(db, id);
  const { buf, info, name } = await readImage(incoming, { what: "封面图片", maxBytes: COVER_MAX_BYTES });
  if (!info.width || !info.height || info.width > 8000 || info.height > 8000)
    throw invalid("file", `「${name}」的尺寸（${info.width} × ${info.height} 像素）不合适，请不超过 8000 × 8000 像素`);
  const { sha256 } = await store.put(Readable.from([buf]));
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("best_work")
      .set({ cover_sha256: sha256, cover_mime: info.type, updated_by: userId, updated_at: new Date().toISOString() })
      .where("id", "=", id)
      .execute();
    await record(trx, userId, {
      entity: ENTITY,
      entityId: id,
      action: "update",
      changes: { cover: [before.coverSha256, sha256] },
    });
  });
  return getBest(db, id);
}

export async function adminCover(db: Db, id: number) {
  const row = await db.selectFrom("best_work").select(["cover_sha256", "cover_mime"]).where("id", "=", id).executeTakeFirst();
  if (!row?.cover_sha256) throw notFound("图片不存在");
  return { sha256: row.cover_sha256, mime: row.cover_mime ?? "image/png" };
}
