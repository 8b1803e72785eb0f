/** A certificate's facts and its print log (GET /Backend/Certificate/:id/prints): who printed it, when, how, and which were reprints. */
import { Alert, Descriptions, Drawer, Table, Tag } from "antd";
import {
  PRINT_MODE_NAMES,
  HOLDER_KIND_NAMES,
  type CertificateRow,
  type PrintLogRow,
} from "../../shared/certificate/print-schema";
import { fmtTime } from "../format";
import { usePrintLog } from "./print-api";
import { StatusTag } from "./parts";

export function PrintLogDrawer({ row, onClose }: { row: CertificateRow | null; onClose: () => void }) {
  const log = usePrintLog(row?.id);
  return (
    <Drawer
      open={!!row}
      width={720}
      onClose={onClose}
      title={row ? `证书 ${row.number}` : ""}
      destroyOnHidden
      data-testid="cert-log-drawer"
    >
      {row && (
        <>
          <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label="持证人">
              {row.holderName}（{HOLDER_KIND_NAMES[row.holderKind]}）
            </Descriptions.Item>
            <Descriptions.Item label="状态">
              <StatusTag row={row} />
            </Descriptions.Item>
            <Descriptions.Item label="学校">{row.schoolName}</Descriptions.Item>
            <Descriptions.Item label="奖项">{row.awardName}</Descriptions.Item>
            <Descriptions.Item label="作品" span={2}>
              {row.workTitle ? `《${row.workTitle}》${row.categoryName ? `（${row.categoryName}）` : ""}` : "—"}
            </Descriptions.Item>
            <Descriptions.Item label="版本">第 {row.version} 版</Descriptions.Item>
            <Descriptions.Item label="签发时间">{fmtTime(row.issuedAt)}</Descriptions.Item>
          </Descriptions>
          {log.isError && <Alert type="error" showIcon message={log.error.message} />}
          <Table<PrintLogRow>
            size="small"
            rowKey="id"
            loading={log.isFetching}
            dataSource={log.data ?? []}
            pagination={false}
            locale={{ emptyText: "尚未打印" }}
            data-testid="cert-print-log"
            columns={[
              { title: "时间", dataIndex: "printedAt", width: 150, render: (v: string) => fmtTime(v) },
              { title: "方式", dataIndex: "mode", width: 110, render: (m: PrintLogRow["mode"]) => PRINT_MODE_NAMES[m] ?? m },
              { title: "版本", dataIndex: "version", width: 70, render: (v: number) => `第 ${v} 版` },
              {
                title: "",
                dataIndex: "reprint",
                width: 70,
                render: (r: boolean) => (r ? <Tag color="orange">补打</Tag> : <Tag color="blue">首次</Tag>),
              },
              { title: "操作人", dataIndex: "userName" },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}
