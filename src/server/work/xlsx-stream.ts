/**
 * A streaming .xlsx writer that waits for the zip to take the rows before asking for more,
 * so memory stays bounded however many rows are written. crud/excel.ts writeXlsx commits
 * rows without waiting: exceljs's sheet buffer (StreamBuf) ignores the backpressure of the
 * archiver stream it feeds, and rows pile up in memory when the producer outruns deflate.
 * Here, after each batch, we wait for every stream the sheet feeds to drain.
 */
import type { Writable } from "node:stream";
import ExcelJS from "exceljs";
import type { SheetColumn } from "../crud/excel";

/** The streams exceljs's sheet buffer writes into (set once the zip starts reading the sheet). */
const sinksOf = (ws: ExcelJS.Worksheet): Writable[] => ((ws as unknown as { stream?: { pipes?: Writable[] } }).stream?.pipes ?? []);
/** archiver's streams come from the readable-stream package (no writableNeedDrain getter): read the state. */
const full = (s: Writable) => {
  const state = (s as unknown as { _writableState?: { length: number; highWaterMark: number; needDrain: boolean } })._writableState;
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

export async function writeXlsxBounded(file: string, sheetName: string, columns: SheetColumn[], rows: AsyncIterable<unknown[][]>) {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: true });
  const ws = wb.addWorksheet(sheetName);
  ws.columns = columns.map((c) => ({ header: c.header, width: c.width ?? 18 }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  for await (const batch of rows) {
    for (const r of batch) ws.addRow(r).commit();
    for (const sink of sinksOf(ws)) if (full(sink)) await drained(sink);
  }
  ws.commit();
  await wb.commit();
}
