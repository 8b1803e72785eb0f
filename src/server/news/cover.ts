/** A news cover: an http(s) image address or a raster data:image URL of at most 500 KB of image. */
import { invalid } from "../../shared/errors";
import { COVER_MAX_BYTES } from "../../shared/news/schema";
import { DATA_IMAGE } from "../richtext/sanitize";

export function cleanCover(cover: string | null | undefined): string | null {
  const c = cover?.trim();
  if (!c) return null;
  if (/^data:/i.test(c)) {
    if (!DATA_IMAGE.test(c)) throw invalid("cover", "封面须为 PNG、JPEG、GIF、WebP 或 BMP 图片");
    const b64 = c.slice(c.indexOf(",") + 1).replace(/\s+/g, "");
    const bytes = Math.floor((b64.length * 3) / 4) - (b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0);
    if (bytes > COVER_MAX_BYTES)
      throw invalid("cover", `封面图片不能超过 ${COVER_MAX_BYTES / 1024} KB（当前约 ${Math.ceil(bytes / 1024)} KB）`);
    return c.replace(/\s+/g, "");
  }
  let url: URL;
  try {
    url = new URL(c);
  } catch {
    throw invalid("cover", "封面须为以 http:// 或 https:// 开头的图片地址，或上传的图片");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw invalid("cover", "封面须为以 http:// 或 https:// 开头的图片地址，或上传的图片");
  if (c.length > 2000) throw invalid("cover", "封面地址过长");
  return c;
}
