/** What the routes' replies share: the success envelope and the download headers. */

/** The success envelope `{ error: 0, info, data }`. */
export const ok = <T>(data: T, info = "成功") => ({ error: 0, info, data });

/** Content-Disposition of a download (RFC 6266): an ASCII fallback and the UTF-8 name. */
export function contentDisposition(filename: string) {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const utf8 = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/** Content-Disposition of a download with the UTF-8 name only (`filename*`). */
export const utf8Attachment = (filename: string) => `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`;
