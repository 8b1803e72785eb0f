/**
 * Evidence files for a complaint: checked for type, size and count before the upload, sent
 * one by one with progress through the blob store route of the caller's kind (a visitor's
 * carries the token), listed with remove. The value is the uploaded evidence ids.
 */
import { useState } from "react";
import { App, Button, List, Progress, Space, Typography, Upload } from "antd";
import { DeleteOutlined, PaperClipOutlined, UploadOutlined } from "@ant-design/icons";
import type { EvidenceView } from "../../shared/complaint/schema";
import { fmtSize } from "../format";
import { uploadWithProgress } from "../upload";
import { evidenceHint, evidenceProblem, type EvidenceLimits } from "./logic";

interface Props {
  url: string;
  /** text fields sent before the file (a visitor's token) */
  fields?: Record<string, string>;
  limits: EvidenceLimits;
  files: EvidenceView[];
  onChange: (files: EvidenceView[]) => void;
  disabled?: boolean;
}

export function EvidenceUpload({ url, fields = {}, limits, files, onChange, disabled }: Props) {
  const { message } = App.useApp();
  const [uploading, setUploading] = useState<{ name: string; percent: number } | null>(null);

  const send = async (file: File) => {
    const problem = evidenceProblem(file, files.length, limits);
    if (problem) {
      void message.error(problem);
      return;
    }
    setUploading({ name: file.name, percent: 0 });
    const reply = await uploadWithProgress<EvidenceView>(url, fields, file, (percent) =>
      setUploading({ name: file.name, percent }),
    );
    setUploading(null);
    if (reply.error === 0 && reply.data) onChange([...files, reply.data]);
    else void message.error(reply.info || "上传失败");
  };

  return (
    <Space direction="vertical" style={{ width: "100%" }} data-testid="evidence-upload">
      <Upload
        accept={limits.extensions.join(",")}
        showUploadList={false}
        disabled={disabled || !!uploading}
        beforeUpload={(file) => {
          void send(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} disabled={disabled || !!uploading || files.length >= limits.maxFiles}>
          上传证据材料
        </Button>
      </Upload>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {evidenceHint(limits)}
      </Typography.Text>
      {uploading && (
        <div data-testid="evidence-progress">
          <Typography.Text style={{ fontSize: 12 }}>正在上传「{uploading.name}」</Typography.Text>
          <Progress aria-label="上传进度" percent={uploading.percent} size="small" />
        </div>
      )}
      {files.length > 0 && (
        <List
          size="small"
          bordered
          dataSource={files}
          renderItem={(f) => (
            <List.Item
              actions={[
                <Button
                  key="d"
                  type="text"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`移除 ${f.name}`}
                  onClick={() => onChange(files.filter((x) => x.id !== f.id))}
                />,
              ]}
            >
              <Space>
                <PaperClipOutlined />
                <span data-testid="evidence-name">{f.name}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {fmtSize(f.size)}
                </Typography.Text>
              </Space>
            </List.Item>
          )}
        />
      )}
    </Space>
  );
}
