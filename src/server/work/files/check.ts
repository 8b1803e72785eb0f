/**
 * Checks of an upload while it streams: the size limit (the stream fails as soon as the
 * limit is passed, so nothing more is read or written) and, where a format has a simple
 * signature, the first bytes (a renamed file is refused). Other types are checked by
 * extension only.
 */
import { Transform, type TransformCallback } from "node:stream";
import { invalid, tooLarge } from "../../../shared/errors";

const ZIP = [Buffer.from("PK\x03\x04", "latin1"), Buffer.from("PK\x05\x06", "latin1")];
const OLE = [Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])];
/** Signatures by extension: a file must start with one of them (mp4: "ftyp" at byte 4). */
const SIGNATURES: Record<string, { at: number; any: Buffer[] }> = {
  pdf: { at: 0, any: [Buffer.from("%PDF-", "latin1")] },
  zip: { at: 0, any: ZIP },
  docx: { at: 0, any: ZIP },
  pptx: { at: 0, any: ZIP },
  xlsx: { at: 0, any: ZIP },
  doc: { at: 0, any: OLE },
  ppt: { at: 0, any: OLE },
  xls: { at: 0, any: OLE },
  mp4: { at: 4, any: [Buffer.from("ftyp", "latin1")] },
  rar: { at: 0, any: [Buffer.from("Rar!\x1a\x07", "latin1")] },
  "7z": { at: 0, any: [Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])] },
  png: { at: 0, any: [Buffer.from([0x89, 0x50, 0x4e, 0x47])] },
  jpg: { at: 0, any: [Buffer.from([0xff, 0xd8, 0xff])] },
  jpeg: { at: 0, any: [Buffer.from([0xff, 0xd8, 0xff])] },
};
const HEAD = 16;

/** The lower-case extension of a file name, without the dot ("" when there is none). */
export const extensionOf = (filename: string) => (/\.([A-Za-z0-9]{1,10})$/.exec(filename.trim())?.[1] ?? "").toLowerCase();

export const matchesSignature = (ext: string, head: Buffer): boolean => {
  const sig = SIGNATURES[ext];
  return !sig || sig.any.some((s) => head.length >= sig.at + s.length && head.subarray(sig.at, sig.at + s.length).equals(s));
};

export interface UploadRule {
  /** the requirement's name, e.g. 作品演示视频 */
  name: string;
  ext: string;
  maxBytes: number;
  maxSizeMB: number;
  filename: string;
}

/** A pass-through that fails the upload at the first byte over the limit or on a wrong signature. */
export function uploadGuard(rule: UploadRule): Transform {
  let size = 0;
  let head: Buffer | null = Buffer.alloc(0);
  const checkHead = () => {
    if (head && !matchesSignature(rule.ext, head)) {
      return invalid(
        "file",
        `文件「${rule.filename}」的内容不是 ${rule.ext} 格式，请上传真实的 ${rule.ext} 文件（不能只修改扩展名）`,
      );
    }
    head = null;
    return null;
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      size += chunk.length;
      if (size > rule.maxBytes)
        return done(
          tooLarge(`「${rule.name}」的文件不能超过 ${rule.maxSizeMB} MB，「${rule.filename}」超过了这一限制，已停止上传`),
        );
      if (head) {
        head = Buffer.concat([head, chunk.subarray(0, HEAD)]);
        if (head.length >= HEAD) {
          const err = checkHead();
          if (err) return done(err);
        }
      }
      done(null, chunk);
    },
    flush(done: TransformCallback) {
      if (size === 0) return done(invalid("file", `文件「${rule.filename}」是空文件，请重新选择`));
      done(checkHead());
    },
  });
}
