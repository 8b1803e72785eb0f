/**
 * 获奖证书 on the authors' and teachers' works pages: the caller's own certificates (of
 * published results only — the server lists nothing before publication), with the status,
 * 下载 PDF while valid and 核验 opening /verify-cert from the certificate's QR address.
 * The section is absent when there are none; a work row's 「获奖证书」 opens that work's.
 */
import { useState } from "react";
import { Link } from "react-router";
import { Alert, Button, Card, Grid, List, Modal, Space, Table, Tag, Typography } from "antd";
import { DownloadOutlined, SafetyCertificateOutlined, TrophyOutlined } from "@ant-design/icons";
import type { MyCertificate } from "../../shared/certificate/print-schema";
import { HOLDER_KIND_NAMES } from "../../shared/certificate/print-schema";
import { CERT_STATUS_NAMES, REVOKE_REASON_NAMES } from "../../shared/certificate/schema";
import { fmtTime } from "../format";
import { useMyCertificates, verifyPath } from "./api";

const STATUS_COLOR = { valid: "green", revoked: "red", replaced: "orange" } as const;

const kindText = (c: MyCertificate) =>
  [c.version > 1 ? `第 ${c.version} 版` : "", c.holderKind === "author" ? "" : HOLDER_KIND_NAMES[c.holderKind]]
    .filter(Boolean)
    .join(" · ");

function StatusCell({ c }: { c: MyCertificate }) {
  return (
    <Space direction="vertical" size={0}>
      <Tag color={STATUS_COLOR[c.status]} data-testid="my-certificate-status">
        {CERT_STATUS_NAMES[c.status]}
      </Tag>
      {c.status === "revoked" && c.statusReason && (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          {REVOKE_REASON_NAMES[c.statusReason] ?? c.statusReason}
        </Typography.Text>
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        签发 {fmtTime(c.issuedAt)}
      </Typography.Text>
    </Space>
  );
}

function Actions({ c }: { c: MyCertificate }) {
  return (
    <Space size={0} wrap>
      {c.status === "valid" && c.pdfUrl && (
        <Button type="link" size="small" icon={<DownloadOutlined />} href={c.pdfUrl} download data-testid="my-certificate-pdf">
          下载 PDF
        </Button>
      )}
      <Link to={verifyPath(c.verifyUrl)} data-testid="my-certificate-verify">
        <Button type="link" size="small" icon={<SafetyCertificateOutlined />}>
          核验
        </Button>
      </Link>
    </Space>
  );
}

export function CertificateTable({ list, showWork = true }: { list: readonly MyCertificate[]; showWork?: boolean }) {
  // A phone gets one block per certificate instead of a table scrolled sideways.
  const wide = Grid.useBreakpoint().md ?? true;
  if (!wide) {
    return (
      <List
        dataSource={[...list]}
        rowKey="id"
        data-testid="my-certificates-table"
        renderItem={(c) => (
          <List.Item style={{ display: "block" }}>
            <Space direction="vertical" size={4} style={{ width: "100%" }}>
              <Space wrap>
                <Typography.Text strong>{c.awardName}</Typography.Text>
                <StatusCell c={c} />
              </Space>
              <Typography.Text copyable={{ text: c.number }} data-testid="my-certificate-number">
                {c.number}
              </Typography.Text>
              {kindText(c) && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {kindText(c)}
                </Typography.Text>
              )}
              {showWork && c.workTitle && <span>《{c.workTitle}》</span>}
              {showWork && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {c.contestName}
                </Typography.Text>
              )}
              <Actions c={c} />
            </Space>
          </List.Item>
        )}
      />
    );
  }
  return (
    <Table<MyCertificate>
      dataSource={[...list]}
      rowKey="id"
      size="small"
      pagination={false}
      scroll={{ x: 720 }}
      data-testid="my-certificates-table"
    >
      <Table.Column<MyCertificate>
        title="证书编号"
        width={190}
        render={(_, c) => (
          <Space direction="vertical" size={0}>
            <Typography.Text copyable={{ text: c.number }} data-testid="my-certificate-number">
              {c.number}
            </Typography.Text>
            {kindText(c) && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {kindText(c)}
              </Typography.Text>
            )}
          </Space>
        )}
      />
      <Table.Column<MyCertificate>
        dataIndex="awardName"
        title="奖项"
        width={110}
        render={(v: string) => <Typography.Text strong>{v}</Typography.Text>}
      />
      {showWork && (
        <Table.Column<MyCertificate>
          title="作品 / 竞赛"
          render={(_, c) => (
            <Space direction="vertical" size={0}>
              {c.workTitle && <span>《{c.workTitle}》</span>}
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {c.contestName}
              </Typography.Text>
            </Space>
          )}
        />
      )}
      <Table.Column<MyCertificate> title="状态" width={150} render={(_, c) => <StatusCell c={c} />} />
      <Table.Column<MyCertificate> title="操作" width={170} fixed="right" render={(_, c) => <Actions c={c} />} />
    </Table>
  );
}

/** The section: nothing while loading or when the caller has no certificate. */
export function MyCertificatesCard() {
  const q = useMyCertificates();
  if (q.isError) return <Alert type="warning" showIcon message={q.error.message} />;
  if (!q.data?.length) return null;
  return (
    <Card
      title={
        <Space>
          <TrophyOutlined />
          获奖证书
        </Space>
      }
      size="small"
      id="my-certificates"
      data-testid="my-certificates"
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        结果发布后签发。有效的证书可下载 PDF 打印；证书上的二维码可由任何人扫描核验。撤销或被新版本替换的证书不再有效。
      </Typography.Paragraph>
      <CertificateTable list={q.data} />
    </Card>
  );
}

/** A works-table action: 「获奖证书」 for a work the caller holds certificates of, opening them. */
export function WorkCertificatesButton({ workId }: { workId: number }) {
  const q = useMyCertificates();
  const [open, setOpen] = useState(false);
  const list = (q.data ?? []).filter((c) => c.workId === workId);
  if (!list.length) return null;
  return (
    <>
      <Button type="link" size="small" icon={<TrophyOutlined />} onClick={() => setOpen(true)} data-testid="work-certificates">
        获奖证书
      </Button>
      <Modal
        open={open}
        onCancel={() => setOpen(false)}
        footer={null}
        title={`获奖证书 · 《${list[0].workTitle ?? ""}》`}
        width={760}
        destroyOnHidden
      >
        <CertificateTable list={list} showWork={false} />
      </Modal>
    </>
  );
}
