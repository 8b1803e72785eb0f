/**
 * Attachments of a work. Reading (the list, a download) follows the work's own rule:
 * whoever may see the work, everyone else 404. Changing (upload, replace, delete): the
 * work's confirmed authors while the work is editable and 「附件」 is not locked; and for a
 * work a contest admin entered on a school's behalf (/ContestAdmin/AddWork: its creator is
 * not one of its authors), the admins of its contest and root ("on behalf"). An upload
 * is checked before a byte is stored (who, state, lock, kind, type), streamed through the
 * size and signature checks into the blob store, then recorded in one transaction that
 * checks again; every change is in the work log. Replaced and deleted rows stay.
 */
import { pipeline, type Readable } from "node:stream";
import { basename } from "node:path";
import { LOCKABLE_FIELD_NAMES } from "../../../shared/contest/lockable-fields";
import { badRequest, conflict, forbidden, gone, invalid, notFound, tooLarge } from "../../../shared/errors";
import { mimeOf, sizeText, type FileRequirement, type WorkFiles, type WorkFileView } from "../../../shared/work/files";
import type { BlobStore } from "../../storage";
import * as repo from "../repository";
import { lockMessage, workLocksOf } from "../rules";
import { inTransaction, loadVisible, type Loaded, type WorkCtx } from "../service/context";
import { requireEditable } from "../service/edit";
import { extensionOf, uploadGuard } from "./check";
import * as files from "./repository";
import { emit } from "../../events";

export interface FileCtx extends WorkCtx {
  store: BlobStore;
}

const MB = 1024 * 1024;
export const NO_FILE = "附件不存在";

/** Why an admin may not change the files of this work on the school's behalf; null when they may. */
export function onBehalfRefusal(l: Loaded): string | null {
  if (!l.relations.has("contest") && !l.relations.has("root")) return "只有管理该作品所在赛事的管理员可以代为上传附件";
  if (l.authors.some((a) => a.user_id === l.work.created_by))
    return "该作品由学生自行提交，附件只能由作者上传；管理员只能为代录入的作品上传附件";
  if (l.work.status === "disqualified") return "作品已取消资格，不能再修改附件";
  return null;
}

/** Who may change the files now: refuses with the reason, else returns. */
async function refuseChange(db: repo.Handle, l: Loaded, now: Date, onBehalf = false) {
  if (onBehalf) {
    const why = onBehalfRefusal(l);
    if (why) throw forbidden(why);
    return;
  }
  if (!l.relations.has("author")) {
    throw forbidden(
      l.relations.has("pending_author") ? "请先确认参加该作品，再上传或删除附件" : "只有作品的作者可以上传或删除附件",
    );
  }
  requireEditable(l);
  const stage = (await workLocksOf(db, l.work, now)).get("attachments");
  if (stage) throw forbidden(lockMessage(LOCKABLE_FIELD_NAMES.attachments, stage));
}

export async function listFiles(ctx: WorkCtx, id: number): Promise<WorkFiles> {
  const l = await loadVisible(ctx, id);
  const requirements = await files.requirementsOf(ctx.db, l.work.category_id);
  const rows = await files.currentFiles(ctx.db, id);
  return { files: rows.map((r) => files.toFileView(r, requirements)), requirements, onBehalf: onBehalfRefusal(l) === null };
}

/** The file part of a multipart upload, as the route received it. */
export interface Incoming {
  /** the text field sent before the file */
  kind: string | undefined;
  filename: string;
  stream: Readable;
  /** the parser stopped reading at its own limit */
  truncated(): boolean;
}

const cleanName = (name: string) =>
  basename(name.replace(/\\/g, "/"))
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(-200);

function requirementFor(reqs: FileRequirement[], kind: string | undefined, categoryName: string): FileRequirement {
  const choices = reqs.map((r) => `${r.name}（${r.key}）`).join("、");
  if (!kind?.trim()) throw invalid("kind", `请先选择附件类型（表单字段 kind 须在文件之前发送），可选：${choices}`);
  const r = reqs.find((q) => q.key === kind.trim());
  if (!r) throw invalid("kind", `「${categoryName}」没有「${kind}」这类附件，可上传：${choices}`);
  return r;
}

const describe = (r: { id: number; kind: string; filename: string; size: number; sha256: string }, kindName: string) => ({
  fileId: r.id,
  kind: r.kind,
  kindName,
  filename: r.filename,
  size: Number(r.size),
  sha256: r.sha256,
});

/**
 * Receives one file: `receive(maxBytes)` starts reading the multipart body with the parser
 * limit set to the largest the category allows; the kind's own limit is enforced here.
 */
