/**
 * Attachments of a work: the API shapes (list, upload reply) shared by server and browser.
 * What a category requires (kinds, size limits, file types) is set on the work type
 * (/admin work types, requiredAttachments); one current file per kind.
 */
import { Type, type Static } from "typebox";
import { WorkId } from "./schema";
import { MAX_ID } from "../bounds";

export const WorkFileView = Type.Object({
  id: Type.Integer(),
  /** the key of the category's required attachment, e.g. "video" */
  kind: Type.String(),
  kindName: Type.String(),
  filename: Type.String(),
  size: Type.Integer(),
  mime: Type.String(),
  sha256: Type.String(),
  uploadedBy: Type.Object({ id: Type.Integer(), name: Type.String() }),
  createdAt: Type.String(),
});
export type WorkFileView = Static<typeof WorkFileView>;

export const FileRequirement = Type.Object({
  key: Type.String(),
  name: Type.String(),
  required: Type.Boolean(),
  maxSizeMB: Type.Integer(),
  /** extensions without the dot, lower case */
  types: Type.Array(Type.String()),
});
export type FileRequirement = Static<typeof FileRequirement>;

export const WorkFiles = Type.Object({
  files: Type.Array(WorkFileView),
  requirements: Type.Array(FileRequirement),
  /** the caller may upload and delete as the admin who entered the work for its school (AddWork) */
  onBehalf: Type.Boolean(),
});
export type WorkFiles = Static<typeof WorkFiles>;

export const WorkFileParam = Type.Object({ id: WorkId, fileId: Type.Integer({ minimum: 1, maximum: MAX_ID, title: "附件" }) });

/** Content types by extension (the uploader's own claim is not trusted). */
export const MIME_BY_EXT: Record<string, string> = {
  pdf: "application/pdf",
  zip: "application/zip",
  rar: "application/vnd.rar",
  "7z": "application/x-7z-compressed",
  mp4: "video/mp4",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  txt: "text/plain",
};
export const mimeOf = (ext: string) => MIME_BY_EXT[ext] ?? "application/octet-stream";

/** "12.3 MB" */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1048576).toFixed(1)} MB`;
}
