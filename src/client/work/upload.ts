/**
 * Uploads one attachment with progress: multipart/form-data with the text field `kind`
 * first and then `file` (the server reads the kind before the stream), via XMLHttpRequest
 * because fetch reports no upload progress. Resolves to the reply envelope; never rejects.
 */
import type { WorkFileView } from "../../shared/work/files";
import { NETWORK_ERROR_TEXT } from "../../shared/errors";
import { toReply, type ClientReply } from "../request";
import { W } from "./api";

/** `base`: where the work's files are changed — the authors' route, or the admins' for a work entered on a school's behalf. */
export const filesBase = (workId: number, onBehalf = false) => (onBehalf ? `/Backend/Admin/work/${workId}/files` : `${W}/${workId}/files`);

export function uploadWorkFile(workId: number, kind: string, file: File, onProgress: (percent: number) => void, onBehalf = false): Promise<ClientReply<WorkFileView>> {
  const form = new FormData();
  form.append("kind", kind);
  form.append("file", file, file.name);
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", filesBase(workId, onBehalf));
    xhr.setRequestHeader("Accept", "application/json");
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.min(99, Math.floor((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: keep the text */
      }
      resolve(toReply<WorkFileView>(xhr.status, body));
    };
    xhr.onerror = () => resolve({ error: -1, info: NETWORK_ERROR_TEXT, status: 0 });
    xhr.send(form);
  });
}
