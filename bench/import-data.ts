/**
 * Shared by bench:import and bench:sqlite-reads: a generated .xlsx of N students of the
 * seeded schools, and its import through the real HTTP API (upload → dry run → confirm).
 */
import { readFileSync } from "node:fs";
import ExcelJS from "exceljs";
import type { FastifyInstance } from "fastify";
import type { Db } from "../src/server/db";
import { personName, rng } from "../src/server/seed/generate";

const HEADERS = ["用户名", "姓名", "身份", "学校代码", "学号/工号", "专业代码", "邮箱", "手机号", "校赛评委"];

/** Writes `rows` students (usernames s2026000001…) to `file`; returns the file's bytes. */
export async function writeStudentsXlsx(db: Db, file: string, rows: number): Promise<Buffer> {
  const schools = (await db.selectFrom("school").select("code").where("archived", "=", 0).execute()).map((s) => s.code);
  const majors = (await db.selectFrom("major").select("code").execute()).map((m) => m.code);
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: false });
  const ws = wb.addWorksheet("用户");
  ws.addRow(HEADERS).commit();
  const r = rng(2026);
  for (let i = 1; i <= rows; i++) {
    const no = String(i).padStart(6, "0");
    ws.addRow([
      `s2026${no}`,
      personName(r),
      "作者（学生）",
      r.pick(schools),
      `2026${no}`,
      r.pick(majors),
      `s2026${no}@stu.example.edu.cn`,
      `139${String(r.int(0, 99_999_999)).padStart(8, "0")}`,
      "否",
    ]).commit();
  }
  ws.commit();
  await wb.commit();
  return readFileSync(file);
}

/** Polls a job until it is no longer running or applying; returns its last state. */
export async function pollJob(app: FastifyInstance, headers: Record<string, string>, jobId: string) {
  for (;;) {
    const j = (await app.inject({ method: "GET", url: `/Backend/Common/job/${jobId}`, headers })).json().data;
    if (!["running", "applying"].includes(j.status)) return j;
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** Uploads the users file (starting the dry run); returns the job id. */
export async function uploadUsers(app: FastifyInstance, headers: Record<string, string>, upload: Buffer): Promise<string> {
  const boundary = "----saiwubench";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="students.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
    ),
    upload,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const up = await app.inject({
    method: "POST",
    url: "/Backend/Admin/user/import",
    headers: { ...headers, "content-type": `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
  if (up.statusCode !== 202) throw new Error(`upload failed: ${up.body}`);
  return up.json().data.jobId as string;
}

/** Confirms a dry-run job (the import then runs in the background). */
export async function confirmImport(app: FastifyInstance, headers: Record<string, string>, jobId: string) {
  const confirm = await app.inject({ method: "POST", url: `/Backend/Admin/user/import/${jobId}/confirm`, headers });
  if (confirm.statusCode !== 202) throw new Error(`confirm failed: ${confirm.body}`);
}
