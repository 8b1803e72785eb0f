/**
 * Certificate templates: one saved layout per contest and award kind (certificate_template),
 * else the built-in defaultLayout; the background images uploaded for them
 * (certificate_background, the bytes in the blob store).
 *
 * - Saving checks the layout with the shared checkLayout (a field off the page: 400 naming
 *   the field, nothing saved), the fixed texts against the fonts, and that the background
 *   is an uploaded image still in the store. Fields are stored with only their known keys.
 * - An upload must be a PNG or JPEG by its first bytes (not its name), at most 10 MB and
 *   40 megapixels; its size in pixels is read from the header.
 * - A background is shown to whoever uploaded it, to root, and to contest admins of a
 *   contest whose template uses it.
 */
import { Readable } from "node:stream";
import { badRequest, DomainError, invalid, notFound } from "../../shared/errors";
import {
  AWARD_KINDS,
  checkLayout,
  defaultLayout,
  FIELD_NAMES,
  type AwardKind,
  type TemplateField,
  type TemplateLayout,
} from "../../shared/certificate/layout";
import type { TemplateBody, TemplateView } from "../../shared/certificate/print-schema";
import type { User } from "../db/schema";
import type { Db } from "../db";
import type { BlobStore } from "../storage";
import { adminContestIds } from "../scope";
import { requireManagedContest } from "../judging/service/contest";
import type { Handle } from "../work/repository";
import { codePointLabel, fontSet, missingCharacter } from "./fonts";
import { readImage, type ImageType, type IncomingImage } from "../storage/image-upload";

export { imageInfo, type ImageType, type IncomingImage } from "../storage/image-upload";

export const BACKGROUND_MAX_BYTES = 10 * 1024 * 1024;
export const BACKGROUND_MAX_PIXELS = 40_000_000;
export const BACKGROUND_NOT_FOUND = "背景图片不存在或不在您的管理范围内";

// ---- Templates

/** The template of a contest's award kind: the saved one, else the built-in default. */
export async function loadTemplate(db: Handle, contestId: number, kind: AwardKind): Promise<TemplateView> {
  const row = await db
    .selectFrom("certificate_template as t")
    .leftJoin("app_user as u", "u.id", "t.updated_by")
    .select(["t.orientation", "t.background_sha256", "t.fields", "t.updated_at", "u.name as updated_by_name"])
    .where("t.contest_id", "=", contestId)
    .where("t.award_kind", "=", kind)
    .executeTakeFirst();
  if (!row) return { contestId, awardKind: kind, ...defaultLayout(kind), isDefault: true, updatedAt: null, updatedBy: null };
  return {
    contestId,
    awardKind: kind,
    orientation: row.orientation,
    backgroundSha256: row.background_sha256,
    fields: JSON.parse(row.fields) as TemplateField[],
    isDefault: false,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by_name ?? null,
  };
}

export const layoutOf = (t: Pick<TemplateView, "orientation" | "backgroundSha256" | "fields">): TemplateLayout => ({
  orientation: t.orientation,
  backgroundSha256: t.backgroundSha256,
  fields: t.fields,
});

