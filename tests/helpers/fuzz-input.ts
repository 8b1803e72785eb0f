/**
 * fast-check arbitraries from the JSON schemas of the OpenAPI document: values the schema
 * accepts (ids biased towards rows that exist) and, mixed in, values it must refuse
 * (wrong types, out of range, too long, too many, odd text).
 */
import fc from "fast-check";
import type { JsonSchema } from "./openapi";

export interface FuzzContext {
  /** The largest small id in the database: valid ids are drawn mostly from 1..this. */
  maxSmallId: number;
  /** Ids of existing works (10-digit). */
  workIds: number[];
}

const WEIRD_STRINGS = [
  "",
  " ",
  "0",
  "-1",
  "1e999",
  "NaN",
  "Infinity",
  "0x10",
  "١٢٣",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "%",
  "%00",
  "\u0000",
  "\uD800",
  "../../etc/passwd",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "😀".repeat(3),
  "a".repeat(300),
  "九".repeat(5001),
];

const WEIRD_NUMBERS = [
  0,
  -1,
  -2147483649,
  2147483648,
  2 ** 53 + 1 /* = 2 ** 53 in a double */,
  1e20,
  1e308,
  -1e308,
  0.5,
  -0.0001,
  99999999999,
];

/** Any JSON value (none of them is valid for a typed field, most are refused). */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, {}, [], [null], { a: 1 }),
  fc.constantFrom(...WEIRD_STRINGS),
  fc.constantFrom(...WEIRD_NUMBERS),
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const types = (s: JsonSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** arb filtered by fits; refuses (rather than loops forever) when samples hardly ever fit. */
function checked<T>(arb: fc.Arbitrary<T>, fits: (v: T) => boolean, s: JsonSchema): fc.Arbitrary<T> {
  const hits = fc.sample(arb, { numRuns: 100, seed: 1 }).filter(fits).length;
  if (hits < 10) throw new Error(`the fuzz cannot generate values of ${JSON.stringify(s)} (${hits}/100 fit)`);
  return arb.filter(fits);
}

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 100;
  const re = s.pattern ? new RegExp(s.pattern, "u") : null;
  // Length in code points, as ajv counts it (the same as UTF-16 units without surrogates).
  const length = (v: string) => (/[\uD800-\uDFFF]/.test(v) ? [...v].length : v.length);
  const fits = (v: string) => {
    const n = length(v);
    return n >= min && n <= max && (!re || re.test(v));
  };
  if (s.format === "date-time")
    return fc.date({ min: new Date("2020-01-01"), max: new Date("2035-12-31"), noInvalidDate: true }).map((d) => d.toISOString());
  if (s.format === "date")
    return fc
      .date({ min: new Date("2020-01-01"), max: new Date("2035-12-31"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  if (s.format === "uuid") return fc.uuid();
  if (s.format === "email") return checked(fc.emailAddress(), fits, s);
  if (s.pattern) {
    // Lookaheads (the password rule) are beyond stringMatching: a few fitting samples.
    if (/\(\?[=!]/.test(s.pattern)) return fc.constantFrom("Abcdefg1", "Demo@2026", "x1".repeat(8)).filter(fits);
    // Repeating a match (e.g. of ^[A-Za-z0-9_-]+$) reaches a minimum length; cut at the maximum.
    const grow = (v: string) => (v.length && v.length < min ? v.repeat(Math.ceil(min / v.length)) : v).slice(0, max);
    return checked(fc.stringMatching(new RegExp(s.pattern)).map(grow), fits, s);
  }
  // Short text mostly, sometimes right at the limit.
  return checked(
    fc.oneof(
      { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, 24)), unit: "grapheme" }) },
      { weight: 2, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, 24)), unit: "binary" }) },
      { weight: 1, arbitrary: fc.constant("字".repeat(Math.max(min, max))) },
    ),
    fits,
    s,
  );
}

function integerArb(s: JsonSchema, ctx: FuzzContext): fc.Arbitrary<number> {
  // fast-check draws within safe integers only (a bound of 1e300 never returns).
  const safe = (n: number) => Math.max(Number.MIN_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, n));
  const lo = safe(s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000));
  const hi = safe(s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1000));
  if (s.title === "作品编号" && ctx.workIds.length) {
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...ctx.workIds) },
      { weight: 1, arbitrary: fc.integer({ min: lo, max: hi }) },
    );
  }
  const small = Math.min(hi, Math.max(lo, ctx.maxSmallId));
  return fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: lo, max: small }) },
    { weight: 1, arbitrary: fc.constantFrom(lo, hi) },
    { weight: 1, arbitrary: fc.integer({ min: lo, max: hi }) },
  );
}

