/**
 * Recording a browser print only when it happened (PrintView.tsx). Opening the print view or the
 * browser's print preview records nothing. When the print dialog closes the browser fires
 * `afterprint` — but Chrome fires it also when the preview is cancelled, and no browser tells a
 * page whether paper came out — so `afterprint` only asks 「已打印？」: 是 logs the print (POST
 * …/print/browser/confirm; a certificate printed before is logged as 补打), 否 leaves no record.
 * The toolbar's 记录为已打印 asks the same (a browser without `afterprint`, a dialog dismissed).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { App, type ButtonProps } from "antd";
import type { BrowserPrint } from "../../shared/certificate/print-schema";
import { certApi, useCertRefresh } from "./print-api";

/** Above the print view (z-index 1100 in certificate.css). */
const OVER_PRINT_VIEW = 1200;

export function usePrintConfirm(data: BrowserPrint) {
  const { modal, message } = App.useApp();
  const refresh = useCertRefresh();
  const asking = useRef(false);
  /** how many times this batch was recorded as printed in this view */
  const [logged, setLogged] = useState(0);
  const ids = data.sheets.map((s) => s.certificateId);

  const ask = useCallback(() => {
    if (asking.current || !ids.length) return;
    asking.current = true;
    modal.confirm({
      title: "已打印？",
      content: `证书是否已经打印出来？选「是」将这 ${ids.length} 张证书记入打印记录；如果在打印窗口中取消了打印，请选「否」，不留记录。`,
      okText: "是，已打印",
      cancelText: "否，未打印",
      zIndex: OVER_PRINT_VIEW,
      okButtonProps: { "data-testid": "cert-printed-yes" } as ButtonProps,
      cancelButtonProps: { "data-testid": "cert-printed-no" } as ButtonProps,
      onOk: async () => {
        const reply = await certApi.confirmBrowser({ ids });
        if (reply.error !== 0 || !reply.data) {
          message.error(reply.info || "记录打印失败");
          return;
        }
        message.success(reply.info);
        setLogged((n) => n + 1);
        refresh();
      },
      afterClose: () => {
        asking.current = false;
      },
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ids.join(","), modal, message]);

  useEffect(() => {
    window.addEventListener("afterprint", ask);
    return () => window.removeEventListener("afterprint", ask);
  }, [ask]);

  return { ask, logged };
}
