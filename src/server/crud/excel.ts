/**
 * Streaming .xlsx writing and reading with exceljs: bounded memory for large files. exceljs
 * (with its UTF-8 fix, ./xlsx-utf8.ts) is loaded on the first import or export, not when the
 * server starts: it is about 13 MB of memory that most processes never need.
 */
import type { Writable } from "node:stream";
import type ExcelJS from "exceljs";

const excel = () => import("./xlsx-utf8").then((m) => m.ExcelJS);

export interface SheetColumn {
  header: string;
  width?: number;
}

/** The streams exceljs's sheet buffer writes into (set once the zip starts reading the sheet). */
const sinksOf = (ws: ExcelJS.Worksheet): Writable[] => (ws as unknown as { stream?: { pipes?: Writable[] } }).stream?.pipes ?? [];
/** archiver's streams come from the readable-stream package (no writableNeedDrain getter): read the state. */
const full = (s: Writable) => {
  const state = (s as unknown as { _writableState?: { length: number; highWaterMark: number; needDrain: boolean } })
    ._writableState;
  return !!state && (state.needDrain || state.length >= state.highWaterMark);
};
/** Resolves when the stream drains (or ends: its error then surfaces from the workbook's commit). */
const drained = (s: Writable) =>
  new Promise<void>((resolve) => {
    const done = () => {
      for (const e of ["drain", "close", "error"]) s.off(e, done);
      resolve();
    };
    for (const e of ["drain", "close", "error"]) s.on(e, done);
  });

type StyleModel = Record<string, unknown>;
interface StylesXform {
  addStyleModel(model: StyleModel | undefined, cellType?: number): number;
}

/**
 * exceljs looks a cell's style up by the style object's identity (a WeakMap), but gives every
 * cell a new empty style object: so for every cell of every row it renders the style's XML
 * (<xf …/>) only to find it in its index again — most of what writing a row allocated
 * (measured: ~140 KB per 47-column row, ~9 GB for 100,000 works, all through the young
 * generation). An unstyled cell's style id depends only on its type: it is computed once per
 * type here, by exceljs itself, so styles.xml and every s="…" stay exactly as before.
 */
function memoPlainStyles(wb: ExcelJS.stream.xlsx.WorkbookWriter) {
  const styles = (wb as unknown as { styles?: StylesXform }).styles;
  if (!styles || typeof styles.addStyleModel !== "function") return;
  const add = styles.addStyleModel.bind(styles);
  const plain = new Map<number | undefined, number>();
  styles.addStyleModel = (model, cellType) => {
    if (!model || !isEmpty(model)) return add(model, cellType);
    let id = plain.get(cellType);
    if (id === undefined) plain.set(cellType, (id = add(model, cellType)));
    return id;
  };
}

const isEmpty = (o: object) => {
  for (const k in o) if (Object.hasOwn(o, k)) return false;
  return true;
};

/**
 * Writes the rows, batch by batch, waiting for the zip whenever its input is full, so memory
 * stays bounded however many rows are written: exceljs's sheet buffer
 * (StreamBuf) ignores the backpressure of the archiver stream it feeds, and without the wait
 * rows pile up in memory when the producer outruns deflate (measured by bench:export).
 */
export async function writeXlsx(
  file: string,
  sheetName: string,
  columns: SheetColumn[],
  rows: AsyncIterable<Iterable<unknown[]>>,
) {
  const wb = new (await excel()).stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: true });
  memoPlainStyles(wb);
  const ws = wb.addWorksheet(sheetName);
  ws.columns = columns.map((c) => ({ header: c.header, width: c.width ?? 18 }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  for await (const batch of rows) {
    for (const r of batch) {
      ws.addRow(r).commit();
      // Every ~64 KB of XML (exceljs's buffer): what is queued is then taken before the next rows,
      // so the buffers die young instead of piling up in the old generation until a full GC.
      for (const sink of sinksOf(ws)) if (full(sink)) await drained(sink);
    }
  }
  ws.commit();
  await wb.commit();
}

const cellText = (v: ExcelJS.CellValue): string => {
  if (v === null || v === undefined) return "";
  if (typeof v === "object") {
    if (v instanceof Date) return v.toISOString();
    if ("richText" in v) return v.richText.map((t) => t.text).join("");
    if ("text" in v) return String(v.text);
    if ("result" in v) return String(v.result ?? "");
    return "";
  }
  return String(v);
};

/**
 * Reads the first sheet: the header row names the columns; yields { rowNumber, cells }
 * with cells keyed by header text, trimmed.
 */
export async function* readXlsx(
  file: string,
): AsyncGenerator<{ rowNumber: number; cells: Record<string, string> } | { headers: string[] }> {
  const reader = new (await excel()).stream.xlsx.WorkbookReader(file, {
    sharedStrings: "cache",
    styles: "ignore",
    hyperlinks: "ignore",
    worksheets: "emit",
    entries: "emit",
  });
  for await (const ws of reader) {
    let headers: string[] | null = null;
    for await (const row of ws as AsyncIterable<ExcelJS.Row>) {
      const values = (row.values as ExcelJS.CellValue[])
        .slice(1)
        .map(cellText)
        .map((s) => s.trim());
      if (!headers) {
        headers = values;
        yield { headers };
        continue;
      }
      if (values.every((v) => v === "")) continue;
      const cells: Record<string, string> = {};
      headers.forEach((h, i) => (cells[h] = values[i] ?? ""));
      yield { rowNumber: row.number, cells };
    }
    break;
  }
}
