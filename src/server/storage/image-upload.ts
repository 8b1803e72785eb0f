/**
 * Image uploads (certificate backgrounds, best-work covers): one multipart reader and one
 * checked read — PNG or JPEG by the first bytes (never the name), a size limit enforced while
 * streaming, the pixel size from the header. Each caller adds its own dimension rule.
 */
import type { FastifyRequest } from "fastify";
import type { Readable } from "node:stream";
import { badRequest, invalid, tooLarge } from "../../shared/errors";

export type ImageType = "image/png" | "image/jpeg";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG or JPEG by the first bytes, with the size in pixels from the header; null otherwise. */
export function imageInfo(buf: Buffer): { type: ImageType; width: number; height: number } | null {
  if (buf.length >= 24 && buf.subarray(0, 8).equals(PNG) && buf.toString("latin1", 12, 16) === "IHDR") {
    return { type: "image/png", width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
  }
  if (buf.length >= 4 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) {
    let i = 2;
    while (i + 4 <= buf.length) {
      if (buf[i] !== 0xff) return null;
      const marker = buf[i + 1];
      if (marker === 0xff) {
        i++;
        continue;
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        i += 2;
        continue;
      }
      if (marker === 0xd9 || marker === 0xda) return null;
      const len = buf.readUInt16BE(i + 2);
      // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC): height, width.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        if (i + 9 > buf.length) return null;
        return { type: "image/jpeg", height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
      }
      i += 2 + len;
    }
  }
  return null;
}

export interface IncomingImage {
  filename: string;
  stream: Readable;
  truncated(): boolean;
}

/** The single `file` part of a multipart request (other fields skipped), undefined when none was sent. */
export async function receiveImage(
  req: FastifyRequest,
  opts: { what: string; maxBytes: number },
): Promise<IncomingImage | undefined> {
  if (!req.isMultipart()) throw badRequest(`请以 multipart/form-data 方式上传${opts.what}（表单字段 file）`);
  const options = { limits: { fileSize: opts.maxBytes + 1, files: 1, fields: 2, parts: 3 }, throwFileSizeLimit: false };
  for await (const part of req.parts(options)) {
    if (part.type === "field") continue;
    if (part.fieldname !== "file") {
      part.file.destroy();
      throw badRequest("图片须以表单字段 file 发送");
    }
    return { filename: part.filename, stream: part.file, truncated: () => part.file.truncated };
  }
  return undefined;
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** Reads an uploaded image within its limit and checks it is a PNG or JPEG; the name is cleaned for messages. */
export async function readImage(
  incoming: IncomingImage | undefined,
  opts: { what: string; maxBytes: number; notImageHint?: string },
): Promise<{ buf: Buffer; info: { type: ImageType; width: number; height: number }; name: string }> {
  const limit = mb(opts.maxBytes);
  if (!incoming) throw badRequest(`请选择${opts.what}（PNG 或 JPEG，不超过 ${limit}）`);
  const name = incoming.filename.replace(/[\u0000-\u001f\u007f]/g, "").slice(-100);
  const tooBig = () => tooLarge(`${opts.what}不能超过 ${limit}，「${name}」超过了这一限制`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming.stream) {
    size += (chunk as Buffer).length;
    if (size > opts.maxBytes) {
      incoming.stream.destroy();
      throw tooBig();
    }
    chunks.push(chunk as Buffer);
  }
  if (incoming.truncated()) throw tooBig();
  const buf = Buffer.concat(chunks);
  const info = imageInfo(buf);
  if (!info) throw invalid("file", `「${name}」不是 PNG 或 JPEG 图片（按文件内容判断，不看扩展名）${opts.notImageHint ?? ""}`);
  return { buf, info, name };
}
