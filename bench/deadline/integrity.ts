/**
 * bench:deadline's check after the load, against the database and the blob store:
 * every acknowledged save is stored (the last acknowledged value per column, or a value sent
 * later that got no clear answer), every acknowledged upload is one current attachment row
 * whose blob exists and hashes to the sha256 the bench computed while generating it, every
 * acknowledged submit was logged exactly once, and every work the bench touched went only
 * through transitions of src/shared/work/states.ts to the state its last acknowledged
 * transition left it in. findViolations is pure (tested); readSnapshot reads what it needs.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { join } from "node:path";
import type { Db } from "../../src/server/db";
import { TRANSITIONS, type WorkState } from "../../src/shared/work/states";
import type { Ledger } from "./ledger";

export interface Snapshot {
  /** work id → column → stored value (ai_declaration re-serialised), and the state */
  works: Map<number, { status: WorkState; columns: Record<string, string | null> }>;
  files: Map<number, { workId: number; kind: string; size: number; sha256: string; current: boolean }>;
  /** "workId:kind" → current attachment rows */
  current: Map<string, number>;
  /** sha256 → the hash of the blob's bytes on disk (null: missing) */
  blobs: Map<string, string | null>;
  /** work id → its logged state changes, oldest first */
  logs: Map<number, { action: string; from: WorkState | null; to: WorkState }[]>;
}

const LEGAL = new Set(Object.values(TRANSITIONS).flatMap((t) => t.from.map((f) => `${f}>${t.to}`)));

/** Every way the stored data differs from what was acknowledged; empty when nothing was lost. */
export function findViolations(ledger: Ledger, snap: Snapshot): string[] {
  const out: string[] = [];
  for (const [workId, cols] of ledger.fields) {
    const w = snap.works.get(workId);
    if (!w) {
      out.push(`作品 ${workId} 不存在`);
      continue;
    }
    for (const [col, allowed] of cols)
      if (!allowed.includes(w.columns[col] ?? null))
        out.push(`作品 ${workId} 的 ${col} 是「${String(w.columns[col]).slice(0, 40)}」，不是最后确认保存的值`);
  }
  for (const f of ledger.files) {
    const row = snap.files.get(f.fileId);
    if (!row || row.workId !== f.workId || row.kind !== f.kind)
      out.push(`附件 ${f.fileId}（作品 ${f.workId} ${f.kind}）没有记录`);
    else if (row.sha256 !== f.sha256 || row.size !== f.size) out.push(`附件 ${f.fileId} 的校验和或大小与上传的不同`);
    else if (!row.current) out.push(`附件 ${f.fileId} 不再是当前文件`);
    const n = snap.current.get(`${f.workId}:${f.kind}`) ?? 0;
    if (n !== 1) out.push(`作品 ${f.workId} 的 ${f.kind} 有 ${n} 个当前文件`);
    const blob = snap.blobs.get(f.sha256);
    if (blob === null || blob === undefined) out.push(`附件 ${f.fileId} 的文件内容不在存储中`);
    else if (blob !== f.sha256) out.push(`附件 ${f.fileId} 的文件内容校验和不符`);
  }
  for (const workId of ledger.submits) {
    const n = (snap.logs.get(workId) ?? []).filter((e) => e.action === "submit").length;
    if (n !== 1) out.push(`作品 ${workId} 提交了 ${n} 次`);
  }
  const touched = new Set([...ledger.fields.keys(), ...ledger.states.keys(), ...ledger.unsure, ...ledger.submits]);
  for (const workId of touched) {
    const w = snap.works.get(workId);
    if (!w) continue;
    let at: WorkState | null = null;
    for (const e of snap.logs.get(workId) ?? []) {
      if (e.from !== at || (e.from === null ? e.to !== "draft" : !LEGAL.has(`${e.from}>${e.to}`))) {
        out.push(`作品 ${workId} 的日志中有不可能的状态变化 ${e.from ?? "—"} → ${e.to}（${e.action}）`);
        break;
      }
      at = e.to;
    }
    if (at !== w.status) out.push(`作品 ${workId} 的状态 ${w.status} 与日志的最后状态 ${at ?? "—"} 不符`);
    const expected = ledger.states.get(workId);
    if (expected && !ledger.unsure.has(workId) && expected !== w.status)
      out.push(`作品 ${workId} 的状态是 ${w.status}，最后确认的操作应为 ${expected}`);
  }
  return out;
}

const chunks = <T>(xs: T[], n = 500) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

async function hashFile(path: string): Promise<string | null> {
  const hash = createHash("sha256");
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch {
    return null;
  }
  return hash.digest("hex");
}

/** Reads the rows and blobs the ledger names (blobs rehashed from <blobDir>/ab/cd/<sha256>). */
export async function readSnapshot(db: Db, blobDir: string, ledger: Ledger): Promise<Snapshot> {
  const ids = [...new Set([...ledger.fields.keys(), ...ledger.states.keys(), ...ledger.unsure, ...ledger.submits])];
  const snap: Snapshot = { works: new Map(), files: new Map(), current: new Map(), blobs: new Map(), logs: new Map() };
  for (const part of chunks(ids)) {
    for (const w of await db
      .selectFrom("work")
      .select(["id", "status", "summary", "design_idea", "key_points", "teacher_review", "ai_declaration"])
      .where("id", "in", part)
      .execute())
      snap.works.set(Number(w.id), {
        status: w.status,
        columns: {
          summary: w.summary,
          design_idea: w.design_idea,
          key_points: w.key_points,
          teacher_review: w.teacher_review,
          ai_declaration: w.ai_declaration === null ? null : JSON.stringify(JSON.parse(w.ai_declaration)),
        },
      });
    for (const e of await db
      .selectFrom("work_log")
      .select(["work_id", "action", "changes"])
      .where("work_id", "in", part)
      .orderBy("id")
      .execute()) {
      const status = (JSON.parse(e.changes) as { status?: [WorkState | null, WorkState] }).status;
      if (!status) continue;
      const list = snap.logs.get(Number(e.work_id)) ?? [];
      snap.logs.set(Number(e.work_id), list);
      list.push({ action: e.action, from: status[0], to: status[1] });
    }
    for (const f of await db
      .selectFrom("work_file")
      .select(["id", "work_id", "kind", "size", "sha256", "replaced_at", "deleted_at"])
      .where("work_id", "in", part)
      .execute()) {
      const current = f.replaced_at === null && f.deleted_at === null;
      snap.files.set(Number(f.id), { workId: Number(f.work_id), kind: f.kind, size: Number(f.size), sha256: f.sha256, current });
      const key = `${f.work_id}:${f.kind}`;
      if (current) snap.current.set(key, (snap.current.get(key) ?? 0) + 1);
    }
  }
  for (const f of ledger.files)
    if (!snap.blobs.has(f.sha256))
      snap.blobs.set(f.sha256, await hashFile(join(blobDir, f.sha256.slice(0, 2), f.sha256.slice(2, 4), f.sha256)));
  return snap;
}
