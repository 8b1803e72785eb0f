/**
 * Certificate printing in a real browser (demo data: the Zhejiang contest's published result
 * has certificates): the contest picker per role; root prints a batch through the browser
 * (the print view has one sheet per certificate at the template's positions in mm, prints as
 * one A4 page each, and the print is logged once confirmed as printed; printing again is a 补打); root generates a PDF
 * batch (progress, download), the downloaded PDF shows the holder's name in the picture
 * (pdftoppm) and its QR code (decoded from the picture) opens /verify-cert showing 有效, and
 * 已撤销 once the work is disqualified; a character no font has is refused with the server's
 * message; the contest admin edits a template (live preview, a field off the page refused, a
 * dragged field saved) and the browser print follows it.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { MM_PT, SAMPLE_FACTS, defaultLayout, type TextField } from "../../src/shared/certificate/layout";
import { adminContestIds } from "../../src/server/scope";
import { seedResultsDemo } from "../../src/server/seed/results-demo";
import { seedComplaintsDemo } from "../../src/server/seed/complaints-demo";
import { login, startE2E, zhejiangContestId, type E2E } from "./harness";

const PAGE = "/admin/PrintCertification";
const rows = (page: Page) => page.getByTestId("cert-list").locator("tr.ant-table-row");
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: "utf8" });

/** The page's picture at `dpi` (optionally a crop in pixels) as RGBA. */
function render(pdf: string, pageNo: number, dpi: number, crop?: { x: number; y: number; w: number; h: number }): PNG {
  const out = `${pdf}-p${pageNo}-${dpi}`;
  const cropArgs = crop ? ["-x", String(crop.x), "-y", String(crop.y), "-W", String(crop.w), "-H", String(crop.h)] : [];
  run("pdftoppm", ["-r", String(dpi), "-png", "-f", String(pageNo), "-l", String(pageNo), "-singlefile", ...cropArgs, pdf, out]);
  return PNG.sync.read(readFileSync(`${out}.png`));
}

/** Share of the pixels in a box (pixels) darker than mid grey. */
function darkShare(png: PNG, box: { x0: number; y0: number; x1: number; y1: number }): number {
  let dark = 0;
  let all = 0;
  for (let y = Math.floor(box.y0); y < Math.ceil(box.y1); y++) {
    for (let x = Math.floor(box.x0); x < Math.ceil(box.x1); x++) {
      const i = (png.width * y + x) * 4;
      all++;
      if (png.data[i] * 0.3 + png.data[i + 1] * 0.59 + png.data[i + 2] * 0.11 < 128) dark++;
    }
  }
  return dark / all;
}

/** The box (points) of `text` on a page from pdftotext's word boxes; a part of a longer word is cut out by character count. */
function textBox(pdf: string, pageNo: number, text: string): { x0: number; y0: number; x1: number; y1: number } {
  const html = run("pdftotext", ["-bbox", "-f", String(pageNo), "-l", String(pageNo), pdf, "-"]);
  for (const m of html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
    const word = [...m[5]];
    const at = m[5].indexOf(text);
    if (at < 0) continue;
    const [x0, y0, x1, y1] = m.slice(1, 5).map(Number);
    const start = [...m[5].slice(0, at)].length;
    const per = (x1 - x0) / word.length;
    return { x0: x0 + start * per, y0, x1: x0 + (start + [...text].length) * per, y1 };
  }
  throw new Error(`「${text}」不在第 ${pageNo} 页的文字中`);
}

/** The page of a multi-page PDF whose text contains `needle`. */
function pageWith(pdf: string, pages: number, needle: string): number {
  for (let p = 1; p <= pages; p++) if (run("pdftotext", ["-f", String(p), "-l", String(p), pdf, "-"]).includes(needle)) return p;
  throw new Error(`${needle} 不在 PDF 中`);
}

const pagesOf = (pdf: string) => Number(/Pages:\s+(\d+)/.exec(run("pdfinfo", [pdf]))![1]);

