/**
 * 生成 PDF: starts the server's PDF batch job for the chosen certificates (POST
 * /Backend/Certificate/print/pdf), shows its progress (useJob) and then the download link.
 * A refusal (a missing glyph, a contest out of scope…) shows the server's Chinese message.
 */
import { useState } from "react";
import { Alert, Button, Modal, Progress, Space, Typography } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import type { PrintBody } from "../../shared/certificate/print-schema";
import { percentOf, useJob } from "../crud/use-job";
import { certApi } from "./print-api";

export function PdfDialog({
  body,
  count,
  open,
  onClose,
}: {
  body: PrintBody | null;
  count: number;
  open: boolean;
  onClose: (done: boolean) => void;
}) {
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const job = useJob(jobId);
  const start = async () => {
    setError(null);
    setJobId(null);
    if (!body) return;
    const reply = await certApi.printPdf(body);
    if (reply.error !== 0 || !reply.data) setError(reply.info || "PDF 任务启动失败");
    else setJobId(reply.data.jobId);
  };
  const close = () => {
    setJobId(null);
    setError(null);
    onClose(job?.status === "done");
  };
  const running = !error && (!job || job.status === "running");
  return (
    <Modal open={open} title="生成 PDF" onCancel={close} footer={null} destroyOnHidden afterOpenChange={(o) => o && void start()}>
      <Space direction="vertical" style={{ width: "100%" }} data-testid="cert-pdf-dialog">
        <Typography.Text type="secondary">
          把选中的 {count} 张证书生成为一个 PDF 文件（每张证书一页，已撤销或已被替换的证书不生成），并记入打印记录。
        </Typography.Text>
        {error && <Alert type="error" showIcon message={error} data-testid="cert-pdf-error" />}
        {running && (
          <Progress
            aria-label="生成进度"
            percent={percentOf(job)}
            status="active"
            format={() => (job ? `${job.processed}/${job.total || "…"}` : "准备中…")}
            data-testid="cert-pdf-progress"
          />
        )}
        {job?.status === "failed" && (
          <Alert type="error" showIcon message={job.message ?? "PDF 生成失败"} data-testid="cert-pdf-error" />
        )}
        {job?.status === "done" && job.downloadUrl && (
          <>
            <Alert type="success" showIcon message={job.message ?? "PDF 已生成"} />
            <Button type="primary" icon={<DownloadOutlined />} href={job.downloadUrl} data-testid="cert-pdf-download">
              下载 PDF
            </Button>
          </>
        )}
      </Space>
    </Modal>
  );
}
