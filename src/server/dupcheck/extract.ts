/**
 * The text of a work for the duplicate check: its title and descriptive fields (rich text
 * turned into plain text), then the text of its current documents — docx through mammoth, PDF
 * through unpdf (PDF.js). Other file types are listed as not checked; a broken, encrypted or
 * oversized file is listed with its reason and the rest of the work is still used.
 */
import type { Db } from "../db/index";
import type { BlobStore } from "../storage/blob-store";
import type { DupReason, DupSection } from "../../shared/dupcheck/schema";

export const EXTRACT_LIMITS = {
  /** a larger document is not read */
  maxFileBytes: 64 * 1024 * 1024,
  /** characters kept per document / per field; beyond that the text is cut (and listed) */
  maxTextChars: 200_000,
  /** characters of a whole work's text */
  maxWorkChars: 400_000,
};

/** The work columns compared, in order, with their labels (src/shared/work/fields.ts). */
export const WORK_TEXT_FIELDS = [
  ["name", "作品名称"],
  ["summary", "作品简介"],
  ["design_idea", "设计思路"],
  ["key_points", "设计重点和难点"],
  ["install_guide", "作品安装说明"],
  ["other_notes", "其他说明"],
] as const;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Plain text of the editors' HTML: block ends become line breaks, tags go, entities are decoded. */
export function htmlToText(html: string): string {
  if (!/[<&]/.test(html)) return html;
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|h[1-6]|tr|blockquote|pre)\s*>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === "#") {
        const cp = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : "";
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const reason = (
  code: DupReason["code"],
  message: string,
  filename: string | null = null,
  fileId: number | null = null,
): DupReason => ({
  code,
  fileId,
  filename,
  message,
});

const extOf = (filename: string) => (/\.([a-z0-9]+)$/i.exec(filename)?.[1] ?? "").toLowerCase();
const isCfb = (b: Uint8Array) => b.length >= 8 && b[0] === 0xd0 && b[1] === 0xcf && b[2] === 0x11 && b[3] === 0xe0;

/** The text of one document; never throws (see the module header). */
export async function extractDocument(
  filename: string,
  bytes: Uint8Array,
  mime?: string,
): Promise<{ text: string; reason: DupReason | null }> {
  const ext = extOf(filename);
  const kind =
    ext === "docx" || mime === "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
      ? "docx"
      : ext === "pdf" || mime === "application/pdf"
        ? "pdf"
        : null;
  if (!kind)
    return { text: "", reason: reason("unsupported", `不支持提取文字的文件类型${ext ? `（.${ext}）` : ""}，未查重`, filename) };
  if (bytes.length > EXTRACT_LIMITS.maxFileBytes)
    return {
      text: "",
      reason: reason("oversized", `文件超过 ${EXTRACT_LIMITS.maxFileBytes / 1024 / 1024} MB，未查重`, filename),
    };
  let text: string;
  try {
    if (kind === "docx") {
      // A password-protected Word file is an OLE compound file holding the encrypted package.
      if (isCfb(bytes))
        return { text: "", reason: reason("encrypted", "文件已加密或为旧版 Word 格式，无法提取文字，未查重", filename) };
      // The readers are loaded by the first document (not at start): most processes never read one.
      const { default: mammoth } = await import("mammoth");
      text = (await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })).value;
    } else {
      const { extractText, getDocumentProxy } = await import("unpdf");
      const doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 } as never);
      try {
        text = (await extractText(doc, { mergePages: true })).text;
      } finally {
        // pdf.js 5 ends a document through its loading task (which also frees its worker side).
        await doc.loadingTask.destroy().catch(() => undefined);
      }
    }
  } catch (e) {
    const name = (e as Error)?.name ?? "";
    if (name === "PasswordException")
      return { text: "", reason: reason("encrypted", "文件已加密，无法提取文字，未查重", filename) };
    return { text: "", reason: reason("unreadable", "文件已损坏或格式不正确，无法提取文字，未查重", filename) };
  }
  text = text
    .replace(/\r\n?/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  if (!/[\p{L}\p{N}]/u.test(text))
    return { text: "", reason: reason("unreadable", "文件中没有可提取的文字（可能是扫描件或图片），未查重", filename) };
  if (text.length > EXTRACT_LIMITS.maxTextChars)
    return {
      text: text.slice(0, EXTRACT_LIMITS.maxTextChars),
      reason: reason(
        "oversized",
        `文件文字超过 ${EXTRACT_LIMITS.maxTextChars} 字，只检查了前 ${EXTRACT_LIMITS.maxTextChars} 字`,
        filename,
      ),
    };
  return { text, reason: null };
}

