/**
 * 导出作品: starts an export job of the filtered works (POST /Backend/Admin/work/export),
 * shows its progress (GET /Backend/Common/job/:id) and then the download link.
 */
import { useState } from "react";
import { Alert, Button, Modal, Progress, Space, Typography } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import { useCanNow } from "../../providers/use-can-now";
import { percentOf, useJob } from "../../crud/use-job";
import { post } from "../../request";

export const EXPORT_URL = "/Backend/Admin/work/export";

function ExportDialog({ filters, open, onClose }: { filters: Record<string, unknown>; open: boolean; onClose: () => void }) {
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const job = useJob(jobId);
  const start = async () => {
    setError(null);
    setJobId(null);
    const reply = await post<{ jobId: string }>(EXPORT_URL, filters, { notify: false });
    if (reply.error !== 0 || !reply.data) setError(reply.info || "导出任务启动失败");
    else setJobId(reply.data.jobId);
  };
  const running = !error && (!job || job.status === "running");
  return (
    <Modal
      open={open}
      title="导出作品"
      onCancel={() => (setJobId(null), onClose())}
      footer={null}
      destroyOnHidden
      afterOpenChange={(o) => o && void start()}
    >
      <Space direction="vertical" style={{ width: "100%" }}>
        <Typography.Text type="secondary">导出当前筛选条件下的全部作品（含作者和指导教师）为 .xlsx 文件。</Typography.Text>
        {error && <Alert type="error" showIcon message={error} data-testid="export-error" />}
        {running && (
          <Progress
            aria-label="导出进度"
            percent={percentOf(job)}
            status="active"
            format={() => (job ? `${job.processed}/${job.total || "…"}` : "准备中…")}
            data-testid="export-progress"
          />
        )}
        {job?.status === "failed" && <Alert type="error" showIcon message={job.message ?? "导出失败"} />}
        {job?.status === "done" && job.downloadUrl && (
          <>
            <Alert type="success" showIcon message={job.message ?? "导出完成"} />
            <Button type="primary" icon={<DownloadOutlined />} href={job.downloadUrl} data-testid="export-download">
              下载 .xlsx
            </Button>
          </>
        )}
      </Space>
    </Modal>
  );
}

export function ExportButton({ filters, type }: { filters: Record<string, unknown>; type?: "primary" | "default" }) {
  const [open, setOpen] = useState(false);
  const can = useCanNow()("api.contestWorks", "read");
  if (!can) return null;
  return (
    <>
      <Button type={type} icon={<DownloadOutlined />} onClick={() => setOpen(true)} data-testid="work-export">
        导出 Excel
      </Button>
      <ExportDialog filters={filters} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
