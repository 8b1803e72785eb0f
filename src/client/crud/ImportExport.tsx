/**
 * Bulk Excel for any master-data resource: download the template, import in two steps
 * (upload → dry run with per-row errors and the diff → confirm, all rows or none) and
 * export the current filtered view — each long step with a progress bar.
 */
import { useState } from "react";
import { Alert, Button, Modal, Progress, Space, Table, Tabs, Tag, Typography, Upload } from "antd";
import { DownloadOutlined, FileExcelOutlined, UploadOutlined } from "@ant-design/icons";
import type { ImportReport } from "../../shared/crud/list";
import { post } from "../request";
import { useCanNow } from "../providers/use-can-now";
import { resourceMeta } from "../providers/resources";
import { percentOf, uploadFile, useJob } from "./use-job";

const cell = (v: unknown) =>
  v === null || v === undefined || v === "" ? <Typography.Text type="secondary">（空）</Typography.Text> : String(v);

export function ImportReportView({ report }: { report: ImportReport }) {
  return (
    <Tabs
      items={[
        {
          key: "errors",
          label: `错误（${report.errors.length}）`,
          children: report.errors.length ? (
            <Table
              size="small"
              rowKey={(r) => `${r.row}-${r.column}`}
              pagination={{ pageSize: 8 }}
              dataSource={report.errors}
              columns={[
                { title: "行号", dataIndex: "row", width: 70 },
                { title: "列", dataIndex: "column", width: 140 },
                { title: "原因", dataIndex: "reason" },
              ]}
            />
          ) : (
            <Alert type="success" showIcon message="没有错误" />
          ),
        },
        {
          key: "new",
          label: `新增（${report.created}）`,
          children: (
            <Table
              size="small"
              rowKey="row"
              pagination={{ pageSize: 8 }}
              dataSource={report.newRows}
              columns={[
                { title: "行号", dataIndex: "row", width: 70 },
                { title: "标识", dataIndex: "key" },
              ]}
            />
          ),
        },
        {
          key: "changed",
          label: `修改（${report.changed}）`,
          children: (
            <Table
              size="small"
              rowKey="row"
              pagination={{ pageSize: 6 }}
              dataSource={report.changedRows}
              columns={[
                { title: "行号", dataIndex: "row", width: 70 },
                { title: "标识", dataIndex: "key", width: 140 },
                {
                  title: "变化",
                  render: (_, r) => (
                    <Space direction="vertical" size={2}>
                      {Object.entries(r.changes).map(([col, [from, to]]) => (
                        <span key={col}>
                          <Tag>{col}</Tag>
                          {cell(from)} → {cell(to)}
                        </span>
                      ))}
                    </Space>
                  ),
                },
              ]}
            />
          ),
        },
        {
          key: "same",
          label: `不变（${report.unchanged}）`,
          children: <Typography.Text type="secondary">这些行与现有数据一致，不会修改。</Typography.Text>,
        },
      ]}
    />
  );
}

