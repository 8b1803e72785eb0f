/** A print page's frame: the 打印 button (not printed) above one A4 sheet headed by the title, the contest, the work id and the time printed. */
import type { CSSProperties, ReactNode } from "react";
import { Button } from "antd";
import { PrinterOutlined } from "@ant-design/icons";
import { fmtTime } from "../format";
import "./print.css";

export function PrintShell({
  children,
  testId,
  workId,
  title,
  contestName,
  printedAt,
}: {
  children: ReactNode;
  testId: string;
  workId: number;
  title: string;
  contestName: string;
  printedAt: string;
}) {
  return (
    <div className="print-screen">
      <div className="print-toolbar no-print">
        <Button href={`/workDetail/${workId}`}>查看作品</Button>
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="print-button">
          打印
        </Button>
      </div>
      <div className="print-sheet" data-testid={testId}>
        <h1>{title}</h1>
        <div className="print-sub">{contestName}</div>
        <div className="print-meta">
          <span>作品编号：{workId}</span>
          <span>打印时间：{fmtTime(printedAt)}</span>
        </div>
        {children}
      </div>
    </div>
  );
}

/** "　　年　　月　　日" for a date to write by hand. */
export const DateLine = () => <div className="print-date">年 月 日</div>;

/** The signature area: a line per author, per teacher (one when there is none), and the school's seal, each with a date. */
export function SignatureBlock({
  authors,
  teachers,
  authorLabel,
  style,
}: {
  authors: number;
  teachers: number;
  authorLabel: string;
  style?: CSSProperties;
}) {
  return (
    <div className="print-sign" style={style}>
      <div>
        <strong>{authorLabel}</strong>
        <div className="print-names">
          {Array.from({ length: authors }, (_, i) => (
            <span key={i} />
          ))}
        </div>
        <DateLine />
      </div>
      <div>
        <strong>指导教师签名：</strong>
        <div className="print-names">
          {Array.from({ length: Math.max(1, teachers) }, (_, i) => (
            <span key={i} />
          ))}
        </div>
        <DateLine />
      </div>
      <div>
        <strong>学校盖章：</strong>
        <div />
        <DateLine />
      </div>
    </div>
  );
}
