/**
 * One of my works in a drawer (/author/work-management?work=<id>&tab=<tab>): its fields,
 * team, attachments, the submit checklist and its log; print links and deleting a draft.
 */
import { useState } from "react";
import { Alert, Button, Drawer, Popconfirm, Result, Skeleton, Space, Tabs } from "antd";
import { DeleteOutlined, PrinterOutlined } from "@ant-design/icons";
import { isEditable } from "../../shared/work/states";
import { printPath, useWork, useWorkForget, useWorkRefresh, workApi } from "./api";
import { AttachmentsPanel } from "./components/AttachmentsPanel";
import { SubmitPanel } from "./components/SubmitPanel";
import { TeamEditor } from "./components/TeamEditor";
import { lockOf, lockText, WorkForm } from "./components/WorkForm";
import { WorkLogTimeline } from "./components/WorkLogTimeline";
import { InvitationActions } from "./Invitation";
import { WorkNotices, WorkTitle } from "./WorkDrawerParts";
import { useWorkAction } from "./use-work-action";

export type DrawerTab = "info" | "team" | "files" | "submit" | "log";

export function WorkDrawer({
  workId,
  tab,
  onTab,
  onClose,
}: {
  workId?: number;
  tab: DrawerTab;
  onTab: (t: DrawerTab) => void;
  onClose: () => void;
}) {
  const query = useWork(workId);
  const refresh = useWorkRefresh();
  const forget = useWorkForget();
  const run = useWorkAction();
  const [generation, setGeneration] = useState(0);
  const work = query.data;

  const reload = () => void query.refetch().then(() => setGeneration((g) => g + 1));
  const removeDraft = async () => {
    if (!work) return;
    const r = await run(workApi.remove(work.id, work.version), { reload });
    if (r.error === 0) {
      onClose();
      forget(work.id);
    }
  };

  const first = !!work?.viewer.relations.includes("first_author");
  const author = !!work?.viewer.relations.includes("author");
  const pending = !!work?.viewer.relations.includes("pending_author");
  const filesLock = work ? lockOf(work, "attachments") : undefined;
  const filesEditable = !!work && author && isEditable(work.status) && !filesLock;
  const filesClosed = !work
    ? undefined
    : filesLock
      ? lockText(filesLock)
      : !isEditable(work.status)
        ? `作品当前状态为「${work.statusName}」，附件不能修改`
        : !author
          ? "确认参赛后可以上传附件"
          : undefined;

  const title = work ? <WorkTitle work={work} /> : "作品";

  const extra = work && (
    <Space wrap>
      <Button
        icon={<PrinterOutlined />}
        href={printPath("Registration", work.id)}
        target="_blank"
        rel="noopener"
        data-testid="print-registration"
      >
        打印报名表
      </Button>
      <Button
        icon={<PrinterOutlined />}
        href={printPath("Copyright", work.id)}
        target="_blank"
        rel="noopener"
        data-testid="print-copyright"
      >
        打印版权声明
      </Button>
      {first && work.status === "draft" && (
        <Popconfirm
          title="删除该草稿？"
          description="删除后不能恢复，作品编号作废。"
          okText="删除"
          okButtonProps={{ danger: true }}
          onConfirm={() => void removeDraft()}
        >
          <Button danger icon={<DeleteOutlined />} data-testid="work-delete">
            删除草稿
          </Button>
        </Popconfirm>
      )}
    </Space>
  );

  const body = () => {
    if (query.isLoading) return <Skeleton active />;
    if (query.isError || !work)
      return <Result status="warning" title="作品无法打开" subTitle={query.error?.message ?? "作品不存在或您无权查看"} />;
    const items = [
      {
        key: "info",
        label: "作品信息",
        children: <WorkForm key={`${work.id}-${generation}`} work={work} reload={reload} onSaved={(v) => refresh(work.id, v)} />,
      },
      {
        key: "team",
        label: "团队成员",
        children: (
          <TeamEditor work={work} reload={reload} onChanged={(v) => (v ? refresh(work.id, v) : (onClose(), forget(work.id)))} />
        ),
      },
      {
        key: "files",
        label: "作品附件",
        children: (
          <AttachmentsPanel
            workId={work.id}
            editable={filesEditable}
            closedReason={filesClosed}
            onChanged={() => refresh(work.id)}
          />
        ),
      },
      ...(first && isEditable(work.status)
        ? [
            {
              key: "submit",
              label: "提交作品",
              children: <SubmitPanel work={work} reload={reload} onSubmitted={() => refresh(work.id)} />,
            },
          ]
        : []),
      { key: "log", label: "作品日志", children: <WorkLogTimeline workId={work.id} /> },
    ];
    return (
      <>
        {pending && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            message="第一作者邀请您参加该作品"
            description="确认后您将成为该作品的作者；每位作者每个大类只能参加一件作品。"
            action={<InvitationActions workId={work.id} version={work.version} onDone={(joined) => !joined && onClose()} />}
          />
        )}
        <WorkNotices work={work} />
        <Tabs
          activeKey={items.some((i) => i.key === tab) ? tab : "info"}
          onChange={(k) => onTab(k as DrawerTab)}
          items={items}
          destroyOnHidden={false}
        />
      </>
    );
  };

  return (
    <Drawer open={!!workId} onClose={onClose} width={980} title={title} extra={extra} destroyOnHidden data-testid="work-drawer">
      {body()}
    </Drawer>
  );
}
