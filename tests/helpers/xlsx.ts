/**
 * .xlsx files in the API tests: building and reading workbooks, uploading them to an
 * import, and reading back an export through its job's download.
 */
import ExcelJS from "exceljs";
import { expect } from "vitest";
import type { Client } from "./app";
import { waitJob } from "./jobs";
import { multipart } from "./multipart";

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The bytes of a workbook as an .xlsx file. */
export async function xlsxBuffer(wb: ExcelJS.Workbook): Promise<Buffer> {
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** One sheet called `name` holding `rows` (the first is the header), as .xlsx bytes. */
export async function sheetFile(name: string, rows: (string | number)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(name);
  rows.forEach((r) => ws.addRow(r));
  return xlsxBuffer(wb);
}

/** Reads .xlsx bytes (a reply's rawPayload) into a workbook. */
export async function loadWorkbook(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  return wb;
}

/** The rows below the header of a sheet, every cell as text ("" when empty). */
export function rowsOf(ws: ExcelJS.Worksheet): string[][] {
  const out: string[][] = [];
  ws.eachRow(
    (row, n) =>
      n > 1 && out.push(Array.from((row.values as unknown[]).slice(1), (v) => (v === null || v === undefined ? "" : String(v)))),
  );
  return out;
}

/** Posts .xlsx bytes to `url` as the multipart field `file`. */
export function uploadXlsx(c: Client, url: string, buf: Buffer, filename = "data.xlsx") {
  const m = multipart([{ name: "file", filename, content: buf, type: XLSX_TYPE }]);
  return c.req("POST", url, m.body, m.headers);
}

/** Uploads .xlsx bytes to `${base}/import` (answered 202) and waits for the dry run. */
export async function importXlsx(c: Client, base: string, buf: Buffer, filename?: string) {
  const up = await uploadXlsx(c, `${base}/import`, buf, filename);
  expect(up.status).toBe(202);
  return { jobId: up.body.data.jobId as string, dry: await waitJob(c, up.body.data.jobId) };
}

/** Starts an export at `${base}/export` with `filters` (answered 202), waits for the job to finish and loads the downloaded workbook. */
export async function exportXlsx(c: Client, base: string, filters: Record<string, unknown>) {
  const ex = await c.post(`${base}/export`, filters);
  expect(ex.status).toBe(202);
  const jobId = ex.body.data.jobId as string;
  const job = await waitJob(c, jobId);
  expect(job.status).toBe("done");
  const file = await c.get(job.downloadUrl);
  expect(file.status).toBe(200);
  return { jobId, job, wb: await loadWorkbook(file.res.rawPayload) };
}
