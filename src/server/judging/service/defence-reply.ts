/**
 * The authors' defence link /contest/reply/:code. The code is unguessable and is the only
 * key: anyone holding it sees the work's id and name, its time slot, the place or meeting
 * link and what to prepare — nothing about the authors, teachers or school, and no other
 * work. A logged-in confirmed author of that work may upload the defence material (one
 * current file of kind "defence"; a new upload replaces it and the old one is kept) and
 * sees the uploaded files; after the group leader signs off the link is closed for uploads.
 * Uploads are streamed through the attachments' size and signature checks into the blob
 * store and recorded in the work's log.
 */
import type { Readable } from "node:stream";
import { pipeline } from "node:stream";
import { basename } from "node:path";
import { badRequest, conflict, forbidden, gone, invalid, notFound, tooLarge } from "../../../shared/errors";
import {
  DEFENCE_FILE_KIND,
  DEFENCE_FILE_LIMITS,
  DEFENCE_FILE_NAME,
  DEFENCE_FILE_TYPES,
  type DefenceFileView,
  type ReplyView,
} from "../../../shared/judging/defence-schema";
import { mimeOf, sizeText } from "../../../shared/work/files";
import type { Db } from "../../db";
import type { User } from "../../db/schema";
import type { BlobStore } from "../../storage";
import * as repo from "../../work/repository";
import { extensionOf, uploadGuard } from "../../work/files/check";
import * as files from "../../work/files/repository";
import { defenceFiles } from "./defence";

export const NO_LINK = "答辩链接无效或已失效，请向赛事管理员确认";
const MB = 1024 * 1024;

const linkQuery = (db: repo.Handle) =>
  db
    .selectFrom("defence_slot as sl")
    .innerJoin("defence_session as s", "s.id", "sl.session_id")
    .innerJoin("judge_group as g", "g.id", "s.group_id")
    .innerJoin("contest as c", "c.id", "s.contest_id")
    .innerJoin("work", "work.id", "sl.work_id")
    .innerJoin("work_category as cat", "cat.id", "work.category_id")
    .select([
      "sl.id as slot_id",
      "sl.work_id",
      "sl.position",
      "sl.slot_time",
      "s.id as session_id",
      "s.place",
      "s.meeting_link",
      "s.prepare_note",
      "s.minutes_per_work",
      "s.draw_seed",
      "s.signed_off_at",
      "g.name as group_name",
      "c.name as contest_name",
      "work.name as work_name",
      "work.status",
      "cat.name as category_name",
    ]);

async function findLink(db: repo.Handle, code: string) {
  const row = await linkQuery(db).where("sl.code", "=", code).executeTakeFirst();
  if (!row || row.status === "disqualified") throw notFound(NO_LINK);
  return row;
}

async function isAuthor(db: repo.Handle, user: User | null, workId: number) {
  if (!user) return false;
  return !!(await db
    .selectFrom("work_author")
    .select("id")
    .where("work_id", "=", workId)
    .where("user_id", "=", user.id)
    .where("confirmed", "=", 1)
    .executeTakeFirst());
}

export async function replyView(db: Db, user: User | null, code: string): Promise<ReplyView> {
  const l = await findLink(db, code);
  const workId = Number(l.work_id);
  const author = await isAuthor(db, user, workId);
  const all = (await defenceFiles(db, [workId])).get(workId) ?? [];
  return {
    work: { id: workId, name: l.work_name, category: l.category_name },
    contest: l.contest_name,
    group: l.group_name,
    position: l.draw_seed ? l.position : null,
    time: l.draw_seed ? l.slot_time : null,
    minutesPerWork: l.minutes_per_work,
    place: l.place,
    meetingLink: l.meeting_link,
    prepareNote: l.prepare_note,
    drawn: !!l.draw_seed,
    closed: !!l.signed_off_at,
    isAuthor: author,
    fileCount: all.filter((f) => f.current).length,
    files: author ? all : [],
    limits: DEFENCE_FILE_TYPES.map((t) => ({ type: t, maxSizeMB: DEFENCE_FILE_LIMITS[t] })),
  };
}

/** Who may upload now: refuses with the reason. */
async function refuseUpload(db: repo.Handle, user: User, code: string) {
  const l = await findLink(db, code);
  if (!(await isAuthor(db, user, Number(l.work_id))))
    throw forbidden("只有该作品的作者（已确认参赛）可以上传答辩材料，请用作者本人的账号登录");
  if (l.signed_off_at) throw conflict("本组答辩已结束（专家组长已签署结果），不能再上传答辩材料");
  return l;
}

