/** A print page's frame: the 打印 button (not printed) above one A4 sheet. */
import type { ReactNode } from "react";
import { Button } from "antd";
import { PrinterOutlined } from "@ant-design/icons";
import "./print.css";

export function PrintShell({ children, testId, workId }: { children: ReactNode; testId: string; workId: number }) {
  return (
    <div className="print-screen">
      <div className="print-toolbar no-print">
        <Button href={`/workDetail/${workId}`}>查看作品</Button>
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="print-button">打印</Button>
      </div>
      <div className="print-sheet" data-testid={testId}>{children}</div>
    </div>
  );
}

/** "　　年　　月　　日" for a date to write by hand. */
export const DateLine = () => <div className="print-date">年 月 日</div>;
