/**
 * Bounded input everywhere: every path parameter, query parameter and JSON body field of
 * every route in the OpenAPI document has limits (numbers both bounds, strings maxLength
 * or an enum/format, arrays maxItems, maps maxProperties).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeApp, type TestApp } from "../helpers/app";
import { integerPlaces, openapiOperations, unboundedPlaces, type Operation } from "../helpers/openapi";
import { MAX_ID } from "../../src/shared/bounds";

describe("request schemas are bounded", () => {
  let t: TestApp;
  let ops: Operation[];
  beforeAll(async () => {
    t = await makeApp("sqlite", { seed: false });
    ops = await openapiOperations(t);
  });
  afterAll(() => t.close());

  it("reads the routes of the document", () => {
    expect(ops.length).toBeGreaterThan(150);
    expect(ops.some((o) => o.method === "PATCH" && o.path === "/Backend/Admin/school/{id}")).toBe(true);
  });

  it("has no parameter or body field without limits", () => {
    const places: string[] = [];
    for (const op of ops) {
      const at = `${op.method} ${op.path}`;
      for (const p of op.params) places.push(...unboundedPlaces(p.schema, `${at} ${p.in}:${p.name}`));
      places.push(...unboundedPlaces(op.body, `${at} body`));
    }
    expect(places).toEqual([]);
  });

  it("keeps every integer within a 4-byte column, but the 10-digit work ids (a bigint column)", () => {
    const tooBig: string[] = [];
    for (const op of ops) {
      const at = `${op.method} ${op.path}`;
      const places = [
        ...op.params.flatMap((p) => integerPlaces(p.schema, `${at} ${p.in}:${p.name}`)),
        ...integerPlaces(op.body, `${at} body`),
      ];
      for (const { where, schema } of places) {
        if (schema.maximum > MAX_ID && schema.title !== "作品编号") tooBig.push(`${where}: maximum ${schema.maximum}`);
        if (schema.minimum < -MAX_ID) tooBig.push(`${where}: minimum ${schema.minimum}`);
      }
    }
    expect(tooBig).toEqual([]);
  });

  it("the walk finds what is missing", () => {
    expect(unboundedPlaces({ type: "object", properties: { a: { type: "integer", minimum: 1 } } }, "x")).toEqual([
      "x.a: integer without maximum",
    ]);
    expect(unboundedPlaces({ type: "array", items: { type: "string", maxLength: 3 } }, "x")).toEqual([
      "x: array without maxItems",
    ]);
    expect(unboundedPlaces({ anyOf: [{ type: "string" }, { type: "null" }] }, "x")).toEqual(["x: string without maxLength"]);
    expect(unboundedPlaces({ type: "string", format: "date-time" }, "x")).toEqual([]);
    expect(unboundedPlaces({ type: "string", enum: ["a"] }, "x")).toEqual([]);
    expect(unboundedPlaces({ type: "object", additionalProperties: { type: "number", minimum: 0, maximum: 1 } }, "x")).toEqual([
      "x: map without maxProperties",
    ]);
    expect(unboundedPlaces({}, "x")).toEqual(["x: value of any type"]);
  });
});
