/** Queries of work attachments (work_file) and of the category's requirements. No rules here. */
import type { Attachment } from "../../../shared/work-type/schema";
import type { FileRequirement, WorkFileView } from "../../../shared/work/files";
import type { Handle } from "../repository";

/** What the work's 大类 requires (a 小类 has none of its own). */
export async function requirementsOf(db: Handle, categoryId: number): Promise<FileRequirement[]> {
  const row = await db
    .selectFrom("work_category")
    .select(["parent_id", "required_attachments"])
    .where("id", "=", categoryId)
    .executeTakeFirst();
  if (!row) return [];
  if (row.parent_id !== null) return requirementsOf(db, row.parent_id);
  return (JSON.parse(row.required_attachments) as Attachment[]).map((a) => ({
    key: a.key,
    name: a.name,
    required: a.required,
    maxSizeMB: a.maxSizeMB,
    types: a.types.map((t) => t.replace(/^\./, "").toLowerCase()),
  }));
}

const fileColumns = (db: Handle) =>
  db
    .selectFrom("work_file")
    .innerJoin("app_user", "app_user.id", "work_file.uploaded_by")
    .select([
      "work_file.id",
      "work_file.work_id",
      "work_file.kind",
      "work_file.filename",
      "work_file.size",
      "work_file.mime",
      "work_file.sha256",
      "work_file.uploaded_by",
      "app_user.name as uploader_name",
      "work_file.created_at",
      "work_file.replaced_at",
      "work_file.deleted_at",
    ]);
export type FileRow = Awaited<ReturnType<ReturnType<typeof fileColumns>["executeTakeFirstOrThrow"]>>;

/** The current file of each kind (neither replaced nor deleted). */
export const currentFiles = (db: Handle, workId: number) =>
  fileColumns(db)
    .where("work_file.work_id", "=", workId)
    .where("work_file.replaced_at", "is", null)
    .where("work_file.deleted_at", "is", null)
    .orderBy("work_file.id")
    .execute();

export const currentOfKind = (db: Handle, workId: number, kind: string) =>
  fileColumns(db)
    .where("work_file.work_id", "=", workId)
    .where("work_file.kind", "=", kind)
    .where("work_file.replaced_at", "is", null)
    .where("work_file.deleted_at", "is", null)
    .executeTakeFirst();

/** Any file ever uploaded to the work (current or kept as history). */
export const fileOfWork = (db: Handle, workId: number, fileId: number) =>
  fileColumns(db).where("work_file.work_id", "=", workId).where("work_file.id", "=", fileId).executeTakeFirst();

export const currentKinds = async (db: Handle, workId: number) =>
  (
    await db
      .selectFrom("work_file")
      .select("kind")
      .where("work_id", "=", workId)
      .where("replaced_at", "is", null)
      .where("deleted_at", "is", null)
      .execute()
  ).map((r) => r.kind);

export interface NewFile {
  workId: number;
  kind: string;
  filename: string;
  size: number;
  mime: string;
  sha256: string;
  uploadedBy: number;
  at: string;
}

export async function insertFile(db: Handle, f: NewFile): Promise<number> {
  const row = await db
    .insertInto("work_file")
    .values({
      work_id: f.workId,
      kind: f.kind,
      filename: f.filename,
      size: f.size,
      mime: f.mime,
      sha256: f.sha256,
      uploaded_by: f.uploadedBy,
      created_at: f.at,
      replaced_at: null,
      deleted_at: null,
      deleted_by: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Marks a current file replaced; false when it is no longer current (someone else got there first). */
export async function markReplaced(db: Handle, fileId: number, at: string): Promise<boolean> {
  const r = await db
    .updateTable("work_file")
    .set({ replaced_at: at })
    .where("id", "=", fileId)
    .where("replaced_at", "is", null)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function markDeleted(db: Handle, fileId: number, userId: number, at: string): Promise<boolean> {
  const r = await db
    .updateTable("work_file")
    .set({ deleted_at: at, deleted_by: userId })
    .where("id", "=", fileId)
    .where("replaced_at", "is", null)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export function toFileView(r: FileRow, requirements: FileRequirement[]): WorkFileView {
  return {
    id: r.id,
    kind: r.kind,
    // "defence": the defence material uploaded through the authors' defence link.
    kindName: requirements.find((q) => q.key === r.kind)?.name ?? (r.kind === "defence" ? "答辩材料" : r.kind),
    filename: r.filename,
    size: Number(r.size),
    mime: r.mime,
    sha256: r.sha256,
    uploadedBy: { id: r.uploaded_by, name: r.uploader_name },
    createdAt: r.created_at,
  };
}

/** Is this error the one-current-file-per-kind index refusing a second current file? */
export function isCurrentFileViolation(e: unknown): boolean {
  const err = e as { code?: string; constraint?: string; message?: string };
  if (err?.code === "23505") return err.constraint === "work_file_current";
  return /UNIQUE constraint failed: work_file\.work_id, work_file\.kind/.test(String(err?.message ?? ""));
}
