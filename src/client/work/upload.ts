/**
 * Uploads one attachment with progress: the text field `kind` first and then `file` (the
 * server reads the kind before the stream). Resolves to the reply envelope; never rejects.
 */
import type { WorkFileView } from "../../shared/work/files";
import type { ClientReply } from "../request";
import { uploadWithProgress } from "../upload";
import { W } from "./api";

/** `base`: where the work's files are changed — the authors' route, or the admins' for a work entered on a school's behalf. */
export const filesBase = (workId: number, onBehalf = false) =>
  onBehalf ? `/Backend/Admin/work/${workId}/files` : `${W}/${workId}/files`;

export function uploadWorkFile(
  workId: number,
  kind: string,
  file: File,
  onProgress: (percent: number) => void,
  onBehalf = false,
): Promise<ClientReply<WorkFileView>> {
  return uploadWithProgress<WorkFileView>(filesBase(workId, onBehalf), { kind }, file, onProgress);
}
