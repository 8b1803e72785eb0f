/**
 * Every route's validator and response serializer compiles. They are compiled on a route's
 * first use (src/server/plugins/lazy-schemas.ts), so a broken schema would otherwise show only
 * when someone first calls its route; here all of them are compiled at once, and a route used
 * after that still validates and answers as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, makeApp, type TestApp } from "../helpers/app";

describe("route schemas", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp("sqlite");
  });
  afterAll(async () => t?.close());

  it("all compile, and nothing is left to compile afterwards", async () => {
    const compiled = t.app.lazySchemas.compileAll();
    // Several hundred routes, most with a query, parameter or body schema and a response schema.
    expect(compiled).toBeGreaterThan(300);
    expect(t.app.lazySchemas.compileAll()).toBe(0);
  });

  it("a route still validates and answers after its schemas were compiled ahead of use", async () => {
    const c = new Client(t);
    await c.login("root", "admin");
    const bad = await c.get("/Backend/Admin/user?current=abc");
    expect(bad.status).toBe(422);
    expect(bad.body.info).toMatch(/[\u4e00-\u9fa5]/);
    const good = await c.get("/Backend/Admin/user?current=1&pageSize=5");
    expect(good.status).toBe(200);
    expect(good.body.data.list.length).toBeGreaterThan(0);
  });
});
