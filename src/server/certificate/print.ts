/**
 * Printing issued certificates: the list an admin prints from, what a print takes, the print
 * log, the browser print, the PDF batch job and a holder's own downloads.
 *
 * - Scope: root every contest, a contest admin the contests they manage (adminContestIds:
 *   contest_member "admin" and the contests below them); anything else 404 with the same
 *   text as a missing contest or certificate.
 * - The list shows the newest version of each number. "Printed" means printed by an admin
 *   (modes browser and pdf) of that very version: a reissued version (a corrected name) is
 *   unprinted until printed. A print of a version printed before is logged reprint = 1; a
 *   holder's download (mode download) is logged as such, reprint when downloaded before.
 * - Revoked and replaced certificates are never printed or downloaded: a print counts them
 *   as skipped; a holder's download is refused with the reason.
 * - The PDF batch: the request resolves and checks the selection (scope, limits, every
 *   character of every printed text against the fonts: a refusal names the certificate, the
 *   holder and the character, and starts nothing), then a job renders the pages into the
 *   blob store with its progress per certificate; the log rows (with the job's id) are
 *   written in the transaction that marks the job done, so a failed or cancelled batch logs
 *   nothing.
 */
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { PassThrough } from "node:stream";
import { sql, type ExpressionBuilder, type Selectable } from "kysely";
import { badRequest, notFound } from "../../shared/errors";
import { REVOKE_REASON_NAMES } from "../../shared/certificate/schema";
import { verifyUrl, type AwardKind, type PrintFacts, type TemplateLayout } from "../../shared/certificate/layout";
import {
  PRINT_LIMITS,
  type BrowserPrint,
  type BrowserPrintConfirm,
  type BrowserPrintLogged,
  type CertContest,
  type CertificateRow,
  type CertListQuery,
  type HolderKind,
  type MyCertificate,
  type PrintBody,
  type PrintLogRow,
  type PrintSheet,
} from "../../shared/certificate/print-schema";
import type { PageOf } from "../../shared/crud/list";
import type { Db } from "../db";
import type { CertificateTable, DB, User } from "../db/schema";
import { JobGone, type Jobs } from "../jobs/user-jobs";
import { requireManagedContest } from "../judging/service/contest";
import { adminContestIds } from "../scope";
import type { Handle } from "../work/repository";
import { fontSet } from "./fonts";
import { assertPrintable, renderPdf, type PrintItem } from "./pdf";
import { qrPath } from "./qr";
import { readBlob, TemplateCache } from "./templates";
import type { BlobStore } from "../storage";
import { resultsPublished } from "../judging/service/results/publish";

export const CERT_NOT_FOUND = "证书不存在或不在您的管理范围内";
const ADMIN_MODES = ["browser", "pdf"] as const;
type Mode = "browser" | "pdf" | "download";
type Cert = Selectable<CertificateTable>;

export const AWARD_KIND_OF: Record<HolderKind, AwardKind> = { author: "work", teacher: "teacher", school: "school" };

export const factsOf = (c: Cert): PrintFacts => ({
  number: c.number,
  version: Number(c.version),
  holderName: c.holder_name,
  schoolName: c.school_name,
  workTitle: c.work_title,
  categoryName: c.category_name,
  awardName: c.award_name,
  contestName: c.contest_name,
  contestDate: c.contest_date,
});

