/**
 * A work's attachments against its category's requirements: each kind with its required
 * mark, size and type limits, the current file (download), and for the authors while the
 * work is editable: upload with a progress bar, replace and delete. One file per kind;
 * a replaced file stays on record in the work log.
 */
import { useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Alert, App, Button, Popconfirm, Progress, Skeleton, Space, Table, Tag, Typography } from "antd";
import { DeleteOutlined, DownloadOutlined, UploadOutlined } from "@ant-design/icons";
import { sizeText, type FileRequirement, type WorkFiles, type WorkFileView } from "../../../shared/work/files";
import { del } from "../../request";
import { W, workKeys } from "../api";
import { fetchData } from "../../request";
import { filesBase, uploadWorkFile } from "../upload";
import { fmtTime } from "../../format";

export interface AttachmentsPanelProps {
  workId: number;
  /** the caller may upload and delete now (author, editable work, attachments not locked) */
  editable: boolean;
  /** why uploads are closed, shown above the list */
  closedReason?: string;
  /** after an upload or delete (the work's version and log change) */
  onChanged?: () => void;
  /** changes go through the admins' route, for a work a contest admin entered on a school's behalf */
  onBehalf?: boolean;
}

const extOf = (name: string) => (/\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1] ?? "").toLowerCase();

/** The client's own check before sending; the server checks again (size while streaming, content signature). */
export function fileProblem(req: FileRequirement, file: File): string | null {
  const ext = extOf(file.name);
  if (!req.types.includes(ext)) return `「${req.name}」只接受 ${req.types.join("、")} 文件，「${file.name}」不符合`;
  if (file.size > req.maxSizeMB * 1048576)
    return `「${req.name}」的文件不能超过 ${req.maxSizeMB} MB，「${file.name}」为 ${sizeText(file.size)}`;
  if (file.size === 0) return `「${file.name}」是空文件，请重新选择`;
  return null;
}

export const downloadUrl = (workId: number, fileId: number) => `${W}/${workId}/files/${fileId}/download`;

export function useWorkFiles(workId: number) {
  return useQuery({ queryKey: workKeys.files(workId), queryFn: () => fetchData<WorkFiles>(`${W}/${workId}/files`) });
}

interface Row {
  req: FileRequirement;
  file?: WorkFileView;
}

export function AttachmentsPanel({ workId, editable, closedReason, onChanged, onBehalf = false }: AttachmentsPanelProps) {
  const { message, notification } = App.useApp();
  const query = useWorkFiles(workId);
  const [progress, setProgress] = useState<Record<string, number>>({});
  const inputs = useRef<Record<string, HTMLInputElement | null>>({});

  if (query.isLoading) return <Skeleton active />;
  if (query.isError) return <Alert type="error" showIcon message="附件加载失败" description={query.error.message} />;
  const { files, requirements } = query.data!;
  const rows: Row[] = requirements.map((req) => ({ req, file: files.find((f) => f.kind === req.key) }));
  // Files of a kind the category no longer asks for stay visible.
  for (const f of files)
    if (!requirements.some((r) => r.key === f.kind))
      rows.push({ req: { key: f.kind, name: f.kindName, required: false, maxSizeMB: 0, types: [] }, file: f });
  const missing = rows.filter((r) => r.req.required && !r.file).map((r) => r.req.name);

  const changed = () => {
    void query.refetch();
    onChanged?.();
  };

  const upload = async (req: FileRequirement, file: File) => {
    const problem = fileProblem(req, file);
    if (problem) return void message.error(problem);
    setProgress((p) => ({ ...p, [req.key]: 0 }));
    const reply = await uploadWorkFile(workId, req.key, file, (pct) => setProgress((p) => ({ ...p, [req.key]: pct })), onBehalf);
    setProgress(({ [req.key]: _, ...rest }) => rest);
    if (reply.error === 0) {
      void message.success(reply.info || `已上传「${req.name}」`);
      changed();
    } else notification.error({ message: `「${req.name}」上传失败`, description: reply.info || "请稍后重试" });
  };

  const remove = async (f: WorkFileView) => {
    const reply = await del(`${filesBase(workId, onBehalf)}/${f.id}`);
    if (reply.error === 0) changed();
  };

  return (
    <Space direction="vertical" style={{ width: "100%" }} size={12}>
      {!editable && closedReason && <Alert type="info" showIcon message={closedReason} />}
      {editable && missing.length > 0 && <Alert type="warning" showIcon message={`尚未上传必交材料：${missing.join("、")}`} />}
      <Table<Row> dataSource={rows} rowKey={(r) => r.req.key} pagination={false} size="middle" data-testid="attachments">
        <Table.Column<Row>
          title="材料"
          width={300}
          render={(_, r) => (
            <Space direction="vertical" size={0}>
              <Space size={4}>
                {r.req.required && <Typography.Text type="danger">*</Typography.Text>}
                <Typography.Text strong>{r.req.name}</Typography.Text>
                {r.req.required ? (
                  <Tag color="red" bordered={false}>
                    必交
                  </Tag>
                ) : (
                  <Tag bordered={false}>选交</Tag>
                )}
              </Space>
              {r.req.types.length > 0 && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {r.req.types.join("、")}，不超过 {r.req.maxSizeMB} MB
                </Typography.Text>
              )}
            </Space>
          )}
        />
        <Table.Column<Row>
          title="已上传文件"
          render={(_, r) =>
            progress[r.req.key] !== undefined ? (
              <Progress
                percent={progress[r.req.key]}
                size="small"
                status="active"
                aria-label={`「${r.req.name}」上传进度`}
                data-testid={`upload-progress-${r.req.key}`}
              />
            ) : r.file ? (
              <Space direction="vertical" size={0} data-testid={`file-${r.req.key}`}>
                <Typography.Link href={downloadUrl(workId, r.file.id)} download={r.file.filename}>
                  <DownloadOutlined /> {r.file.filename}
                </Typography.Link>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {sizeText(r.file.size)} · {r.file.uploadedBy.name} · {fmtTime(r.file.createdAt)}
                </Typography.Text>
              </Space>
            ) : (
              <Typography.Text type="secondary">未上传</Typography.Text>
            )
          }
        />
        {editable && (
          <Table.Column<Row>
            title="操作"
            width={200}
            render={(_, r) =>
              r.req.types.length > 0 && (
                <Space>
                  <input
                    type="file"
                    hidden
                    accept={r.req.types.map((t) => `.${t}`).join(",")}
                    ref={(el) => void (inputs.current[r.req.key] = el)}
                    data-testid={`file-input-${r.req.key}`}
                    onChange={(e) => {
                      const f = e.target.files?.[0];
                      e.target.value = "";
                      if (f) void upload(r.req, f);
                    }}
                  />
                  <Button
                    size="small"
                    icon={<UploadOutlined />}
                    disabled={progress[r.req.key] !== undefined}
                    onClick={() => inputs.current[r.req.key]?.click()}
                  >
                    {r.file ? "替换" : "上传"}
                  </Button>
                  {r.file && (
                    <Popconfirm
                      title={`删除「${r.req.name}」的文件？`}
                      description="删除后记入作品日志；必交材料删除后须重新上传才能提交。"
                      okText="删除"
                      okButtonProps={{ danger: true }}
                      onConfirm={() => remove(r.file!)}
                    >
                      <Button size="small" danger icon={<DeleteOutlined />}>
                        删除
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
              )
            }
          />
        )}
      </Table>
    </Space>
  );
}
