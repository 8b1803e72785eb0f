/** Streaming .xlsx writing and reading with exceljs: bounded memory for large files. */
import ExcelJS from "exceljs";
import "./xlsx-utf8";

export interface SheetColumn {
  header: string;
  width?: number;
}

export async function writeXlsx(file: string, sheetName: string, columns: SheetColumn[], rows: AsyncIterable<unknown[][]>) {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: true });
  const ws = wb.addWorksheet(sheetName);
  ws.columns = columns.map((c) => ({ header: c.header, width: c.width ?? 18 }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  for await (const batch of rows) {
    for (const r of batch) ws.addRow(r).commit();
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
export async function* readXlsx(file: string): AsyncGenerator<{ rowNumber: number; cells: Record<string, string> } | { headers: string[] }> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { sharedStrings: "cache", styles: "ignore", hyperlinks: "ignore", worksheets: "emit", entries: "emit" });
  for await (const ws of reader) {
    let headers: string[] | null = null;
    for await (const row of ws as AsyncIterable<ExcelJS.Row>) {
      const values = (row.values as ExcelJS.CellValue[]).slice(1).map(cellText).map((s) => s.trim());
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