const chunks = <T>(list: T[], size: number) =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));
const like = (s: string) => `%${s.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type CertEb = ExpressionBuilder<DB & { c: CertificateTable }, "c">;
/** The row is the newest version of its number. */
const newest = (eb: CertEb) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom("certificate as n")
        .select("n.id")
        .whereRef("n.number", "=", "c.number")
        .whereRef("n.version", ">", "c.version"),
    ),
  );
/** An admin (browser or PDF) printed this version. */
const printedByAdmin = (eb: CertEb) =>
  eb.exists(
    eb
      .selectFrom("certificate_print as p")
      .select("p.id")
      .whereRef("p.certificate_id", "=", "c.id")
      .where("p.mode", "in", [...ADMIN_MODES]),
  );

// ---- Contests and the list

export async function certificateContests(db: Db, user: User): Promise<CertContest[]> {
  const scope = await adminContestIds(db, user);
  if (scope !== "all" && !scope.length) return [];
  let q = db
    .selectFrom("contest as k")
    .select(["k.id", "k.name", "k.year", "k.level"])
    .select((eb) => [
      eb
        .selectFrom("certificate as c")
        .select((e) => e.fn.count<number>("c.number").distinct().as("n"))
        .whereRef("c.contest_id", "=", "k.id")
        .as("certificates"),
      resultsPublished("k.id").as("published"),
    ])
    .where((eb) =>
      eb.or([
        eb.exists(eb.selectFrom("certificate as c").select("c.id").whereRef("c.contest_id", "=", "k.id")),
        resultsPublished("k.id"),
      ]),
    );
  if (scope !== "all") q = q.where("k.id", "in", scope);
  const rows = await q.orderBy("k.year", "desc").orderBy("k.id").execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    year: Number(r.year),
    level: r.level,
    published: !!Number(r.published),
    certificates: Number(r.certificates ?? 0),
  }));
}

type Filters = Omit<CertListQuery, "current" | "pageSize">;

/** The newest versions of a contest's certificates matching the filters, with their work, result group. */
function filtered(db: Handle, f: Filters) {
  let q = db
    .selectFrom("certificate as c")
    .leftJoin("work as w", "w.id", "c.work_id")
    .leftJoin("contest_result as r", (j) => j.onRef("r.contest_id", "=", "c.contest_id").onRef("r.work_id", "=", "c.work_id"))
    .leftJoin("judge_group as g", "g.id", "r.group_id")
    .where("c.contest_id", "=", f.contestId)
    .where(newest);
  if (f.groupId) q = q.where("r.group_id", "=", f.groupId);
  if (f.awardLevelId) q = q.where("c.award_level_id", "=", f.awardLevelId);
  if (f.schoolId) {
    const school = f.schoolId;
    q = q.where((eb) =>
      eb.or([
        eb("c.holder_school_id", "=", school),
        eb.and([eb("c.holder_school_id", "is", null), eb("w.school_id", "=", school)]),
      ]),
    );
  }
  if (f.holderKind) q = q.where("c.holder_kind", "=", f.holderKind);
  if (f.status) q = q.where("c.status", "=", f.status);
  const kw = f.keyword?.trim();
  if (kw)
    q = q.where((eb) =>
      eb.or(
        ["c.holder_name", "c.number", "c.work_title"].map((col) => sql<boolean>`${sql.ref(col)} like ${like(kw)} escape '\\'`),
      ),
    );
  if (f.unprinted !== undefined) q = q.where((eb) => (f.unprinted ? eb.not(printedByAdmin(eb)) : printedByAdmin(eb)));
  return q;
}

export async function listCertificates(db: Db, user: User, query: CertListQuery): Promise<PageOf<CertificateRow>> {
  await requireManagedContest(db, user, query.contestId);
  const current = query.current ?? 1;
  const pageSize = query.pageSize ?? 20;
  const total = await filtered(db, query)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const rows = await filtered(db, query)
    .selectAll("c")
    .select("g.name as group_name")
    .select((eb) => [
      eb
        .selectFrom("certificate_print as p")
        .select((e) => e.fn.countAll<number>().as("n"))
        .whereRef("p.certificate_id", "=", "c.id")
        .where("p.mode", "in", [...ADMIN_MODES])
        .as("print_count"),
      eb
        .selectFrom("certificate_print as p")
        .select((e) => e.fn.max("p.printed_at").as("t"))
        .whereRef("p.certificate_id", "=", "c.id")
        .where("p.mode", "in", [...ADMIN_MODES])
        .as("last_printed_at"),
    ])
    .orderBy("c.number")
    .limit(pageSize)
    .offset((current - 1) * pageSize)
    .execute();
  return {
    total: Number(total.n),
    list: rows.map((c) => ({
      id: c.id,
      number: c.number,
      version: Number(c.version),
      holderKind: c.holder_kind,
      holderName: c.holder_name,
      schoolName: c.school_name,
      workId: c.work_id === null ? null : Number(c.work_id),
      workTitle: c.work_title,
      categoryName: c.category_name,
      awardLevelId: c.award_level_id,
      awardName: c.award_name,
      groupName: c.group_name ?? null,
      status: c.status,
      statusAt: c.status_at,
      statusReason: c.status_reason,
      issuedAt: c.issued_at,
      printCount: Number(c.print_count ?? 0),
      lastPrintedAt: (c.last_printed_at as string | null) ?? null,
    })),
  };
}

/** Who printed or downloaded any version of this certificate's number, newest first. */
export async function printLog(db: Db, user: User, certificateId: number): Promise<PrintLogRow[]> {
  const c = await db
    .selectFrom("certificate")
    .select(["number", "contest_id"])
    .where("id", "=", certificateId)
    .executeTakeFirst();
  if (!c) throw notFound(CERT_NOT_FOUND);
  await inScope(db, user, [c.contest_id]);
  const rows = await db
    .selectFrom("certificate_print as p")
    .innerJoin("certificate as c", "c.id", "p.certificate_id")
    .innerJoin("app_user as u", "u.id", "p.user_id")
    .select(["p.id", "p.certificate_id", "c.number", "c.version", "p.mode", "p.reprint", "u.name", "p.printed_at", "p.job_id"])
    .where("c.number", "=", c.number)
    .orderBy("p.printed_at", "desc")
    .orderBy("p.id", "desc")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    certificateId: r.certificate_id,
    number: r.number,
    version: Number(r.version),
    mode: r.mode,
    reprint: !!Number(r.reprint),
    userName: r.name,
    printedAt: r.printed_at,
    jobId: r.job_id,
  }));
}

/** 404 (the certificates' text) unless every contest is in the user's scope. */
async function inScope(db: Handle, user: User, contestIds: number[]) {
  const scope = await adminContestIds(db, user);
  if (scope !== "all" && contestIds.some((id) => !scope.includes(id))) throw notFound(CERT_NOT_FOUND);
}

// ---- What a print takes

export interface Selection {
  /** valid certificates to print, in number order */
  ids: number[];
  /** revoked or replaced ones among those asked for */
  skipped: number;
}

/** The valid certificates a print takes (ids, else every match of the filters); refused when none or too many. */
export async function selectForPrint(db: Db, user: User, body: PrintBody, limit: number): Promise<Selection> {
  let rows: { id: number; status: string; number: string }[];
  if (body.ids?.length) {
    const ids = [...new Set(body.ids)];
    rows = [];
    const contests = new Set<number>();
    for (const part of chunks(ids, 500)) {
      for (const r of await db
        .selectFrom("certificate")
        .select(["id", "status", "number", "contest_id"])
        .where("id", "in", part)
        .execute()) {
        rows.push(r);
        contests.add(r.contest_id);
      }
    }
    if (rows.length !== ids.length) throw notFound(CERT_NOT_FOUND);
    await inScope(db, user, [...contests]);
  } else if (body.filters) {
    await requireManagedContest(db, user, body.filters.contestId);
    rows = await filtered(db, body.filters).select(["c.id", "c.status", "c.number"]).orderBy("c.number").execute();
  } else {
    throw badRequest("请选择要打印的证书，或给出筛选条件");
  }
  const valid = rows
    .filter((r) => r.status === "valid")
    .sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : a.id - b.id));
  const skipped = rows.length - valid.length;
  if (!valid.length)
    throw badRequest(skipped ? `所选的 ${skipped} 张证书都已撤销或已换发新版本，不能打印` : "没有符合条件的证书");
  if (valid.length > limit) throw badRequest(`一次最多打印 ${limit} 张证书（本次 ${valid.length} 张），请缩小筛选范围后分批打印`);
  return { ids: valid.map((r) => r.id), skipped };
}

/** The certificates of the ids with their layouts, in the ids' order (read 200 at a time). */
export async function* printItems(
  db: Handle,
  ids: number[],
  origin: string,
  templates: TemplateCache,
): AsyncGenerator<{ cert: Cert; item: PrintItem; layout: TemplateLayout }> {
  for (const part of chunks(ids, 200)) {
    const rows = new Map(
      (await db.selectFrom("certificate").selectAll().where("id", "in", part).execute()).map((r) => [r.id, r]),
    );
    for (const id of part) {
      const cert = rows.get(id);
      if (!cert) continue;
      const layout = await templates.layout(cert.contest_id, AWARD_KIND_OF[cert.holder_kind]);
      yield { cert, layout, item: { facts: factsOf(cert), layout, verifyUrl: verifyUrl(origin, cert.number, cert.signature) } };
    }
  }
}

/** Refuses (400, naming certificate, holder and character) when any printed character has no font. */
export async function checkPrintable(db: Handle, ids: number[], origin: string, templates: TemplateCache) {
  const fonts = fontSet();
  for await (const { item } of printItems(db, ids, origin, templates)) assertPrintable(item, fonts);
}

/** The certificates among the ids printed before in one of the modes. */
async function printedBefore(db: Handle, ids: number[], modes: readonly Mode[]): Promise<Set<number>> {
  const before = new Set<number>();
  for (const part of chunks(ids, 500))
    for (const r of await db
      .selectFrom("certificate_print")
      .select("certificate_id")
      .distinct()
      .where("certificate_id", "in", part)
      .where("mode", "in", [...modes])
      .execute())
      before.add(r.certificate_id);
  return before;
}

/** Logs a print of the certificates; returns those printed before (their rows are marked reprint). */
export async function logPrints(
  db: Handle,
  ids: number[],
  userId: number,
  mode: Mode,
  jobId: string | null,
  at = new Date().toISOString(),
): Promise<Set<number>> {
  const before = await printedBefore(db, ids, mode === "download" ? ["download"] : ADMIN_MODES);
  for (const part of chunks(ids, 500)) {
    await db
      .insertInto("certificate_print")
      .values(
        part.map((id) => ({
          certificate_id: id,
          user_id: userId,
          mode,
          reprint: before.has(id) ? 1 : 0,
          job_id: jobId,
          printed_at: at,
        })),
      )
      .execute();
  }
  return before;
}

// ---- Browser print

export async function browserPrint(db: Db, user: User, body: PrintBody, origin: string): Promise<BrowserPrint> {
  const { ids, skipped } = await selectForPrint(db, user, body, PRINT_LIMITS.browser);
  const templates = new TemplateCache(db);
  const sheets: PrintSheet[] = [];
  for await (const { cert, item } of printItems(db, ids, origin, templates)) {
    if (cert.status !== "valid") continue;
    sheets.push({
      certificateId: cert.id,
      contestId: cert.contest_id,
      awardKind: AWARD_KIND_OF[cert.holder_kind],
      facts: item.facts,
      verifyUrl: item.verifyUrl,
      qr: qrPath(item.verifyUrl),
      reprint: false,
    });
  }
  // Opening the print view logs nothing: the browser's preview may be closed unprinted. The user's
  // 已打印 confirmation logs it (confirmBrowserPrint).
  const reprinted = await printedBefore(
    db,
    sheets.map((s) => s.certificateId),
    ADMIN_MODES,
  );
  for (const s of sheets) s.reprint = reprinted.has(s.certificateId);
  return { sheets, templates: await templates.all(), skipped: skipped + ids.length - sheets.length };
}

/** Logs a browser print the user confirmed as printed (same scope and skipping as the print itself). */
export async function confirmBrowserPrint(db: Db, user: User, body: BrowserPrintConfirm): Promise<BrowserPrintLogged> {
  const { ids } = await selectForPrint(db, user, { ids: body.ids }, PRINT_LIMITS.browser);
  const reprinted = await db.transaction().execute((trx) => logPrints(trx, ids, user.id, "browser", null));
  return { count: ids.length, reprints: reprinted.size };
}

// ---- PDF batch (a job)

export const CERTIFICATE_JOB = "certificate";

/** Checks the selection and starts the PDF job; a refusal starts nothing. */
export async function startPdf(
  db: Db,
  jobs: Jobs,
  user: User,
  body: PrintBody,
  origin: string,
): Promise<{ jobId: string; count: number; skipped: number }> {
  const { ids, skipped } = await selectForPrint(db, user, body, PRINT_LIMITS.pdf);
  await checkPrintable(db, ids, origin, new TemplateCache(db));
  const jobId = await jobs.create("export", CERTIFICATE_JOB, user.id, { ids, origin, skipped });
  await jobs.enqueue(jobId);
  return { jobId, count: ids.length, skipped };
}

/** Registers the PDF batch's runner: any process renders it into the blob store. */
export function registerCertificatePdf(db: Db, jobs: Jobs) {
  jobs.register(
    "export",
    CERTIFICATE_JOB,
    async (rc) => {
      const { ids, origin, skipped: skippedAtStart } = rc.params as { ids: number[]; origin: string; skipped?: number };
      rc.progress(0, ids.length);
      const templates = new TemplateCache(db);
      const fonts = fontSet();
      // Again before writing (the fonts or the certificates may have changed since the request).
      const scope = await adminContestIds(db, rc.user);
      const printable: number[] = [];
      for await (const { cert, item } of printItems(db, ids, origin, templates)) {
        if (cert.status !== "valid" || (scope !== "all" && !scope.includes(cert.contest_id))) continue;
        assertPrintable(item, fonts);
        printable.push(cert.id);
      }
      if (!printable.length) throw badRequest("所选证书都已撤销或已换发新版本，没有可打印的证书");
      rc.progress(0, printable.length);
      const printed: number[] = [];
      async function* pages() {
        for await (const { cert, item } of printItems(db, printable, origin, templates)) {
          if (cert.status !== "valid") continue;
          printed.push(cert.id);
          yield item;
        }
      }
      const file = await jobs.tmpPath("pdf");
      try {
        await renderPdf(createWriteStream(file), pages(), {
          fonts,
          background: (sha) => readBlob(jobs.store, sha),
          onPage: (n) => {
            rc.progress(n);
            rc.signal.throwIfAborted();
          },
        });
      } catch (err) {
        await rm(file, { force: true });
        throw err;
      }
      const sha = await jobs.storeFile(file);
      const skipped = (skippedAtStart ?? 0) + ids.length - printed.length;
      await db.transaction().execute(async (trx) => {
        const reprinted = await logPrints(trx, printed, rc.user.id, "pdf", rc.job.id);
        const message = `已生成 ${printed.length} 张证书的 PDF（${printed.length} 页）${reprinted.size ? `，其中 ${reprinted.size} 张为重印` : ""}${skipped ? `；${skipped} 张已撤销或已换发新版本，未打印` : ""}`;
        const ok = await jobs.finish(
          rc.job.id,
          "running",
          "done",
          {
            output_sha256: sha,
            processed: printed.length,
            total: printed.length,
            message,
            result: { certificates: printed.length, pages: printed.length, reprints: reprinted.size, skipped },
          },
          trx,
        );
        if (!ok) throw new JobGone();
      });
    },
    { ext: "pdf", contentType: "application/pdf", name: "证书" },
  );
}

// ---- Own certificates

export async function myCertificates(db: Db, user: User, origin: string): Promise<MyCertificate[]> {
  const rows = await db
    .selectFrom("certificate as c")
    .selectAll("c")
    .where("c.holder_user_id", "=", user.id)
    .where(newest)
    .where((eb) => eb.or([eb("c.status", "!=", "valid"), resultsPublished("c.contest_id")]))
    .orderBy("c.issued_at", "desc")
    .orderBy("c.number")
    .execute();
  return rows.map((c) => ({
    id: c.id,
    number: c.number,
    version: Number(c.version),
    holderKind: c.holder_kind,
    contestId: c.contest_id,
    contestName: c.contest_name,
    workId: c.work_id === null ? null : Number(c.work_id),
    workTitle: c.work_title,
    awardName: c.award_name,
    status: c.status,
    statusReason: c.status_reason,
    issuedAt: c.issued_at,
    pdfUrl: c.status === "valid" ? `/Backend/Certificate/mine/${c.id}/pdf` : null,
    verifyUrl: verifyUrl(origin, c.number, c.signature),
  }));
}

/** One own certificate as a PDF (logged as a download); revoked or replaced ones are refused with the reason. */
export async function myCertificatePdf(
  db: Db,
  store: BlobStore,
  user: User,
  id: number,
  origin: string,
): Promise<{ pdf: Buffer; number: string }> {
  const cert = await db
    .selectFrom("certificate")
    .selectAll()
    .where("id", "=", id)
    .where("holder_user_id", "=", user.id)
    .executeTakeFirst();
  if (!cert) throw notFound("证书不存在");
  if (cert.status === "revoked") {
    const reason = cert.status_reason ? (REVOKE_REASON_NAMES[cert.status_reason] ?? cert.status_reason) : "奖项已撤销";
    throw badRequest(`该证书已于 ${cert.status_at?.slice(0, 10) ?? ""} 撤销（${reason}），不能下载；如有疑问，请联系赛事管理员`);
  }
  if (cert.status === "replaced") {
    const latest = await db
      .selectFrom("certificate")
      .select("version")
      .where("number", "=", cert.number)
      .orderBy("version", "desc")
      .executeTakeFirstOrThrow();
    throw badRequest(`该证书已换发第 ${latest.version} 版，此版本（第 ${cert.version} 版）不能再下载，请下载最新版本`);
  }
  const { published } = await db.selectNoFrom(resultsPublished(cert.contest_id).as("published")).executeTakeFirstOrThrow();
  if (!Number(published)) throw badRequest("本赛事的结果尚未发布，证书暂不能下载");
  const templates = new TemplateCache(db);
  const layout = await templates.layout(cert.contest_id, AWARD_KIND_OF[cert.holder_kind]);
  const item: PrintItem = { facts: factsOf(cert), layout, verifyUrl: verifyUrl(origin, cert.number, cert.signature) };
  assertPrintable(item);
  const pdf = await renderToBuffer([item], store);
  await db.transaction().execute((trx) => logPrints(trx, [cert.id], user.id, "download", null));
  return { pdf, number: cert.number };
}

/** A few certificates as a PDF in memory (a download, a preview). */
export async function renderToBuffer(items: PrintItem[], store: BlobStore): Promise<Buffer> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on("data", (c: Buffer) => parts.push(c));
  await renderPdf(out, items, { background: (sha) => readBlob(store, sha) });
  return Buffer.concat(parts);
}