/** Arbitraries are built once per schema object (the document's schemas are shared and nested). */
function memo(fn: (s: JsonSchema, ctx: FuzzContext) => fc.Arbitrary<unknown>) {
  const cache = new WeakMap<FuzzContext, WeakMap<JsonSchema, fc.Arbitrary<unknown>>>();
  return (s: JsonSchema | undefined, ctx: FuzzContext): fc.Arbitrary<unknown> => {
    if (!s || typeof s !== "object") return junk;
    let byCtx = cache.get(ctx);
    if (!byCtx) cache.set(ctx, (byCtx = new WeakMap()));
    let arb = byCtx.get(s);
    if (!arb) byCtx.set(s, (arb = fn(s, ctx)));
    return arb;
  };
}

/** A value that the schema accepts. */
export const validArb = memo((s, ctx) => {
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return fc.oneof(...alts.map((x: JsonSchema) => validArb(x, ctx)));
  if (s.allOf)
    return fc
      .tuple(...s.allOf.map((x: JsonSchema) => validArb(x, ctx)))
      .map((parts) => Object.assign({}, ...parts.filter((p) => p && typeof p === "object")));
  if ("const" in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const ts = types(s);
  const arbs: fc.Arbitrary<unknown>[] = [];
  if (s.nullable || ts.includes("null")) arbs.push(fc.constant(null));
  for (const t of ts) {
    if (t === "integer") arbs.push(integerArb(s, ctx));
    else if (t === "number")
      arbs.push(
        fc
          .double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true })
          .map((n) => Math.round(n * 10) / 10)
          .filter((n) => n >= (s.minimum ?? -Infinity) && n <= (s.maximum ?? Infinity)),
      );
    else if (t === "string") arbs.push(stringArb(s));
    else if (t === "boolean") arbs.push(fc.boolean());
    else if (t === "array")
      arbs.push(
        fc.array(validArb(s.items, ctx), {
          minLength: s.minItems ?? 0,
          maxLength: Math.min(s.maxItems ?? 5, Math.max(s.minItems ?? 0, 5)),
        }),
      );
    else if (t === "object") arbs.push(objectArb(s, ctx, false));
  }
  if (!ts.length && s.properties) arbs.push(objectArb(s, ctx, false));
  return arbs.length ? fc.oneof(...arbs) : junk;
});

/** A value that breaks the schema in one way or another (or, now and then, does not). */
export const invalidArb = memo((s, ctx) => {
  const ts = types(s);
  const arbs: fc.Arbitrary<unknown>[] = [junk];
  if (ts.includes("integer") || ts.includes("number")) {
    const edges = [s.minimum, s.maximum].filter((x) => x !== undefined).flatMap((x: number) => [x - 1, x + 1]);
    arbs.push(fc.constantFrom(...WEIRD_NUMBERS, ...edges));
  }
  if (ts.includes("string")) {
    const max = s.maxLength ?? 100;
    arbs.push(fc.constantFrom(...WEIRD_STRINGS, "x".repeat(max + 1), "字".repeat(max + 1)));
  }
  if (ts.includes("array")) {
    arbs.push(fc.array(validArb(s.items, ctx), { minLength: (s.maxItems ?? 5) + 1, maxLength: (s.maxItems ?? 5) + 2 }));
    arbs.push(fc.array(invalidArb(s.items, ctx), { minLength: 1, maxLength: 3 }));
  }
  if (ts.includes("object") || s.properties) arbs.push(objectArb(s, ctx, true));
  return fc.oneof(...arbs);
});

/** A value of the schema where each part is, with some chance, broken. */
export const fuzzyArb = memo((s, ctx) =>
  fc.oneof({ weight: 3, arbitrary: validArb(s, ctx) }, { weight: 1, arbitrary: invalidArb(s, ctx) }),
);

function objectArb(s: JsonSchema, ctx: FuzzContext, broken: boolean): fc.Arbitrary<Record<string, unknown>> {
  const props: Record<string, JsonSchema> = s.properties ?? {};
  const required: string[] = s.required ?? [];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) model[k] = broken ? fuzzyArb(v, ctx) : validArb(v, ctx);
  const base = fc.record(model, { requiredKeys: broken ? [] : required.filter((k) => k in props) });
  const extra = s.additionalProperties && typeof s.additionalProperties === "object" ? s.additionalProperties : undefined;
  const withMap = extra
    ? fc
        .tuple(
          base,
          fc.dictionary(
            fc.oneof(fc.stringMatching(/^[gc]?[0-9]{1,4}$/), fc.string({ maxLength: 8 })),
            broken ? fuzzyArb(extra, ctx) : validArb(extra, ctx),
            { maxKeys: 5 },
          ),
        )
        .map(([a, b]) => ({ ...b, ...a }))
    : base;
  if (!broken) return withMap;
  // Broken: maybe an unknown field too.
  return fc
    .tuple(withMap, fc.option(fc.tuple(fc.constantFrom("__proto__x", "constructor", "extra", "id"), junk), { nil: undefined }))
    .map(([o, e]) => (e ? { ...o, [e[0]]: e[1] } : o));
}
