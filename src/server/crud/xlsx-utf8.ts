/**
 * Workaround for an exceljs 4.4 bug (exceljs/exceljs#2084, #2063): the streaming
 * WorkbookReader decodes every 16 KB chunk of the sheet XML on its own, so a Chinese
 * character split across two chunks becomes "��" — in a 50k-row import, a dozen names or
 * roles are silently corrupted. Here the chunks of worksheets and shared strings are
 * decoded as one UTF-8 stream before they reach the XML parser.
 *
 * It patches the WorkbookReader prototype once; src/server/crud/excel.ts loads exceljs
 * through this module, so every streaming read of the platform goes through it.
 */
import { StringDecoder } from "node:string_decoder";
import ExcelJS from "exceljs";

export { ExcelJS };

type Chunk = Buffer | string;

async function* utf8(chunks: AsyncIterable<Chunk>): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  for await (const c of chunks) {
    const s = typeof c === "string" ? c : decoder.write(c);
    if (s) yield s;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

const PATCHED = Symbol.for("saiwu.exceljs.utf8");
const proto = (ExcelJS.stream.xlsx.WorkbookReader as unknown as { prototype: Record<string | symbol, any> }).prototype;

if (!proto[PATCHED] && typeof proto._parseWorksheet === "function" && typeof proto._parseSharedStrings === "function") {
  const parseWorksheet = proto._parseWorksheet;
  const parseSharedStrings = proto._parseSharedStrings;
  proto._parseWorksheet = function (this: unknown, iterator: AsyncIterable<Chunk>, sheetNo: string) {
    return parseWorksheet.call(this, utf8(iterator), sheetNo);
  };
  proto._parseSharedStrings = function (this: unknown, entry: NodeJS.ReadableStream) {
    entry.setEncoding("utf8");
    return parseSharedStrings.call(this, entry);
  };
  proto[PATCHED] = true;
}

export const xlsxUtf8Patched = !!proto[PATCHED];