describe("certificate printing in a real browser", () => {
  let e: E2E;
  let zj: number;
  let dir: string;
  beforeAll(async () => {
    e = await startE2E();
    // The Zhejiang results computed and published (as `npm start` seeds them): its certificates are issued.
    expect(await seedResultsDemo(e.db)).toBe(true);
    expect(await seedComplaintsDemo(e.db, e.base)).toBe(true);
    zj = await zhejiangContestId(e.db);
    dir = mkdtempSync(join(tmpdir(), "saiwu-cert-e2e-"));
  });
  afterAll(async () => {
    await e?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Contests with certificates or a published result, limited to `ids` unless "all". */
  const printable = async (ids: number[] | "all") => {
    const withCerts = (await e.db.selectFrom("certificate").select("contest_id").distinct().execute()).map((r) =>
      Number(r.contest_id),
    );
    const published = (await e.db.selectFrom("result_publication").select("contest_id").execute()).map((r) =>
      Number(r.contest_id),
    );
    const all = new Set([...withCerts, ...published]);
    const keep = [...all].filter((id) => ids === "all" || ids.includes(id));
    return (
      await e.db
        .selectFrom("contest")
        .select("name")
        .where("id", "in", keep.length ? keep : [0])
        .execute()
    )
      .map((r) => r.name)
      .sort();
  };
  const pickerNames = async (page: Page) => {
    await page.getByTestId("cert-contest").click();
    const options = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option");
    await options.first().waitFor();
    const names = (await options.allTextContents()).map((t) => t.replace(/（[^（]*$/, "")).sort();
    await page.keyboard.press("Escape");
    return names;
  };

  it("the contest admin's picker lists only the contests they manage; root's every contest with certificates", async () => {
    const admin = await e.db.selectFrom("app_user").selectAll().where("username", "=", "contest_admin").executeTakeFirstOrThrow();
    const own = await printable(await adminContestIds(e.db, admin));
    const every = await printable("all");
    expect(own.length).toBeGreaterThan(0);
    expect(every.length).toBeGreaterThan(own.length); // the test means something only if root sees more

    const ca = await login(e, "contest_admin");
    await ca.goto(e.base + "/ContestAdmin/PrintAward");
    await rows(ca).first().waitFor();
    expect(await pickerNames(ca)).toEqual(own);
    // The contest admin's page lists students by default.
    expect(await ca.getByTestId("cert-holder-kind").textContent()).toContain("学生");
    await ca.context().close();

    const root = await login(e, "root");
    await root.goto(e.base + PAGE);
    await rows(root).first().waitFor();
    expect(await pickerNames(root)).toEqual(every);
    await root.context().close();
  });

  it("root prints three certificates through the browser: one sheet each at the template's positions, one A4 page each, logged; again is a 补打", async () => {
    const page = await login(e, "root");
    await page.addInitScript(() => {
      (window as unknown as { __printed: number }).__printed = 0;
      window.print = () => void (window as unknown as { __printed: number }).__printed++;
    });
    await page.goto(`${e.base}${PAGE}?contestId=${zj}&holderKind=author`);
    await rows(page).first().waitFor();
    const picked: { number: string; name: string }[] = [];
    for (const i of [0, 1, 2]) {
      const row = rows(page).nth(i);
      await row.locator(".ant-checkbox-input").check();
      picked.push({
        number: (await row.getByTestId("cert-number").textContent())!,
        name: (await row.getByTestId("cert-holder").textContent())!,
      });
    }
    await expect.poll(() => page.getByTestId("cert-selected").textContent()).toContain("已选择 3 张");
    await page.getByTestId("cert-print-browser").click();

    const view = page.getByTestId("cert-print-view");
    await view.and(page.locator('[data-ready="1"]')).waitFor();
    const sheets = view.locator(".certificate-sheet");
    expect(await sheets.count()).toBe(3);
    expect(await sheets.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.number))).toEqual(
      picked.map((p) => p.number),
    );
    // Every field where the (built-in) work template puts it, in millimetres.
    const layout = defaultLayout("work", "landscape");
    for (let i = 0; i < 3; i++) {
      const sheet = sheets.nth(i);
      expect(await sheet.evaluate((el) => [(el as HTMLElement).style.width, (el as HTMLElement).style.height])).toEqual([
        "297mm",
        "210mm",
      ]);
      const placed = await sheet
        .locator("[data-field]")
        .evaluateAll((els) =>
          els.map((el) => [el.getAttribute("data-field"), (el as HTMLElement).style.left, (el as HTMLElement).style.top]),
        );
      expect(placed).toEqual(layout.fields.map((f) => [f.key, `${f.x}mm`, `${f.y}mm`]));
      expect(await sheet.textContent()).toContain(`${picked[i].name} 同学的作品`);
      expect(await sheet.locator("svg.certificate-qr path").getAttribute("d")).toMatch(/^M\d/);
    }
    expect(await view.getByTestId("cert-reprint-tag").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __printed: number }).__printed)).toBe(1);

    // On paper: exactly one A4 landscape page per certificate, nothing of the app.
    await page.emulateMedia({ media: "print" });
    const printed = join(dir, "browser.pdf");
    await page.pdf({ path: printed, preferCSSPageSize: true, printBackground: true });
    await page.emulateMedia({ media: "screen" });
    expect(pagesOf(printed)).toBe(3);
    expect(run("pdfinfo", [printed])).toMatch(/Page size:\s+841\.\d+ x 59[45]\.\d+ pts \(A4\)/);
    const text = run("pdftotext", [printed, "-"]);
    for (const p of picked) expect(text).toContain(p.number);
    expect(text).not.toContain("浏览器打印");
    expect(text).not.toContain("系统管理");

    // Not logged until confirmed (the preview may be closed unprinted); 记录为已打印 → 是 logs it.
    expect(await view.getByTestId("cert-print-logged").textContent()).toBe("尚未记录打印");
    // page.pdf() prints as the browser does, so the page may have heard afterprint and asked 「已打印？」
    // already; otherwise the toolbar's 记录为已打印 asks.
    const yes = page.getByTestId("cert-printed-yes");
    await yes.waitFor({ timeout: 3000 }).catch(() => undefined);
    if (!(await yes.isVisible())) await view.getByTestId("cert-print-confirm").click();
    await yes.click();
    await expect.poll(() => view.getByTestId("cert-print-logged").textContent()).toBe("已记录打印 1 次");
    // Logged: the list shows the prints, the drawer the log.
    await view.getByTestId("cert-print-close").click();
    await expect.poll(() => rows(page).nth(0).getByTestId("cert-printed").textContent()).toContain("已打印 1 次");
    await rows(page).nth(0).getByTestId("cert-number").click();
    const log = page.getByTestId("cert-print-log");
    await expect.poll(() => log.locator("tr.ant-table-row").first().textContent()).toContain("浏览器打印");
    expect(await log.locator("tr.ant-table-row").first().textContent()).toContain("首次");
    await page.locator(".ant-drawer-close").click();

    // Printing the first one again: confirmed as 补打, tagged in the view.
    await rows(page).nth(0).locator(".ant-checkbox-input").check();
    await page.getByTestId("cert-print-browser").click();
    await page.getByRole("dialog").getByText("本次打印将记为补打").waitFor();
    await page.getByRole("button", { name: "继续打印" }).click();
    await view.and(page.locator('[data-ready="1"]')).waitFor();
    expect(await view.locator(".certificate-sheet").count()).toBe(1);
    expect(await view.getByTestId("cert-reprint-tag").count()).toBe(1);
    expect(await view.getByTestId("cert-print-summary").textContent()).toBe("共 1 张证书，其中 1 张为补打");
    await view.getByTestId("cert-print-close").click();

    // 选择全部符合条件: every valid student certificate of the contest, not only the page's ten.
    const valid = Number(
      (
        await e.db
          .selectFrom("certificate")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("contest_id", "=", zj)
          .where("holder_kind", "=", "author")
          .where("status", "=", "valid")
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(valid).toBeGreaterThan(10);
    await page.goto(`${e.base}${PAGE}?contestId=${zj}&holderKind=author&pageSize=10`);
    await rows(page).first().waitFor();
    await page.getByTestId("cert-list").locator("thead .ant-checkbox-input").check();
    await page.getByTestId("cert-select-all").click();
    await expect.poll(() => page.getByTestId("cert-selected").textContent()).toContain(`已选择全部符合条件的 ${valid} 张`);
    await page.getByTestId("cert-print-browser").click();
    await view.and(page.locator('[data-ready="1"]')).waitFor();
    expect(await view.locator(".certificate-sheet").count()).toBe(valid);
    expect(await view.getByTestId("cert-reprint-tag").count()).toBe(3);
    await view.getByTestId("cert-print-close").click();
    await page.context().close();
  });

  it("root generates a PDF batch and downloads it: the name is in the picture, the QR code verifies as 有效, and as 已撤销 after disqualification", async () => {
    const page = await login(e, "root");
    await page.goto(`${e.base}${PAGE}?contestId=${zj}&holderKind=author`);
    await rows(page).first().waitFor();
    const a = rows(page).nth(0);
    const number = (await a.getByTestId("cert-number").textContent())!;
    const name = (await a.getByTestId("cert-holder").textContent())!;
    const other = (await rows(page).nth(1).getByTestId("cert-number").textContent())!;
    await a.locator(".ant-checkbox-input").check();
    await rows(page).nth(1).locator(".ant-checkbox-input").check();

    await page.getByTestId("cert-print-pdf").click();
    const dialog = page.getByTestId("cert-pdf-dialog");
    await dialog.waitFor();
    const download = page.waitForEvent("download");
    await page.getByTestId("cert-pdf-download").click();
    const file = join(dir, "batch.pdf");
    await (await download).saveAs(file);
    expect(readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");
    const pages = pagesOf(file);
    expect(pages).toBe(2);
    const p = pageWith(file, pages, number);
    expect(run("pdftotext", ["-f", String(p), "-l", String(p), file, "-"])).toContain(name);
    expect(p).not.toBe(pageWith(file, pages, other));

    // The name drawn: the picture at 100 dpi is inked where the text layer puts the name,
    // inside the body field of the template, and blank in the same box above the title.
    const px = 100 / 72;
    const png = render(file, p, 100);
    const box = textBox(file, p, name);
    const body = defaultLayout("work").fields[1] as TextField;
    expect(box.y0).toBeGreaterThanOrEqual(body.y * MM_PT - 4);
    expect(box.y1).toBeLessThanOrEqual((body.y + body.fontSize * (25.4 / 72) * 1.25) * MM_PT + 4);
    const inPx = { x0: box.x0 * px, y0: box.y0 * px, x1: box.x1 * px, y1: box.y1 * px };
    expect(darkShare(png, inPx)).toBeGreaterThan(0.08);
    const emptyAbove = { ...inPx, y0: 5 * MM_PT * px, y1: 5 * MM_PT * px + (inPx.y1 - inPx.y0) };
    expect(darkShare(png, emptyAbove)).toBe(0);

    // The QR code, decoded from a 300 dpi picture of its corner of the page.
    const qr = defaultLayout("work").fields.find((f) => f.key === "qr")!;
    const dpmm = 300 / 25.4;
    const margin = 6;
    const crop = {
      x: Math.round((qr.x - margin) * dpmm),
      y: Math.round((qr.y - margin) * dpmm),
      w: Math.round((26 + 2 * margin) * dpmm),
      h: Math.round((26 + 2 * margin) * dpmm),
    };
    const pic = render(file, p, 300, crop);
    const decoded = jsQR(new Uint8ClampedArray(pic.data), pic.width, pic.height);
    expect(decoded?.data).toBeTruthy();
    const url = new URL(decoded!.data);
    expect(url.origin).toBe(e.base);
    expect(url.pathname).toBe("/verify-cert");
    expect(url.searchParams.get("number")).toBe(number);
    const code = url.searchParams.get("code")!;
    expect(code).toMatch(/\./);

    // A visitor scanning the code: /verify-cert shows 有效.
    const visitor = await e.newPage();
    await visitor.goto(decoded!.data);
    const status = visitor.getByTestId("cert-status");
    await expect.poll(() => status.textContent()).toBe("有效");
    expect(await visitor.getByTestId("cert-facts").textContent()).toContain(name);

    // Disqualify the work (as the other tests do, through the API), then the code is 已撤销.
    const workId = Number(
      (await e.db.selectFrom("certificate").select("work_id").where("number", "=", number).executeTakeFirstOrThrow()).work_id,
    );
    const dq = await page.evaluate(async (id) => {
      const r = await fetch(`/Backend/Admin/work/${id}/disqualify`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ reason: "抄袭属实" }),
      });
      return (await r.json()) as { error: number; info: string };
    }, workId);
    expect(dq.error).toBe(0);
    await visitor.goto(decoded!.data);
    await expect.poll(() => status.textContent()).toBe("已撤销");
    await visitor.context().close();

    // The print list shows it revoked and no longer selectable.
    await page.goto(`${e.base}${PAGE}?contestId=${zj}&holderKind=author&keyword=${encodeURIComponent(number)}`);
    const row = rows(page).first();
    await expect.poll(() => row.getByTestId("cert-status").textContent()).toBe("已撤销");
    expect(await row.locator(".ant-checkbox-input").isDisabled()).toBe(true);
    await page.context().close();
  });

  it("the contest admin edits the work template: live preview, a field off the page blocks saving, a dragged field is saved and printed there", async () => {
    const page = await login(e, "contest_admin");
    await page.addInitScript(() => void (window.print = () => {}));
    await page.goto(`${e.base}/ContestAdmin/PrintAward?contestId=${zj}&tab=template`);
    const editor = page.getByTestId("cert-template-editor");
    const preview = page.getByTestId("cert-template-preview");
    await editor.waitFor();
    await expect
      .poll(() => preview.locator(".certificate-sheet").textContent())
      .toContain(`${SAMPLE_FACTS.schoolName} ${SAMPLE_FACTS.holderName} 同学的作品`);
    const award = preview.locator('.certificate-sheet [data-field="awardName"]');
    const layout = defaultLayout("work");
    const awardField = layout.fields.find((f) => f.key === "awardName")!;
    expect(await award.evaluate((el) => [(el as HTMLElement).style.left, (el as HTMLElement).style.top])).toEqual([
      `${awardField.x}mm`,
      `${awardField.y}mm`,
    ]);

    // A field off the page: the problem shows and 保存 is disabled; the preview follows the width.
    await editor.getByTestId("cert-field-list").getByText("奖项", { exact: true }).click();
    await page.getByTestId("cert-field-width").fill("400");
    await expect.poll(() => page.getByTestId("cert-template-problems").textContent()).toContain("「奖项」超出页面");
    expect(await page.getByTestId("cert-template-save").isDisabled()).toBe(true);
    await expect.poll(() => award.evaluate((el) => (el as HTMLElement).style.width)).toBe("400mm");
    await page.getByTestId("cert-field-width").fill(String((awardField as TextField).width));
    await expect.poll(() => page.getByTestId("cert-template-problems").count()).toBe(0);

    // Drag 奖项 20 mm right and 10 mm down on the scaled preview.
    const scale = Number(await preview.getAttribute("data-scale"));
    const mmPx = (96 / 25.4) * scale;
    const box = (await award.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 10 * mmPx, box.y + box.height / 2 + 5 * mmPx, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2 + 20 * mmPx, box.y + box.height / 2 + 10 * mmPx, { steps: 4 });
    await page.mouse.up();
    const moved = { x: awardField.x + 20, y: awardField.y + 10 };
    await expect
      .poll(() => award.evaluate((el) => [(el as HTMLElement).style.left, (el as HTMLElement).style.top]))
      .toEqual([`${moved.x}mm`, `${moved.y}mm`]);
    expect(await page.getByTestId("cert-field-x").inputValue()).toBe(moved.x.toFixed(1));

    // 预览 PDF opens the server's sample certificate.
    const popup = page.waitForEvent("popup");
    const answer = page.waitForResponse((r) => r.url().endsWith("/Backend/Certificate/templates/preview"));
    await page.getByTestId("cert-template-pdf").click();
    const res = await answer;
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("application/pdf");
    const pdfPage = await popup;
    await pdfPage.waitForURL(/^blob:/);
    await pdfPage.close();

    await page.getByTestId("cert-template-save").click();
    await expect.poll(() => editor.textContent()).toContain("已保存于");
    const saved = await e.db
      .selectFrom("certificate_template")
      .selectAll()
      .where("contest_id", "=", zj)
      .where("award_kind", "=", "work")
      .executeTakeFirstOrThrow();
    expect(
      (JSON.parse(saved.fields) as { key: string; x: number; y: number }[]).find((f) => f.key === "awardName"),
    ).toMatchObject(moved);

    // The browser print places 奖项 where it was dragged.
    await page.goto(`${e.base}/ContestAdmin/PrintAward?contestId=${zj}&status=valid`);
    await rows(page).first().waitFor();
    const first = rows(page).first();
    const printedBefore = !(await first.getByTestId("cert-printed").textContent())!.includes("未打印");
    await first.locator(".ant-checkbox-input").check();
    await page.getByTestId("cert-print-browser").click();
    if (printedBefore) await page.getByRole("button", { name: "继续打印" }).click();
    const view = page.getByTestId("cert-print-view");
    await view.and(page.locator('[data-ready="1"]')).waitFor();
    const printed = view.locator('.certificate-sheet [data-field="awardName"]');
    expect(await printed.evaluate((el) => [(el as HTMLElement).style.left, (el as HTMLElement).style.top])).toEqual([
      `${moved.x}mm`,
      `${moved.y}mm`,
    ]);
    await page.context().close();
  });

  it("a character no font has: the PDF dialog shows the server's Chinese message and nothing is generated", async () => {
    const cert = await e.db
      .selectFrom("certificate")
      .select(["id", "number", "holder_name"])
      .where("contest_id", "=", zj)
      .where("holder_kind", "=", "author")
      .where("status", "=", "valid")
      .orderBy("number", "desc")
      .executeTakeFirstOrThrow();
    // A private-use character (as a mistyped name could hold): no installed font draws it.
    await e.db
      .updateTable("certificate")
      .set({ holder_name: `${cert.holder_name}\u{E000}` })
      .where("id", "=", cert.id)
      .execute();
    const page = await login(e, "root");
    await page.goto(`${e.base}${PAGE}?contestId=${zj}&holderKind=author&keyword=${encodeURIComponent(cert.number)}`);
    await rows(page).first().waitFor();
    await rows(page).first().locator(".ant-checkbox-input").check();
    await page.getByTestId("cert-print-pdf").click();
    const error = page.getByTestId("cert-pdf-error");
    await expect.poll(() => error.textContent()).toContain(`证书 ${cert.number}`);
    expect(await error.textContent()).toContain("未生成任何证书");
    expect(await page.getByTestId("cert-pdf-download").count()).toBe(0);
    await e.db.updateTable("certificate").set({ holder_name: cert.holder_name }).where("id", "=", cert.id).execute();
    await page.context().close();
  });
});
