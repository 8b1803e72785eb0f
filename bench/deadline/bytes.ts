/**
 * The attachments bench:deadline uploads: bytes generated on the fly in 256 KB chunks (a
 * random block with the file's id and the chunk's number written over its start, so every
 * file is new to the content-addressed blob store), starting with the signature its type
 * needs, hashed (sha256) while they are sent. A file is never held in memory whole.
 */
import { createHash, randomBytes } from "node:crypto";

export const CHUNK = 256 * 1024;
const BLOCK = randomBytes(CHUNK);
const MB = 1024 * 1024;

/** The signature the server checks at the start of a file of this type (src/server/work/files/check.ts). */
const HEADS: Record<string, Buffer> = {
  pdf: Buffer.from("%PDF-1.7\n", "latin1"),
  zip: Buffer.from("PK\x03\x04", "latin1"),
  mp4: Buffer.from("\x00\x00\x00\x18ftypmp42", "latin1"),
};

export interface GeneratedFile {
  size: number;
  /** the sha256 of every byte produced, once the last chunk has been read */
  sha256(): string;
  chunks(): AsyncGenerator<Buffer>;
}

/** A file of `size` bytes of type `ext` (pdf, zip, mp4), unique by `id`; `hashed` false skips the sha256. */
export function generatedFile(id: string, ext: string, size: number, hashed = true): GeneratedFile {
  const hash = createHash("sha256");
  let digest = "";
  const tag = Buffer.from(`${id}:`, "latin1");
  return {
    size,
    sha256: () => digest,
    async *chunks() {
      for (let off = 0, n = 0; off < size; off += CHUNK, n++) {
        const len = Math.min(CHUNK, size - off);
        const chunk = Buffer.allocUnsafe(len);
        BLOCK.copy(chunk, 0, 0, len);
        const head = n === 0 ? (HEADS[ext] ?? Buffer.alloc(0)) : Buffer.alloc(0);
        Buffer.concat([head, tag, Buffer.from(String(n), "latin1")]).copy(chunk, 0, 0, Math.min(len, 64));
        if (hashed) hash.update(chunk);
        yield chunk;
      }
      digest = hash.digest("hex");
    },
  };
}

/**
 * An attachment's size: log-normal with its median at 5 MB, kept within 1–20 MB
 * (`u1`, `u2` uniform in (0, 1), e.g. from the bench's seeded random stream).
 */
export function attachmentSize(u1: number, u2: number): number {
  const z = Math.sqrt(-2 * Math.log(Math.max(u1, 1e-12))) * Math.cos(2 * Math.PI * u2);
  const mb = Math.min(20, Math.max(1, 5 * Math.exp(0.6 * z)));
  return Math.round(mb * MB);
}

const CRLF = "\r\n";

/**
 * A multipart/form-data body as the browser's upload sends it (src/client/work/upload.ts):
 * the field kind first, then the file. Returns its content type, exact length and bytes.
 */
export function multipartBody(kind: string, filename: string, mime: string, file: GeneratedFile) {
  const boundary = `----saiwuDeadline${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}${CRLF}Content-Disposition: form-data; name="kind"${CRLF}${CRLF}${kind}${CRLF}` +
      `--${boundary}${CRLF}Content-Disposition: form-data; name="file"; filename="${filename}"${CRLF}` +
      `Content-Type: ${mime}${CRLF}${CRLF}`,
  );
  const tail = Buffer.from(`${CRLF}--${boundary}--${CRLF}`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + file.size + tail.length,
    async *bytes() {
      yield head;
      yield* file.chunks();
      yield tail;
    },
  };
}