export interface WorkText {
  workId: number;
  year: number;
  contestId: number;
  status: string;
  title: string;
  text: string;
  sections: DupSection[];
  skipped: DupReason[];
}

async function readAll(store: BlobStore, sha256: string, limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of await store.get(sha256)) {
    const b = typeof c === "string" ? Buffer.from(c) : (c as Buffer);
    size += b.length;
    if (size > limit) throw Object.assign(new Error("oversized"), { name: "Oversized" });
    chunks.push(b);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** Joins parts into one text with their sections. */
export function joinSections(parts: Array<{ key: string; label: string; text: string }>): {
  text: string;
  sections: DupSection[];
} {
  let text = "";
  const sections: DupSection[] = [];
  for (const p of parts) {
    if (!p.text) continue;
    if (text) text += "\n\n";
    sections.push({ key: p.key, label: p.label, start: text.length, end: text.length + p.text.length });
    text += p.text;
  }
  return { text, sections };
}

/** A work's combined text; null when the work does not exist. */
export async function workText(db: Db, store: BlobStore, workId: number): Promise<WorkText | null> {
  const work = await db
    .selectFrom("work")
    .select([
      "id",
      "year",
      "contest_id",
      "status",
      "name",
      "summary",
      "design_idea",
      "key_points",
      "install_guide",
      "other_notes",
    ])
    .where("id", "=", workId)
    .executeTakeFirst();
  if (!work) return null;
  const files = await db
    .selectFrom("work_file")
    .select(["id", "filename", "size", "mime", "sha256"])
    .where("work_id", "=", workId)
    .where("replaced_at", "is", null)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .execute();
  const parts: Array<{ key: string; label: string; text: string }> = [];
  const skipped: DupReason[] = [];
  let total = 0;
  const add = (key: string, label: string, text: string, filename: string | null, fileId: number | null) => {
    if (!text) return;
    if (total + text.length > EXTRACT_LIMITS.maxWorkChars) {
      skipped.push(reason("oversized", `作品文字超过 ${EXTRACT_LIMITS.maxWorkChars} 字，其余部分未查重`, filename, fileId));
      text = text.slice(0, Math.max(0, EXTRACT_LIMITS.maxWorkChars - total));
      if (!text) return;
    }
    total += text.length;
    parts.push({ key, label, text });
  };
  for (const [column, label] of WORK_TEXT_FIELDS) {
    const v = work[column];
    if (v) add(column, label, htmlToText(v).slice(0, EXTRACT_LIMITS.maxTextChars), null, null);
  }
  for (const f of files) {
    const ext = extOf(f.filename);
    if (ext !== "docx" && ext !== "pdf" && f.mime !== "application/pdf") {
      skipped.push(reason("unsupported", `不支持提取文字的文件类型${ext ? `（.${ext}）` : ""}，未查重`, f.filename, f.id));
      continue;
    }
    if (Number(f.size) > EXTRACT_LIMITS.maxFileBytes) {
      skipped.push(reason("oversized", `文件超过 ${EXTRACT_LIMITS.maxFileBytes / 1024 / 1024} MB，未查重`, f.filename, f.id));
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = await readAll(store, f.sha256, EXTRACT_LIMITS.maxFileBytes);
    } catch (e) {
      skipped.push(
        (e as Error).name === "Oversized"
          ? reason("oversized", `文件超过 ${EXTRACT_LIMITS.maxFileBytes / 1024 / 1024} MB，未查重`, f.filename, f.id)
          : reason("missing", "文件在存储中不存在或无法读取，未查重", f.filename, f.id),
      );
      continue;
    }
    const r = await extractDocument(f.filename, bytes, f.mime);
    if (r.reason) skipped.push({ ...r.reason, fileId: f.id });
    add(`file:${f.id}`, f.filename, r.text, f.filename, f.id);
  }
  const { text, sections } = joinSections(parts);
  return {
    workId: work.id,
    year: work.year,
    contestId: work.contest_id,
    status: work.status,
    title: work.name,
    text,
    sections,
    skipped,
  };
}