function ImportDialog({
  resource,
  open,
  onClose,
  onDone,
}: {
  resource: string;
  open: boolean;
  onClose: () => void;
  onDone?: () => void;
}) {
  const meta = resourceMeta(resource)!;
  const base = `/Backend/${meta.path}`;
  const [upload, setUpload] = useState<number | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [revision, setRevision] = useState(0);
  const job = useJob(jobId, revision);
  const report = job?.result as ImportReport | null;
  const applying = job?.status === "applying" || (confirming && job?.status === "ready");
  const reset = () => {
    setUpload(null);
    setJobId(null);
    setError(null);
    setConfirming(false);
  };

  const start = async (file: File) => {
    reset();
    setUpload(0);
    const reply = await uploadFile(`${base}/import`, file, setUpload);
    if (reply.error !== 0 || !reply.data) {
      setError(reply.info);
      setUpload(null);
      return;
    }
    setJobId(reply.data.jobId);
  };

  const confirm = async () => {
    setConfirming(true);
    const reply = await post(`${base}/import/${jobId}/confirm`, {}, { notify: false });
    if (reply.error !== 0) {
      setError(reply.info);
      setConfirming(false);
      return;
    }
    // Poll again: the job moves to applying, then done or failed.
    setRevision((r) => r + 1);
  };

  const done = job?.status === "done";
  return (
    <Modal
      open={open}
      width={860}
      title={`导入${meta.label}`}
      onCancel={() => {
        if (done) onDone?.();
        reset();
        onClose();
      }}
      footer={
        <Space>
          <Button icon={<DownloadOutlined />} href={`${base}/template`}>
            下载导入模板
          </Button>
          {job?.status === "ready" && !report?.errors.length && (
            <Button type="primary" loading={applying} onClick={confirm} data-testid="import-confirm">
              确认导入（新增 {report?.created ?? 0}，修改 {report?.changed ?? 0}）
            </Button>
          )}
        </Space>
      }
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: "100%" }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          先上传文件检查：显示每一行的错误和将要新增、修改的内容；确认后在一个事务中全部导入，出错则全部不导入。空白单元格不会清除已有数据。
        </Typography.Paragraph>
        <Upload.Dragger
          accept=".xlsx"
          showUploadList={false}
          beforeUpload={(f) => (void start(f), false)}
          disabled={upload !== null && !job}
        >
          <p className="ant-upload-drag-icon">
            <FileExcelOutlined />
          </p>
          <p>点击或拖入 .xlsx 文件</p>
        </Upload.Dragger>
        {upload !== null && !jobId && (
          <Progress aria-label="上传进度" percent={upload} status="active" format={(p) => `上传 ${p}%`} />
        )}
        {job && (job.status === "running" || applying) && (
          <Progress
            aria-label="导入进度"
            percent={percentOf(job)}
            status="active"
            format={() => (applying ? `导入中 ${job.processed}/${job.total}` : `检查中 ${job.processed}/${job.total || "…"}`)}
            data-testid="import-progress"
          />
        )}
        {error && <Alert type="error" showIcon message={error} />}
        {job?.status === "failed" && (
          <Alert type="error" showIcon message={job.message ?? "导入失败"} data-testid="import-failed" />
        )}
        {job?.status === "ready" && report && (
          <>
            <Alert type={report.errors.length ? "error" : "info"} showIcon message={job.message} data-testid="import-summary" />
            <ImportReportView report={report} />
          </>
        )}
        {done && <Alert type="success" showIcon message={job?.message ?? "导入完成"} data-testid="import-done" />}
      </Space>
    </Modal>
  );
}

function ExportDialog({
  resource,
  filters,
  open,
  onClose,
}: {
  resource: string;
  filters: Record<string, unknown>;
  open: boolean;
  onClose: () => void;
}) {
  const meta = resourceMeta(resource)!;
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const job = useJob(jobId);
  const start = async () => {
    setError(null);
    const reply = await post<{ jobId: string }>(`/Backend/${meta.path}/export`, filters, { notify: false });
    if (reply.error !== 0 || !reply.data) setError(reply.info);
    else setJobId(reply.data.jobId);
  };
  return (
    <Modal
      open={open}
      title={`导出${meta.label}`}
      onCancel={() => (setJobId(null), onClose())}
      footer={null}
      destroyOnHidden
      afterOpenChange={(o) => o && void start()}
    >
      {error && <Alert type="error" showIcon message={error} />}
      {job?.status === "running" && (
        <Progress
          aria-label="导出进度"
          percent={percentOf(job)}
          status="active"
          format={() => `${job.processed}/${job.total || "…"}`}
        />
      )}
      {job?.status === "failed" && <Alert type="error" showIcon message={job.message ?? "导出失败"} />}
      {job?.status === "done" && job.downloadUrl && (
        <Space direction="vertical">
          <Alert type="success" showIcon message={job.message ?? "导出完成"} />
          <Button type="primary" icon={<DownloadOutlined />} href={job.downloadUrl} data-testid="export-download">
            下载 .xlsx
          </Button>
        </Space>
      )}
    </Modal>
  );
}

/** 导入 / 导出 buttons for a resource list; export takes the list's current filters. */
export function ImportExport({
  resource,
  filters,
  onImported,
}: {
  resource: string;
  filters: Record<string, unknown>;
  onImported?: () => void;
}) {
  const meta = resourceMeta(resource);
  const [dialog, setDialog] = useState<"import" | "export" | null>(null);
  const can = useCanNow();
  const canImport = can(meta?.api, "create");
  const canExport = can(meta?.api, "read");
  if (!meta) return null;
  return (
    <>
      {canImport && (
        <Button icon={<UploadOutlined />} onClick={() => setDialog("import")}>
          导入
        </Button>
      )}
      {canExport && (
        <Button icon={<DownloadOutlined />} onClick={() => setDialog("export")}>
          导出
        </Button>
      )}
      <ImportDialog resource={resource} open={dialog === "import"} onClose={() => setDialog(null)} onDone={onImported} />
      <ExportDialog resource={resource} filters={filters} open={dialog === "export"} onClose={() => setDialog(null)} />
    </>
  );
}
