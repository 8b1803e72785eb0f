/**
 * One multipart upload with progress: the text `fields` first, in their order, then `file`
 * (servers read the fields before the stream), via XMLHttpRequest because fetch reports no
 * upload progress. Progress stops at 99 until the server answers. Resolves to the reply
 * envelope; never rejects.
 */
import { NETWORK_ERROR_TEXT } from "../shared/errors";
import { toReply, type ClientReply } from "./request";

export function uploadWithProgress<T>(
  url: string,
  fields: Record<string, string>,
  file: File,
  onProgress: (percent: number) => void,
): Promise<ClientReply<T>> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("file", file, file.name);
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
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
      resolve(toReply<T>(xhr.status, body));
    };
    xhr.onerror = () => resolve({ error: -1, info: NETWORK_ERROR_TEXT, status: 0 });
    xhr.send(form);
  });
}
