// @vitest-environment jsdom
/**
 * The certificate sheet the print view and the template preview share: every field at its
 * template position in millimetres (font sizes in points), the texts of fieldText, the QR code
 * as the server's path on its module grid, the background over the page; the print view with
 * one sheet per certificate, 补打 tags and the page rules; the editor's drag and orientation maths;
 * the print page's address parameters.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { act, cleanup, render, screen } from "@testing-library/react";
import {
  SAMPLE_FACTS,
  checkLayout,
  defaultLayout,
  type PrintFacts,
  type TemplateLayout,
} from "../../src/shared/certificate/layout";
import type { BrowserPrint, PrintSheet } from "../../src/shared/certificate/print-schema";
import { CertificateSheet, PLACEHOLDER_QR } from "../../src/client/certificate/CertificateSheet";
import { PrintView, pageRules } from "../../src/client/certificate/PrintView";
import { PX_PER_MM, dragToMm } from "../../src/client/certificate/ScaledPreview";
import { reorient } from "../../src/client/certificate/TemplateTab";
import { parseCertParams, useCertParams } from "../../src/client/certificate/use-cert-params";
import { RouterProvider, createMemoryRouter } from "react-router";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { App } from "antd";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const field = (c: HTMLElement, key: string) => c.querySelector<HTMLElement>(`[data-field="${key}"]`)!;

describe("CertificateSheet", () => {
  test("a field at x=20 mm, y=35.5 mm, 120 mm wide, 18 pt renders exactly there", () => {
    const layout: TemplateLayout = {
      orientation: "landscape",
      backgroundSha256: null,
      fields: [
        { key: "holderName", x: 20, y: 35.5, width: 120, fontSize: 18, align: "right", bold: true, color: "#a8071a" },
        { key: "number", x: 0, y: 200, width: 80, fontSize: 9, align: "left" },
      ],
    };
    const { container } = render(<CertificateSheet layout={layout} facts={SAMPLE_FACTS} testId="sheet" />);
    const sheet = screen.getByTestId("sheet");
    expect(sheet.style.width).toBe("297mm");
    expect(sheet.style.height).toBe("210mm");
    expect(sheet.className).toContain("certificate-sheet");
    const name = field(container, "holderName");
    expect(name.style.position === "" || name.style.position === "absolute").toBe(true);
    expect(name.style.left).toBe("20mm");
    expect(name.style.top).toBe("35.5mm");
    expect(name.style.width).toBe("120mm");
    expect(name.style.fontSize).toBe("18pt");
    expect(name.style.textAlign).toBe("right");
    expect(name.style.fontWeight).toBe("700");
    expect(name.style.color).toBe("rgb(168, 7, 26)");
    expect(name.textContent).toBe("欧阳䶮𠮷");
    const num = field(container, "number");
    expect([num.style.left, num.style.top, num.style.fontSize, num.style.fontWeight]).toEqual(["0mm", "200mm", "9pt", "400"]);
    expect(num.textContent).toBe("证书编号：2026-ZJ-1-000123");
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("svg")).toBeNull();
  });

  test("the default work template: every field where the layout puts it, with fieldText's texts", () => {
    const layout = defaultLayout("work", "landscape");
    const { container } = render(<CertificateSheet layout={layout} facts={SAMPLE_FACTS} />);
    const boxes = Array.from(container.querySelectorAll<HTMLElement>("[data-field]"));
    expect(boxes.map((b) => b.dataset.field)).toEqual(layout.fields.map((f) => f.key));
    layout.fields.forEach((f, i) => {
      expect(boxes[i].style.left).toBe(`${f.x}mm`);
      expect(boxes[i].style.top).toBe(`${f.y}mm`);
    });
    const texts = boxes.map((b) => b.textContent);
    expect(texts).toContain("荣誉证书");
    expect(texts).toContain("浙江大学 欧阳䶮𠮷 同学的作品");
    expect(texts).toContain("《基于深度学习的古籍文字识别系统》");
    expect(texts).toContain("2026 年 7 月 20 日");
    expect(texts).toContain("一等奖");
  });

  test("the QR code is the server's path on its module grid at the field's place and size; a background covers the page", () => {
    const layout: TemplateLayout = {
      orientation: "portrait",
      backgroundSha256: "a".repeat(64),
      fields: [
        { key: "qr", x: 25, y: 250, size: 26 },
        { key: "holderName", x: 10, y: 10, width: 100, fontSize: 20, align: "center" },
      ],
    };
    const qr = { size: 33, path: "M4 4h7v7h-7z" };
    const { container } = render(
      <CertificateSheet layout={layout} facts={SAMPLE_FACTS} qr={qr} backgroundUrl="/bg.png" testId="sheet" />,
    );
    expect(screen.getByTestId("sheet").style.width).toBe("210mm");
    expect(screen.getByTestId("sheet").style.height).toBe("297mm");
    const svg = container.querySelector<SVGSVGElement>("svg.certificate-qr")!;
    expect(svg.getAttribute("viewBox")).toBe("0 0 33 33");
    expect([svg.style.left, svg.style.top, svg.style.width, svg.style.height]).toEqual(["25mm", "250mm", "26mm", "26mm"]);
    expect(svg.querySelector("path")!.getAttribute("d")).toBe("M4 4h7v7h-7z");
    const img = container.querySelector<HTMLImageElement>("img.certificate-bg")!;
    expect(img.getAttribute("src")).toBe("/bg.png");
    expect([img.style.width, img.style.height]).toEqual(["210mm", "297mm"]);
  });

  test("a fact the certificate lacks prints nothing; the editor shows the field's name in its place", () => {
    const teacher: PrintFacts = { ...SAMPLE_FACTS, workTitle: null, categoryName: null };
    const layout: TemplateLayout = {
      orientation: "landscape",
      backgroundSha256: null,
      fields: [
        { key: "workTitle", x: 30, y: 40, width: 100, fontSize: 12, align: "center" },
        { key: "qr", x: 10, y: 10, size: 20 },
      ],
    };
    const { container, rerender } = render(<CertificateSheet layout={layout} facts={teacher} />);
    expect(field(container, "workTitle")).toBeNull();
    rerender(
      <CertificateSheet
        layout={layout}
        facts={teacher}
        editing={{ selected: 0, problems: new Set([1]), onPointerDown: () => {} }}
      />,
    );
    const box = field(container, "workTitle");
    expect(box.textContent).toBe("（作品名称）");
    expect(box.className).toContain("selected");
    expect(container.querySelector("svg")!.getAttribute("class")).toContain("has-problem");
    expect(container.querySelector("svg path")!.getAttribute("d")).toBe(PLACEHOLDER_QR.path);
  });
});

const sheet = (id: number, name: string, reprint: boolean, awardKind: PrintSheet["awardKind"] = "work"): PrintSheet => ({
  certificateId: id,
  contestId: 1,
  awardKind,
  facts: { ...SAMPLE_FACTS, number: `2026-ZJ-1-00000${id}`, holderName: name },
  verifyUrl: `http://x/verify-cert?number=2026-ZJ-1-00000${id}&code=k1.abc`,
  qr: { size: 25, path: `M0 0h${id}v1h-${id}z` },
  reprint,
});

describe("print view", () => {
  test("one sheet per certificate with its template, 补打 on reprints, the skipped counted, A4 pages without margins, then print", async () => {
    const print = vi.spyOn(window, "print").mockImplementation(() => {});
    const portrait = defaultLayout("teacher", "portrait");
    const data: BrowserPrint = {
      sheets: [sheet(1, "张三", false), sheet(2, "李四", true), sheet(3, "王老师", false, "teacher")],
      templates: [
        { contestId: 1, awardKind: "work", ...defaultLayout("work"), isDefault: true, updatedAt: null, updatedBy: null },
        {
          contestId: 1,
          awardKind: "teacher",
          ...portrait,
          isDefault: false,
          updatedAt: "2026-07-01T00:00:00Z",
          updatedBy: "root",
        },
      ],
      skipped: 2,
    };
    // The view asks 「已打印？」 after the browser's print (App's modal) and refreshes the lists (react-query).
    render(
      <QueryClientProvider client={new QueryClient()}>
        <App>
          <PrintView data={data} onClose={() => {}} />
        </App>
      </QueryClientProvider>,
    );
    await act(async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
    });
    const sheets = document.querySelectorAll<HTMLElement>(".certificate-sheet");
    expect(sheets.length).toBe(3);
    expect(Array.from(sheets).map((s) => s.dataset.number)).toEqual(["2026-ZJ-1-000001", "2026-ZJ-1-000002", "2026-ZJ-1-000003"]);
    expect(sheets[0].style.width).toBe("297mm");
    expect(sheets[2].style.width).toBe("210mm");
    expect(sheets[2].style.height).toBe("297mm");
    expect(sheets[1].querySelector('[data-field="holderName"]')).toBeNull(); // the work template names the holder in its body text
    expect(sheets[1].textContent).toContain("浙江大学 李四 同学的作品");
    expect(sheets[1].querySelector("svg path")!.getAttribute("d")).toBe("M0 0h2v1h-2z");
    expect(screen.getAllByTestId("cert-reprint-tag").length).toBe(1);
    expect(screen.getAllByTestId("cert-print-page")[1].textContent).toContain("补打");
    expect(screen.getByTestId("cert-print-summary").textContent).toBe("共 3 张证书，其中 1 张为补打");
    expect(screen.getByTestId("cert-print-skipped").textContent).toContain("已跳过 2 张");
    expect(document.querySelectorAll(".certificate-page-portrait").length).toBe(1);
    const style = document.querySelector(".certificate-print-root style")!.textContent!;
    expect(style).toBe(pageRules("landscape"));
    expect(style).toContain("@page { size: A4 landscape; margin: 0; }");
    expect(document.body.classList.contains("certificate-printing")).toBe(true);
    expect(print).toHaveBeenCalledTimes(1);
    cleanup();
    expect(document.body.classList.contains("certificate-printing")).toBe(false);
  });
});

describe("template editor maths", () => {
  test("a drag of 10 mm on a half-size preview moves the field 10 mm, in 0.5 mm steps", () => {
    expect(dragToMm({ x: 20, y: 30 }, 10 * PX_PER_MM * 0.5, -4 * PX_PER_MM * 0.5, 0.5)).toEqual({ x: 30, y: 26 });
    expect(dragToMm({ x: 20, y: 30 }, 0.2 * PX_PER_MM, 0.3 * PX_PER_MM, 1)).toEqual({ x: 20, y: 30.5 });
  });

  test("turning the page: the built-in layout becomes the other built-in one, a custom one is scaled onto the page", () => {
    expect(reorient("work", defaultLayout("work", "landscape"), "portrait")).toEqual(defaultLayout("work", "portrait"));
    const custom: TemplateLayout = {
      ...defaultLayout("school"),
      fields: defaultLayout("school").fields.map((f) => ({ ...f, x: f.x + 5 })),
    };
    const turned = reorient("school", custom, "portrait");
    expect(turned.orientation).toBe("portrait");
    expect(checkLayout(turned)).toEqual([]);
    expect(checkLayout({ ...custom, orientation: "portrait" }).length).toBeGreaterThan(0);
  });
});

describe("print page address", () => {
  test("the contest admin's page lists students by default; holderKind=all lists every holder", () => {
    expect(parseCertParams(new URLSearchParams(""), "contest").filters).toEqual({ holderKind: "author" });
    expect(parseCertParams(new URLSearchParams("holderKind=all"), "contest").filters).toEqual({});
    expect(parseCertParams(new URLSearchParams(""), "root").filters).toEqual({});
    const p = parseCertParams(
      new URLSearchParams(
        "contestId=3&tab=template&groupId=5&status=valid&unprinted=1&keyword=%20张%20&current=2&pageSize=50&schoolId=x",
      ),
      "root",
    );
    expect(p).toEqual({
      contestId: 3,
      tab: "template",
      filters: { groupId: 5, status: "valid", unprinted: true, keyword: "张" },
      current: 2,
      pageSize: 50,
    });
  });

  test("the page's first pick of a contest keeps the filters of the address; the user's choice of another starts afresh", async () => {
    let api: ReturnType<typeof useCertParams> | null = null;
    const Probe = () => {
      api = useCertParams("contest");
      return null;
    };
    const router = createMemoryRouter([{ path: "*", element: <Probe /> }], {
      initialEntries: ["/p?holderKind=teacher&keyword=%E5%BC%A0"],
    });
    render(<RouterProvider router={router} />);
    await act(async () => api!.setContest(2, true));
    expect(new URLSearchParams(router.state.location.search).toString()).toBe("contestId=2&keyword=%E5%BC%A0&holderKind=teacher");
    await act(async () => api!.setContest(3));
    expect(router.state.location.search).toBe("?contestId=3");
    expect(api!.filters).toEqual({ holderKind: "author" });
  });
});
