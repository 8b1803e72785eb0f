/**
 * The browser print of a batch (POST /Backend/Certificate/print/browser's answer): every
 * sheet through CertificateSheet with its award kind's template, over the whole window on
 * screen (reprints tagged 补打, the skipped ones counted) and one certificate per A4 page on
 * paper (`@page` margin 0 in the sheet's orientation; the rest of the app is not printed).
 * Once the images and fonts are ready it opens the browser's print dialog. Nothing is recorded
 * until the user confirms 「已打印？」 after the dialog closes (use-print-confirm.ts).
 */
import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { Alert, Button, Space, Tag, Typography } from "antd";
import { CheckOutlined, CloseOutlined, PrinterOutlined } from "@ant-design/icons";
import { defaultLayout, type TemplateLayout } from "../../shared/certificate/layout";
import type { BrowserPrint, PrintSheet } from "../../shared/certificate/print-schema";
import { backgroundUrl } from "./print-api";
import { CertificateSheet } from "./CertificateSheet";
import { usePrintConfirm } from "./use-print-confirm";

/** The page rules while the view is open (not global: the other print pages keep theirs). */
export const pageRules = (first: "landscape" | "portrait") =>
  `@page { size: A4 ${first}; margin: 0; } @page cert-landscape { size: A4 landscape; margin: 0; } @page cert-portrait { size: A4 portrait; margin: 0; }`;

export function PrintView({ data, onClose, autoPrint = true }: { data: BrowserPrint; onClose: () => void; autoPrint?: boolean }) {
  const root = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const layouts = new Map<string, TemplateLayout>();
  for (const t of data.templates) {
    const layout = { orientation: t.orientation, backgroundSha256: t.backgroundSha256, fields: t.fields };
    layouts.set(`${t.contestId}:${t.awardKind}`, layout);
    if (!layouts.has(t.awardKind)) layouts.set(t.awardKind, layout);
  }
  // A sheet's template: its contest's for its award kind (root may print several contests at once).
  const layoutOf = (s: PrintSheet) =>
    layouts.get(`${s.contestId}:${s.awardKind}`) ?? layouts.get(s.awardKind) ?? defaultLayout(s.awardKind);
  const reprints = data.sheets.filter((s) => s.reprint).length;
  const first = data.sheets.length ? layoutOf(data.sheets[0]).orientation : "landscape";
  const printed = usePrintConfirm(data);

  useEffect(() => {
    document.body.classList.add("certificate-printing");
    return () => document.body.classList.remove("certificate-printing");
  }, []);

  useEffect(() => {
    let live = true;
    const images = Array.from(root.current?.querySelectorAll("img") ?? []);
    void Promise.all([...images.map((img) => img.decode().catch(() => undefined)), document.fonts?.ready]).then(() => {
      if (!live) return;
      setReady(true);
      if (autoPrint && data.sheets.length) window.print();
    });
    return () => {
      live = false;
    };
  }, [data, autoPrint]);

  return createPortal(
    <div className="certificate-print-root" ref={root} data-testid="cert-print-view" data-ready={ready ? "1" : "0"}>
      <style>{pageRules(first)}</style>
      <div className="certificate-print-toolbar no-print">
        <Typography.Text strong>浏览器打印</Typography.Text>
        <Typography.Text data-testid="cert-print-summary">
          共 {data.sheets.length} 张证书{reprints ? `，其中 ${reprints} 张为补打` : ""}
        </Typography.Text>
        {data.sheets.length > 0 && (
          <Tag color={printed.logged ? "green" : "default"} data-testid="cert-print-logged">
            {printed.logged ? `已记录打印 ${printed.logged} 次` : "尚未记录打印"}
          </Tag>
        )}
        {data.skipped > 0 && (
          <Alert
            type="warning"
            showIcon
            style={{ padding: "2px 8px" }}
            message={`已跳过 ${data.skipped} 张已撤销或已被替换的证书`}
            data-testid="cert-print-skipped"
          />
        )}
        <span className="grow" />
        <Typography.Text type="secondary">打印时请选择 A4 纸、边距“无”、缩放 100%，并勾选“背景图形”。</Typography.Text>
        <Space>
          <Button
            type="primary"
            icon={<PrinterOutlined />}
            disabled={!ready || !data.sheets.length}
            onClick={() => window.print()}
            data-testid="cert-print-again"
          >
            打印
          </Button>
          <Button
            icon={<CheckOutlined />}
            disabled={!ready || !data.sheets.length}
            onClick={printed.ask}
            data-testid="cert-print-confirm"
          >
            记录为已打印
          </Button>
          <Button icon={<CloseOutlined />} onClick={onClose} data-testid="cert-print-close">
            关闭
          </Button>
        </Space>
      </div>
      {data.sheets.length ? (
        <div className="certificate-pages">
          {data.sheets.map((s, i) => {
            const layout = layoutOf(s);
            return (
              <div
                key={s.certificateId}
                className={`certificate-page certificate-page-${layout.orientation}`}
                data-testid="cert-print-page"
              >
                <div className="certificate-page-label no-print">
                  <span>
                    {i + 1} / {data.sheets.length}
                  </span>
                  <span>{s.facts.number}</span>
                  <span>{s.facts.holderName}</span>
                  {s.reprint && (
                    <Tag color="orange" data-testid="cert-reprint-tag">
                      补打
                    </Tag>
                  )}
                </div>
                <CertificateSheet
                  layout={layout}
                  facts={s.facts}
                  qr={s.qr}
                  backgroundUrl={layout.backgroundSha256 ? backgroundUrl(layout.backgroundSha256) : null}
                />
              </div>
            );
          })}
        </div>
      ) : (
        <Alert style={{ margin: 24 }} type="info" showIcon message="没有可打印的证书（已撤销或已被替换的证书不打印）。" />
      )}
    </div>,
    document.body,
  );
}