export async function uploadFile(
  ctx: FileCtx,
  id: number,
  receive: (maxBytes: number) => Promise<Incoming | undefined>,
  onBehalf = false,
): Promise<{ file: WorkFileView; replaced: boolean }> {
  const before = await loadVisible(ctx, id);
  await refuseChange(ctx.db, before, new Date(), onBehalf);
  const reqs = await files.requirementsOf(ctx.db, before.work.category_id);
  if (!reqs.length) throw badRequest(`「${before.work.category_name}」没有需要提交的附件`);
  const incoming = await receive(Math.max(...reqs.map((r) => r.maxSizeMB)) * MB + 1);
  if (!incoming) throw badRequest("请选择要上传的文件");
  let rule: FileRequirement;
  let filename: string;
  let ext: string;
  try {
    rule = requirementFor(reqs, incoming.kind, before.work.category_name);
    filename = cleanName(incoming.filename);
    if (!filename) throw invalid("file", "请选择要上传的文件");
    ext = extensionOf(filename);
    if (!rule.types.includes(ext))
      throw invalid("file", `「${rule.name}」只接受 ${rule.types.join("、")} 格式的文件，「${filename}」不符合`);
  } catch (e) {
    incoming.stream.destroy();
    throw e;
  }

  const guard = uploadGuard({ name: rule.name, ext, maxBytes: rule.maxSizeMB * MB, maxSizeMB: rule.maxSizeMB, filename });
  const stored = await ctx.store.put(pipeline(incoming.stream, guard, () => {}));
  if (incoming.truncated()) throw tooLarge(`「${rule.name}」的文件不能超过 ${rule.maxSizeMB} MB，「${filename}」超过了这一限制`);

  const done = await inTransaction(ctx, async (t) => {
    // The work may have changed while the file arrived: check again inside the transaction.
    const l = await loadVisible(t, id);
    await refuseChange(t.db, l, t.now, onBehalf);
    const at = t.now.toISOString();
    const old = await files.currentOfKind(t.db, id, rule.key);
    if (old && !(await files.markReplaced(t.db, old.id, at))) throw conflict(`「${rule.name}」正在被他人同时上传，请刷新后重试`);
    let fileId: number;
    try {
      fileId = await files.insertFile(t.db, {
        workId: id,
        kind: rule.key,
        filename,
        size: stored.size,
        mime: mimeOf(ext),
        sha256: stored.sha256,
        uploadedBy: t.user.id,
        at,
      });
    } catch (e) {
      if (files.isCurrentFileViolation(e)) throw conflict(`「${rule.name}」正在被他人同时上传，请刷新后重试`);
      throw e;
    }
    const row = (await files.fileOfWork(t.db, id, fileId))!;
    await repo.appendLog(t.db, {
      workId: id,
      userId: t.user.id,
      action: old ? "replace_file" : "upload_file",
      changes: { attachments: [old ? describe(old, rule.name) : null, describe(row, rule.name)] },
    });
    return { file: files.toFileView(row, reqs), replaced: !!old };
  });
  // After the commit: the duplicate check reads the work's documents again (background; drafts are skipped).
  await emit(ctx.db, "work.textChanged", { workIds: [id] });
  return done;
}

export const uploadedMessage = (f: WorkFileView, replaced: boolean) =>
  `${replaced ? "已替换" : "已上传"}「${f.kindName}」：${f.filename}（${sizeText(f.size)}）`;

export async function deleteFile(ctx: WorkCtx, id: number, fileId: number, onBehalf = false): Promise<WorkFileView> {
  const view = await inTransaction(ctx, async (t) => {
    const l = await loadVisible(t, id);
    const row = await files.fileOfWork(t.db, id, fileId);
    if (!row || row.replaced_at || row.deleted_at) throw notFound(NO_FILE);
    await refuseChange(t.db, l, t.now, onBehalf);
    const reqs = await files.requirementsOf(t.db, l.work.category_id);
    const view = files.toFileView(row, reqs);
    if (!(await files.markDeleted(t.db, fileId, t.user.id, t.now.toISOString()))) throw notFound(NO_FILE);
    await repo.appendLog(t.db, {
      workId: id,
      userId: t.user.id,
      action: "delete_file",
      changes: { attachments: [describe(row, view.kindName), null] },
    });
    return view;
  });
  await emit(ctx.db, "work.textChanged", { workIds: [id] });
  return view;
}

/** A file of the work (also an earlier, replaced one) with its bytes, for those who may see the work. */
export async function openFile(ctx: FileCtx, id: number, fileId: number): Promise<{ row: files.FileRow; stream: Readable }> {
  await loadVisible(ctx, id);
  const row = await files.fileOfWork(ctx.db, id, fileId);
  if (!row) throw notFound(NO_FILE);
  if (!(await ctx.store.has(row.sha256))) throw gone("附件的文件内容已丢失，请联系系统管理员");
  return { row, stream: await ctx.store.get(row.sha256) };
}
