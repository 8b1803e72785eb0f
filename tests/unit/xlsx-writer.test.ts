/**
 * writeXlsx (src/server/crud/excel.ts) computes an unstyled cell's style id once per cell type
 * instead of exceljs rendering it for every cell: the sheet and styles XML must stay exactly what
 * exceljs writes on its own (header in bold, strings, numbers, empty strings, dates).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import JSZip from "jszip";
import { afterAll, expect, it } from "vitest";
import { writeXlsx, type SheetColumn } from "../../src/server/crud/excel";
import { ExcelJS } from "../../src/server/crud/xlsx-utf8";

const dir = mkdtempSync(join(tmpdir(), "saiwu-xlsx-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const columns: SheetColumn[] = [
  { header: "作品编号", width: 13 },
  { header: "作品名称" },
  { header: "作者" },
  { header: "提交时间" },
];
const rows = Array.from({ length: 300 }, (_, i) => [
  2025000001 + i,
  `作品 <${i}> & “引号”`,
  i % 3 ? "" : "张三、李四",
  new Date(Date.UTC(2026, 0, 1 + (i % 28))),
]);

/** The sheet as exceljs's streaming writer writes it without our help. */
async function plainExceljs(file: string) {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: true });
  const ws = wb.addWorksheet("作品");
  ws.columns = columns.map((c) => ({ header: c.header, width: c.width ?? 18 }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  for (const r of rows) ws.addRow(r).commit();
  ws.commit();
  await wb.commit();
}

const parts = async (file: string) => {
  const zip = await JSZip.loadAsync(readFileSync(file));
  const text = (name: string) => zip.file(name)!.async("string");
  return { sheet: await text("xl/worksheets/sheet1.xml"), styles: await text("xl/styles.xml") };
};

it("writes the same sheet and styles XML as exceljs alone", async () => {
  await writeXlsx(
    join(dir, "ours.xlsx"),
    "作品",
    columns,
    (async function* () {
      yield rows.slice(0, 120);
      yield rows.slice(120);
    })(),
  );
  await plainExceljs(join(dir, "plain.xlsx"));
  const [ours, plain] = await Promise.all([parts(join(dir, "ours.xlsx")), parts(join(dir, "plain.xlsx"))]);
  expect(ours.sheet).toContain("作品 &lt;299&gt; &amp; “引号”");
  expect(ours.sheet).toBe(plain.sheet);
  expect(ours.styles).toBe(plain.styles);
});
