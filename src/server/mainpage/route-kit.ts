/**
 * Shared pieces of the main page route groups (see routes.ts): OpenAPI tags, path prefixes,
 * the tables whose changes invalidate each cached public answer, and the per-registration
 * helpers (typed router, db, blob store, the public access config).
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { Db } from "../db";
import type { BlobStore } from "../storage";

export const tags = ["大赛主页"];
export const adminTags = ["优秀作品"];
export const PUB = "/Backend/Public/mainpage";
export const ADM = "/Backend/Admin/best-work";

export const NEWS_TABLES = ["news", "contest"];
export const RESULT_TABLES = [
  "contest_result",
  "result_publication",
  "contest",
  "work",
  "award_level",
  "work_category",
  "school",
];
export const BEST_TABLES = ["best_work", ...RESULT_TABLES];

export interface MainpageDeps {
  db: Db;
  store: BlobStore;
}

export function mainpageRouteKit(app: FastifyInstance, deps: MainpageDeps) {
  const { db, store } = deps;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const pub = { access: "public" as const };
  return { r, db, store, pub };
}

export type MainpageRouteKit = ReturnType<typeof mainpageRouteKit>;
