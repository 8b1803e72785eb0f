/**
 * A work's attachments, read-only (GET /Backend/Work/work/:id/files): each with its kind,
 * size, uploader and a download link; required kinds not yet uploaded are named.
 */
import { useQuery } from "@tanstack/react-query";
import { Alert, Skeleton, Table, Tag, Typography } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import type { FileRequirement, WorkFiles, WorkFileView } from "../../../shared/work/files";
import { W, workKeys } from "../../work/api";
import { fetchData } from "../../request";
import { fmtSize, fmtTime } from "../../format";

export const downloadUrl = (workId: number, fileId: number) => `${W}/${workId}/files/${fileId}/download`;

export function Attachments({ workId }: { workId: number }) {
  const { data, isLoading, error } = useQuery({
    queryKey: workKeys.files(workId),
    queryFn: () => fetchData<WorkFiles>(`${W}/${workId}/files`),
  });
  if (isLoading) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (error) return <Alert type="warning" showIcon message={error.message} />;
  return <FileTable workId={workId} files={data?.files ?? []} requirements={data?.requirements ?? []} testId="work-files" />;
}

/** The files with download links, and the required kinds not yet uploaded (the work detail and the review sheet). */
export function FileTable({
  workId,
  files,
  requirements,
  testId,
  linkTestId,
}: {
  workId: number;
  files: WorkFileView[];
  requirements: FileRequirement[];
  testId: string;
  linkTestId?: string;
}) {
  const missing = requirements.filter((r) => !files.some((f) => f.kind === r.key));
  return (
    <>
      <Table<WorkFileView>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={files}
        locale={{ emptyText: "尚未上传附件" }}
        data-testid={testId}
      >
        <Table.Column<WorkFileView> dataIndex="kindName" title="附件" width={160} />
        <Table.Column<WorkFileView>
          dataIndex="filename"
          title="文件（点击下载）"
          render={(name: string, f) => (
            <a href={downloadUrl(workId, f.id)} download data-testid={linkTestId}>
              <DownloadOutlined /> {name}
            </a>
          )}
        />
        <Table.Column<WorkFileView> dataIndex="size" title="大小" width={100} render={fmtSize} />
        <Table.Column<WorkFileView>
          dataIndex="uploadedBy"
          title="上传人"
          width={120}
          render={(u: WorkFileView["uploadedBy"]) => u.name}
        />
        <Table.Column<WorkFileView> dataIndex="createdAt" title="上传时间" width={150} render={fmtTime} />
      </Table>
      {missing.length > 0 && (
        <Typography.Paragraph style={{ marginTop: 8, marginBottom: 0 }}>
          <Typography.Text type="secondary">未上传：</Typography.Text>
          {missing.map((r) => (
            <Tag key={r.key} color={r.required ? "orange" : "default"}>
              {r.name}
              {r.required ? "（必交）" : ""}
            </Tag>
          ))}
        </Typography.Paragraph>
      )}
    </>
  );
}
