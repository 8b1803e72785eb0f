/** The columns of the certificate list on the 证书打印 tab; the number and 打印记录 open the print log. */
import { Space, Tag, Typography } from "antd";
import type { TableColumnsType } from "antd";
import { HOLDER_KIND_NAMES, type CertificateRow } from "../../shared/certificate/print-schema";
import { fmtShortTime } from "../format";
import { StatusTag } from "./parts";

export function certColumns(setLogOf: (r: CertificateRow) => void): TableColumnsType<CertificateRow> {
  return [
    {
      title: "证书编号",
      width: 170,
      render: (_, r) => (
        <div>
          <Typography.Link onClick={() => setLogOf(r)} style={{ whiteSpace: "nowrap" }} data-testid="cert-number">
            {r.number}
          </Typography.Link>
          {r.version > 1 && (
            <div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                第 {r.version} 版
              </Typography.Text>
            </div>
          )}
        </div>
      ),
    },
    {
      title: "持证人",
      width: 130,
      render: (_, r) => (
        <Space size={4}>
          <span data-testid="cert-holder">{r.holderName}</span>
          {r.holderKind !== "author" && <Tag color="purple">{HOLDER_KIND_NAMES[r.holderKind]}</Tag>}
        </Space>
      ),
    },
    { title: "学校", dataIndex: "schoolName", width: 120 },
    {
      title: "作品",
      width: 190,
      render: (_, r) =>
        r.workTitle ? (
          <div>
            <div>《{r.workTitle}》</div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {[r.categoryName, r.groupName].filter(Boolean).join(" · ")}
            </Typography.Text>
          </div>
        ) : (
          "—"
        ),
    },
    {
      title: "奖项",
      dataIndex: "awardName",
      width: 90,
      render: (v: string) => <span style={{ whiteSpace: "nowrap" }}>{v}</span>,
    },
    { title: "状态", width: 70, render: (_, r) => <StatusTag row={r} /> },
    {
      title: "打印",
      width: 120,
      render: (_, r) =>
        r.printCount ? (
          <div data-testid="cert-printed">
            <div>已打印 {r.printCount} 次</div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {fmtShortTime(r.lastPrintedAt)}
            </Typography.Text>
          </div>
        ) : (
          <Typography.Text type="secondary" data-testid="cert-printed">
            未打印
          </Typography.Text>
        ),
    },
    { title: "", width: 80, render: (_, r) => <Typography.Link onClick={() => setLogOf(r)}>打印记录</Typography.Link> },
  ];
}
