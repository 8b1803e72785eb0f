/**
 * /workDetail/:workId: the full read view of a work for those the server lets see it
 * (authors, its teachers, its school admin, contest admins in scope, root); anyone else
 * gets the server's 404 message. Fields, team, attachments, status with reasons, the log.
 */
import { useParams } from "react-router";
import { useCan } from "@refinedev/core";
import { Button, Card, Result, Skeleton, Space } from "antd";
import { PrinterOutlined } from "@ant-design/icons";
import type { PageProps } from "../routing/model";
import { printPath, useWork } from "../work/api";
import { WorkLogTimeline } from "../work/components/WorkLogTimeline";
import { AttachmentsPanel, useWorkFiles } from "../work/components/AttachmentsPanel";
import { Attachments } from "./parts/Attachments";
import { AiDeclarationView, BasicInfo, StatusReasons, TeamTables, TextFields } from "./parts/DetailSections";

/** Read-only, except for the admins of a work they entered on its school's behalf (the server says so). */
function WorkAttachments({ workId }: { workId: number }) {
  const files = useWorkFiles(workId);
  if (files.data?.onBehalf) return <AttachmentsPanel workId={workId} editable onBehalf closedReason="" />;
  return <Attachments workId={workId} />;
}

export default function WorkDetail({ route }: PageProps) {
  const { workId } = useParams();
  const id = /^\d{10}$/.test(workId ?? "") ? Number(workId) : undefined;
  const { data: work, isLoading, error } = useWork(id);
  const canLog = useCan({ resource: "api.workLog", action: "read" }).data?.can;

  if (!id) return <Result status="404" title="作品编号应为 10 位数字" />;
  if (isLoading)
    return (
      <Card title={route.label}>
        <Skeleton active />
      </Card>
    );
  if (error || !work) {
    const status = (error as { status?: number } | null)?.status;
    return (
      <div data-testid="work-detail-error">
        <Result status={status === 401 || status === 403 ? "403" : "404"} title={error?.message ?? "作品不存在或您无权查看"} />
      </div>
    );
  }
  // Teachers see the work but not its log (the server says so).
  const showLog = canLog && work.viewer.relations.some((r) => r !== "teacher");

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="work-detail">
      <Card
        title={`《${work.name}》`}
        extra={
          <Space>
            <a href={printPath("Registration", work.id)} target="_blank" rel="noreferrer">
              <Button icon={<PrinterOutlined />}>作品报名表</Button>
            </a>
            <a href={printPath("Copyright", work.id)} target="_blank" rel="noreferrer">
              <Button icon={<PrinterOutlined />}>版权与原创声明</Button>
            </a>
          </Space>
        }
      >
        <StatusReasons work={work} />
        <BasicInfo work={work} />
      </Card>
      <Card title="团队" size="small">
        <TeamTables work={work} />
      </Card>
      <Card title="作品信息" size="small">
        <TextFields work={work} />
      </Card>
      <Card title="AI工具使用声明" size="small">
        <AiDeclarationView work={work} />
      </Card>
      <Card title="附件" size="small">
        <WorkAttachments workId={work.id} />
      </Card>
      {showLog && (
        <Card title="作品日志" size="small">
          <WorkLogTimeline workId={work.id} />
        </Card>
      )}
    </Space>
  );
}
