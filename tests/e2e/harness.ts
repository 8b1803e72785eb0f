/**
 * Starts the real platform (built front end + /Backend) on a fresh embedded database with
 * demo data, and a headless Debian chromium driven by playwright-core.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { expect } from "vitest";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/server/app";
import { loadConfig } from "../../src/server/config";
import { migrate, openDb, type Db } from "../../src/server/db";
import { seedDemo } from "../../src/server/seed/demo";
import { recordRequests } from "./server-log";
import { STEP_TIMEOUT_MS } from "./limits";

export interface E2E {
  base: string;
  /** links in the mails written to the outbox so far, newest last */
  mailedLinks(): string[];
  /** the decoded bodies of the mails written to the outbox so far, oldest first */
  mailedTexts(): string[];
  browser: Browser;
  db: Db;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function startE2E(): Promise<E2E> {
  const dist = process.env.E2E_DIST;
  if (!dist) throw new Error("E2E_DIST is not set: run the browser tests through `npm test`");
  const dataDir = mkdtempSync(join(tmpdir(), "saiwu-e2e-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DIST_DIR: dist,
    LOG_LEVEL: "warn",
    LOGIN_RATE_MAX: "1000",
    MAIL_RATE_MAX: "1000",
    PORT: "0",
    // The test's browser and assertions share this process's loop: no shedding on a loaded runner.
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: "0",
  });
  const { db, dialect } = openDb(config.databaseUrl);
  await migrate(db);
  await seedDemo(db);
  const app: FastifyInstance = await buildApp({ db, dialect, config, logger: false });
  recordRequests(app);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const port = (app.server.address() as { port: number }).port;
  const base = `http://localhost:${port}`;
  config.publicUrl = base;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const mailedTexts = (): string[] => {
    const dir = join(dataDir, "outbox");
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .sort()
      .map((f) => {
        const raw = readFileSync(join(dir, f), "utf8");
        return /Content-Transfer-Encoding: base64/i.test(raw)
          ? Buffer.from(raw.split(/\n\n/).slice(1).join("").replace(/\s+/g, ""), "base64").toString("utf8")
          : raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
      });
  };
  return {
    base,
    mailedTexts,
    mailedLinks() {
      return mailedTexts().flatMap((body) => body.match(/https?:\/\/[^\s"<>]+/g) ?? []);
    },
    browser,
    db,
    async newPage() {
      const ctx = await browser.newContext({ locale: "zh-CN", viewport: { width: 1366, height: 900 } });
      ctx.setDefaultTimeout(STEP_TIMEOUT_MS);
      const page = await ctx.newPage();
      page.on("pageerror", (e) => console.error(`[browser] ${e.message}`));
      return page;
    },
    async close() {
      await browser.close();
      await app.close();
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The password of every demo account. */
export const DEMO_PASSWORD = "Demo@2026";

/** Opens the login page `url`, fills 用户名或邮箱 and 密码 and clicks 登录; waits for nothing after. */
export async function submitLogin(page: Page, url: string, username: string, password = DEMO_PASSWORD) {
  await page.goto(url);
  await page.getByPlaceholder("用户名或邮箱").fill(username);
  await page.getByPlaceholder("密码").fill(password);
  await page.getByRole("button", { name: /登\s*录/ }).click();
}

/**
 * Logs `username` in through the login page `path` (students use /account/StudentLogin,
 * teachers /account/TeacherLogin) on a new page, or on `opts.page`, and waits for the user
 * centre. Returns the page.
 */
export async function login(
  e: E2E,
  username: string,
  path = "/account/Login",
  opts: { page?: Page; password?: string } = {},
): Promise<Page> {
  const page = opts.page ?? (await e.newPage());
  await submitLogin(page, e.base + path, username, opts.password);
  await page.getByTestId("user-center").waitFor();
  return page;
}

/** Once the modal has closed, focus is inside a drawer (the modal did not take it back to its button). */
export async function expectFocusStaysInDrawer(page: Page) {
  await page.locator(".ant-modal-wrap").waitFor({ state: "hidden" });
  await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest(".ant-drawer"))).toBe(true);
}

/**
 * Does `act` (a click that sends a write) and waits for the server's answer to the `method`
 * request whose address ends with `urlEnd`; fails with the server's Chinese message unless the
 * answer says success (error 0). Returns the answer's data.
 */
export async function answerOf<T = unknown>(page: Page, method: string, urlEnd: string, act: () => Promise<unknown>): Promise<T> {
  const answered = page.waitForResponse((r) => r.request().method() === method && r.url().endsWith(urlEnd));
  // When `act` itself fails, that is the failure to report, not this wait's later end.
  answered.catch(() => {});
  await act();
  const reply = (await (await answered).json()) as { error: number; info: string; data: T };
  expect(reply.error, reply.info).toBe(0);
  return reply.data;
}

/** Waits until the element's own and its descendants' finite animations (antd's opening zoom of a dialog) have finished. */
export async function settled(locator: Locator) {
  await locator.evaluate((el) =>
    Promise.all(
      el
        .getAnimations({ subtree: true })
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished),
    ).then(() => undefined),
  );
}

/** The option with `text` in the open antd Select dropdown. */
export const selectOption = (page: Page, text: string) =>
  page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option", { hasText: text }).first();

/** The id of the demo's current (not archived) Zhejiang provincial contest. */
export async function zhejiangContestId(db: Db): Promise<number> {
  return (
    await db
      .selectFrom("contest")
      .select("id")
      .where("level", "=", "provincial")
      .where("province", "=", "浙江省")
      .where("archived", "=", 0)
      .executeTakeFirstOrThrow()
  ).id;
}

/** The demo's national contest (the latest year's). */
export async function nationalContestId(db: Db): Promise<number> {
  return (
    await db.selectFrom("contest").select("id").where("level", "=", "national").orderBy("year", "desc").executeTakeFirstOrThrow()
  ).id;
}

/**
 * A new draft named `name` for the user logged in on `page`, in the first open contest and 大类
 * that accepts one (the demo student has works in some 大类 already); returns its id.
 */
export async function createDraft(e: E2E, page: Page, name: string): Promise<number> {
  const open = (await (await page.request.get(e.base + "/Backend/Work/work/open-contests")).json()) as {
    data: { id: number; categories: { id: number }[] }[];
  };
  for (const c of open.data) {
    for (const cat of c.categories) {
      const r = await page.request.post(e.base + "/Backend/Work/work", {
        data: { contestId: c.id, categoryId: cat.id, name },
        headers: { origin: e.base },
      });
      if (r.status() === 201) return ((await r.json()) as { data: { id: number } }).data.id;
    }
  }
  throw new Error(`no open contest accepts a new draft for this user (${name})`);
}