export interface IncomingFile {
  filename: string;
  stream: Readable;
  truncated(): boolean;
}

const cleanName = (name: string) =>
  basename(name.replace(/\\/g, "/"))
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(-200);

/** The largest file the parser lets through (the per-type limit is checked while streaming). */
export const MAX_DEFENCE_BYTES = Math.max(...Object.values(DEFENCE_FILE_LIMITS)) * MB + 1;

export async function uploadDefenceFile(
  db: Db,
  store: BlobStore,
  user: User,
  code: string,
  receive: () => Promise<IncomingFile | undefined>,
): Promise<{ file: DefenceFileView; message: string }> {
  await refuseUpload(db, user, code);
  const incoming = await receive();
  if (!incoming) throw badRequest("请选择要上传的文件");
  let filename: string;
  let ext: string;
  try {
    filename = cleanName(incoming.filename);
    if (!filename) throw invalid("file", "请选择要上传的文件");
    ext = extensionOf(filename);
    if (!DEFENCE_FILE_LIMITS[ext])
      throw invalid("file", `答辩材料只接受 ${DEFENCE_FILE_TYPES.join("、")} 格式的文件，「${filename}」不符合`);
  } catch (e) {
    incoming.stream.destroy();
    throw e;
  }
  const maxSizeMB = DEFENCE_FILE_LIMITS[ext];
  const guard = uploadGuard({ name: DEFENCE_FILE_NAME, ext, maxBytes: maxSizeMB * MB, maxSizeMB, filename });
  const stored = await store.put(pipeline(incoming.stream, guard, () => {}));
  if (incoming.truncated()) throw tooLarge(`${ext} 格式的答辩材料不能超过 ${maxSizeMB} MB，「${filename}」超过了这一限制`);

  return db.transaction().execute(async (trx) => {
    // The session may have been signed off while the file arrived: check again.
    const l = await refuseUpload(trx, user, code);
    const workId = Number(l.work_id);
    const at = new Date().toISOString();
    const old = await files.currentOfKind(trx, workId, DEFENCE_FILE_KIND);
    if (old && !(await files.markReplaced(trx, old.id, at))) throw conflict("答辩材料正在被他人同时上传，请刷新后重试");
    let fileId: number;
    try {
      fileId = await files.insertFile(trx, {
        workId,
        kind: DEFENCE_FILE_KIND,
        filename,
        size: stored.size,
        mime: mimeOf(ext),
        sha256: stored.sha256,
        uploadedBy: user.id,
        at,
      });
    } catch (e) {
      if (files.isCurrentFileViolation(e)) throw conflict("答辩材料正在被他人同时上传，请刷新后重试");
      throw e;
    }
    const describe = (r: { id: number; filename: string; size: number; sha256: string }) => ({
      fileId: r.id,
      kind: DEFENCE_FILE_KIND,
      kindName: DEFENCE_FILE_NAME,
      filename: r.filename,
      size: Number(r.size),
      sha256: r.sha256,
    });
    await repo.appendLog(trx, {
      workId,
      userId: user.id,
      action: old ? "replace_file" : "upload_file",
      changes: {
        attachments: [old ? describe(old) : null, describe({ id: fileId, filename, size: stored.size, sha256: stored.sha256 })],
      },
    });
    const file: DefenceFileView = { id: fileId, filename, size: stored.size, createdAt: at, current: true };
    return { file, message: `${old ? "已替换" : "已上传"}答辩材料：${filename}（${sizeText(stored.size)}）` };
  });
}

/** A defence file of the link's work, for its authors. */
export async function authorDefenceFile(db: Db, store: BlobStore, user: User | null, code: string, fileId: number) {
  const l = await findLink(db, code);
  const workId = Number(l.work_id);
  if (!(await isAuthor(db, user, workId))) throw notFound("答辩材料不存在");
  const f = await db
    .selectFrom("work_file")
    .select(["id", "filename", "size", "mime", "sha256"])
    .where("id", "=", fileId)
    .where("work_id", "=", workId)
    .where("kind", "=", DEFENCE_FILE_KIND)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!f) throw notFound("答辩材料不存在");
  if (!(await store.has(f.sha256))) throw gone("答辩材料的文件内容已丢失，请重新上传");
  return f;
}
