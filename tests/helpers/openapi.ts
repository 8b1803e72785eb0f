/**
 * Reading the app's OpenAPI document in tests: the operations with their request schemas,
 * and a walk over a JSON schema that reports every value without limits.
 */
import type { TestApp } from "./app";

export type JsonSchema = Record<string, any>;

export interface Operation {
  method: string;
  /** e.g. /Backend/Admin/school/{id} */
  path: string;
  params: { in: "path" | "query"; name: string; required: boolean; schema: JsonSchema }[];
  /** The JSON body schema, if the route takes one. */
  body?: JsonSchema;
  /** The route takes multipart/form-data (an upload). */
  multipart: boolean;
}

export async function openapiOperations(t: TestApp): Promise<Operation[]> {
  const res = await t.app.inject({ method: "GET", url: "/Backend/openapi.json" });
  const doc = res.json() as { paths: Record<string, Record<string, any>> };
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = op.requestBody?.content ?? {};
      ops.push({
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []).filter((p: any) => p.in === "path" || p.in === "query"),
        body: content["application/json"]?.schema,
        multipart: !!content["multipart/form-data"],
      });
    }
  }
  return ops;
}

/** Formats whose values have a bounded length by themselves. */
export const BOUNDED_FORMATS = new Set(["date-time", "date", "time", "uuid", "ipv4", "ipv6"]);

const types = (s: JsonSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/**
 * Every place in a request schema that lacks a limit: numbers without minimum and maximum,
 * strings without maxLength (unless an enum, const or bounded format), arrays without
 * maxItems, maps (additionalProperties) without maxProperties, and untyped values.
 */
export function unboundedPlaces(schema: JsonSchema | undefined, at: string): string[] {
  const out: string[] = [];
  const walk = (s: JsonSchema | undefined, where: string) => {
    if (!s || typeof s !== "object") return;
    if (s.$ref) return void out.push(`${where}: unresolved $ref ${s.$ref}`);
    for (const k of ["anyOf", "oneOf", "allOf"] as const) (s[k] ?? []).forEach((x: JsonSchema) => walk(x, where));
    if ("enum" in s || "const" in s) return;
    const ts = types(s);
    if (ts.length === 0 && !s.anyOf && !s.oneOf && !s.allOf && !s.properties) out.push(`${where}: value of any type`);
    if (ts.includes("integer") || ts.includes("number")) {
      const lo = "minimum" in s || "exclusiveMinimum" in s;
      const hi = "maximum" in s || "exclusiveMaximum" in s;
      if (!lo || !hi)
        out.push(`${where}: ${ts.includes("integer") ? "integer" : "number"} without ${!lo ? "minimum" : "maximum"}`);
    }
    if (ts.includes("string") && !("maxLength" in s) && !BOUNDED_FORMATS.has(s.format))
      out.push(`${where}: string without maxLength`);
    if (ts.includes("array")) {
      if (!("maxItems" in s)) out.push(`${where}: array without maxItems`);
      walk(s.items, `${where}[]`);
    }
    if (ts.includes("object") || s.properties) {
      for (const [k, v] of Object.entries(s.properties ?? {})) walk(v as JsonSchema, `${where}.${k}`);
      if (s.additionalProperties && typeof s.additionalProperties === "object") {
        if (!("maxProperties" in s)) out.push(`${where}: map without maxProperties`);
        walk(s.additionalProperties, `${where}.*`);
      }
      if (s.patternProperties) {
        if (!("maxProperties" in s)) out.push(`${where}: map without maxProperties`);
        for (const v of Object.values(s.patternProperties)) walk(v as JsonSchema, `${where}.*`);
      }
    }
  };
  walk(schema, at);
  return out;
}

/** Every integer in a request schema with its place, for checks on its range. */
export function integerPlaces(schema: JsonSchema | undefined, at: string): { where: string; schema: JsonSchema }[] {
  const out: { where: string; schema: JsonSchema }[] = [];
  const walk = (s: JsonSchema | undefined, where: string) => {
    if (!s || typeof s !== "object") return;
    for (const k of ["anyOf", "oneOf", "allOf"] as const) (s[k] ?? []).forEach((x: JsonSchema) => walk(x, where));
    if (types(s).includes("integer")) out.push({ where, schema: s });
    walk(s.items, `${where}[]`);
    for (const [k, v] of Object.entries(s.properties ?? {})) walk(v as JsonSchema, `${where}.${k}`);
    if (s.additionalProperties && typeof s.additionalProperties === "object") walk(s.additionalProperties, `${where}.*`);
  };
  walk(schema, at);
  return out;
}