/** Templates read once per print (a batch uses a few, on every page). */
export class TemplateCache {
  readonly #views = new Map<string, Promise<TemplateView>>();
  constructor(private readonly db: Handle) {}
  view(contestId: number, kind: AwardKind): Promise<TemplateView> {
    const key = `${contestId}:${kind}`;
    let v = this.#views.get(key);
    if (!v) this.#views.set(key, (v = loadTemplate(this.db, contestId, kind)));
    return v;
  }
  async layout(contestId: number, kind: AwardKind): Promise<TemplateLayout> {
    return layoutOf(await this.view(contestId, kind));
  }
  async all(): Promise<TemplateView[]> {
    return Promise.all(this.#views.values());
  }
}

export async function contestTemplates(db: Db, user: User, contestId: number): Promise<TemplateView[]> {
  await requireManagedContest(db, user, contestId);
  return Promise.all(AWARD_KINDS.map((k) => loadTemplate(db, contestId, k)));
}

/** A field with only the keys of its kind (a request may carry others). */
function cleanField(f: TemplateField): TemplateField {
  if (f.key === "qr") return { key: "qr", x: f.x, y: f.y, size: f.size };
  const out: TemplateField = { key: f.key, x: f.x, y: f.y, width: f.width, fontSize: f.fontSize, align: f.align };
  if (f.bold !== undefined) out.bold = f.bold;
  if (f.maxLines !== undefined) out.maxLines = f.maxLines;
  if (f.color !== undefined) out.color = f.color;
  if (f.text !== undefined && (f.key === "title" || f.key === "body")) out.text = f.text;
  return out;
}

/** The problems of a layout that printing would hit, in Chinese: off the page, a fixed text no font can draw. */
export function layoutProblems(t: TemplateLayout): string[] {
  const out = checkLayout(t).map((p) => p.message);
  const fonts = fontSet();
  for (const f of t.fields) {
    if (f.key === "qr" || !f.text) continue;
    const ch = missingCharacter(f.text.replace(/\{\w+\}/g, ""), f.bold ? fonts.bold : fonts.regular);
    if (ch)
      out.push(
        `「${FIELD_NAMES[f.key]}」中的字符「${ch}」（${codePointLabel(ch)}）服务器上没有字体能显示，请改用其他字，或在服务器上安装含该字的字体（CERT_FONT_FALLBACKS）`,
      );
  }
  return out;
}

/** A background the template may name: an image the user may see (visibleBackground), still in the store. */
async function requireBackground(db: Db, store: BlobStore, user: User, sha256: string) {
  await visibleBackground(db, user, sha256).catch((e: unknown) => {
    throw e instanceof DomainError && e.status === 404 ? badRequest("背景图片不存在，请重新上传") : e;
  });
  if (!(await store.has(sha256))) throw badRequest("背景图片已被清理，请重新上传");
}

/** Saves a contest's template of an award kind; a bad layout is refused with nothing saved. */
export async function saveTemplate(db: Db, store: BlobStore, user: User, body: TemplateBody): Promise<TemplateView> {
  await requireManagedContest(db, user, body.contestId);
  const fields = body.fields.map(cleanField);
  const problems = layoutProblems({ orientation: body.orientation, backgroundSha256: body.backgroundSha256, fields });
  if (problems.length) throw badRequest(`模板未保存：${problems.join("；")}`);
  if (body.backgroundSha256) await requireBackground(db, store, user, body.backgroundSha256);
  const values = {
    orientation: body.orientation,
    background_sha256: body.backgroundSha256,
    fields: JSON.stringify(fields),
    updated_at: new Date().toISOString(),
    updated_by: user.id,
  };
  await db
    .insertInto("certificate_template")
    .values({ contest_id: body.contestId, award_kind: body.awardKind, ...values })
    .onConflict((oc) => oc.columns(["contest_id", "award_kind"]).doUpdateSet(values))
    .execute();
  return loadTemplate(db, body.contestId, body.awardKind);
}

/** The layout of a preview: checked like a save (except the field checks the editor shows), the background readable. */
export async function previewLayout(db: Db, store: BlobStore, user: User, body: TemplateBody): Promise<TemplateLayout> {
  await requireManagedContest(db, user, body.contestId);
  if (body.backgroundSha256) await requireBackground(db, store, user, body.backgroundSha256);
  return { orientation: body.orientation, backgroundSha256: body.backgroundSha256, fields: body.fields.map(cleanField) };
}

// ---- Background images

/** Stores an uploaded background image (checked) and records who uploaded it. */
export async function uploadBackground(db: Db, store: BlobStore, user: User, incoming: IncomingImage | undefined) {
  const { buf, info, name } = await readImage(incoming, {
    what: "背景图片",
    maxBytes: BACKGROUND_MAX_BYTES,
    notImageHint: "，请上传证书底图的 PNG 或 JPEG 扫描件",
  });
  if (
    !info.width ||
    !info.height ||
    info.width * info.height > BACKGROUND_MAX_PIXELS ||
    info.width > 20000 ||
    info.height > 20000
  ) {
    throw invalid(
      "file",
      `「${name}」的尺寸（${info.width} × ${info.height} 像素）不合适：A4 按 300 dpi 扫描约为 3508 × 2480 像素，请缩小到 4000 万像素以内`,
    );
  }
  const { sha256 } = await store.put(Readable.from([buf]));
  await db
    .insertInto("certificate_background")
    .values({
      sha256,
      mime: info.type,
      width: info.width,
      height: info.height,
      size: buf.length,
      uploaded_by: user.id,
      uploaded_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.columns(["sha256", "uploaded_by"]).doNothing())
    .execute();
  return { sha256, width: info.width, height: info.height };
}

/** A background the user may see (own upload, or used by a template of a contest in scope): its type. */
export async function visibleBackground(db: Db, user: User, sha256: string): Promise<ImageType> {
  const rows = await db
    .selectFrom("certificate_background")
    .select(["mime", "uploaded_by"])
    .where("sha256", "=", sha256)
    .execute();
  if (!rows.length) throw notFound(BACKGROUND_NOT_FOUND);
  if (!rows.some((r) => r.uploaded_by === user.id)) {
    const scope = await adminContestIds(db, user);
    if (scope !== "all") {
      const used = scope.length
        ? await db
            .selectFrom("certificate_template")
            .select("id")
            .where("background_sha256", "=", sha256)
            .where("contest_id", "in", scope)
            .executeTakeFirst()
        : undefined;
      if (!used) throw notFound(BACKGROUND_NOT_FOUND);
    }
  }
  return rows[0].mime;
}

/** A blob's bytes (a background to embed). */
export async function readBlob(store: BlobStore, sha256: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await store.get(sha256)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
