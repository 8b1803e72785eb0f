/**
 * Looks at a screen as a role would: logs in through the login page of the user's role,
 * opens a path in headless Debian chromium and saves a screenshot.
 *   npx tsx scripts/screenshot.ts --base http://localhost:8095 --user root --path /admin/SchoolManagement --out /tmp/shots/schools.png [--password Demo@2026] [--wait 1500]
 *   [--login /account/StudentLogin]  (the login page, when the user name does not tell it)
 *   [--tz America/New_York]  (the browser's time zone; default Asia/Shanghai)
 *   [--width 390 --height 844]  (the viewport, e.g. a phone's; default 1366 × 900) [--full]
 */
import { parseArgs } from "node:util";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { chromium } from "playwright-core";

const { values } = parseArgs({
  options: {
    base: { type: "string", default: "http://localhost:8080" },
    user: { type: "string" },
    password: { type: "string", default: "Demo@2026" },
    path: { type: "string", default: "/" },
    out: { type: "string", default: "/tmp/shots/shot.png" },
    wait: { type: "string", default: "1200" },
    full: { type: "boolean", default: false },
    login: { type: "string" },
    tz: { type: "string" },
    width: { type: "string", default: "1366" },
    height: { type: "string", default: "900" },
  },
});

const LOGIN: Record<string, string> = { student: "/account/StudentLogin", teacher: "/account/TeacherLogin" };

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await (await browser.newContext({ locale: "zh-CN", timezoneId: values.tz ?? "Asia/Shanghai", viewport: { width: Number(values.width), height: Number(values.height) } })).newPage();
page.on("pageerror", (e) => console.error(`[page error] ${e.message}`));
page.on("console", (m) => m.type() === "error" && console.error(`[console] ${m.text()}`));
if (values.user) {
  const loginPath = values.login ?? LOGIN[values.user] ?? (values.user.startsWith("s") && /^s\d/.test(values.user) ? "/account/StudentLogin" : "/account/Login");
  await page.goto(values.base + loginPath);
  await page.getByPlaceholder("用户名或邮箱").fill(values.user);
  await page.getByPlaceholder("密码").fill(values.password!);
  await page.getByRole("button", { name: /登\s*录/ }).click();
  await page.getByTestId("user-center").waitFor({ timeout: 15000 });
}
await page.goto(values.base + values.path);
await page.waitForTimeout(Number(values.wait));
mkdirSync(dirname(values.out!), { recursive: true });
await page.screenshot({ path: values.out!, fullPage: values.full });
console.log(values.out);
await browser.close();
