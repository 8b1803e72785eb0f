/**
 * Text no database can store is refused before validation: a NUL character (U+0000) in
 * any string of the query, path or JSON body. PostgreSQL rejects it in text ("invalid
 * byte sequence"), which would otherwise surface as a 500 on either a read or a write.
 * Runs after the access check (registered after it), so a refused caller learns nothing.
 */
import type { FastifyInstance } from "fastify";
import { invalid } from "../../shared/errors";

/** The path of the first string (or key) holding a NUL, e.g. "tools.0.name"; null if none. */
export function nulPath(value: unknown, path = ""): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (!value || typeof value !== "object") return null;
  for (const [k, v] of Object.entries(value)) {
    const at = path ? `${path}.${k}` : k;
    if (k.includes("\u0000")) return at;
    const found = nulPath(v, at);
    if (found !== null) return found;
  }
  return null;
}

export function registerInputGuard(app: FastifyInstance) {
  app.addHook("preValidation", async (req) => {
    for (const part of [req.params, req.query, req.body]) {
      const at = nulPath(part);
      if (at !== null) throw invalid(at, `${at ? `「${at}」` : "请求内容"}含有不允许的控制字符（U+0000）`);
    }
  });
}
