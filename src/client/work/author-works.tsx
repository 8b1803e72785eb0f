/**
 * /author/work-management (students): my works with their status (and the reason of a
 * return or disqualification), invitations to confirm at the top, creating a work, and
 * each work in a drawer (?work=<id>&tab=<tab>) with its fields, team, attachments,
 * submit checklist and log; links to print the registration form and the statement;
 * once a result is published, my certificates (获奖证书: download, verify).
 */
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { Alert, Button, Card, Empty, List, Space, Table, Typography } from "antd";
import { EditOutlined, ExceptionOutlined, EyeOutlined, HistoryOutlined, PlusOutlined, PrinterOutlined } from "@ant-design/icons";
import type { WorkListItem } from "../../shared/work/schema";
import { isEditable } from "../../shared/work/states";
import type { PageProps } from "../routing/model";
import { appealPath, canAppealWork } from "../complaint/logic";
import { MyCertificatesCard, WorkCertificatesButton } from "../certificate/MyCertificates";
import { printPath, useMyWorks, useWork } from "./api";
import { CreateWorkModal } from "./CreateWorkModal";
import { useOpenAfterClose } from "../components/open-after-close";
import { StatusTag } from "./components/StatusTag";
import { InvitationActions } from "./Invitation";
import { Inline, Lines, Muted } from "../components/light";
import { WorkDrawer, type DrawerTab } from "./WorkDrawer";
import { usePhone } from "../layout/frame-context";

/** The reason of a returned or disqualified work (the list rows carry none: read from the work). */
function Reason({ work }: { work: WorkListItem }) {
  const needs = work.status === "returned" || work.status === "format_returned" || work.status === "disqualified";
  const { data } = useWork(needs ? work.id : undefined);
  const reason = work.status === "disqualified" ? data?.disqualifyReason : data?.returnReason;
  if (!needs || !reason) return null;
  return (
    <Typography.Text
      type={work.status === "disqualified" ? "danger" : "warning"}
      style={{ fontSize: 12, display: "block", maxWidth: 260 }}
      data-testid="work-reason"
    >
      {work.status === "disqualified" ? "取消原因" : "退回原因"}：{reason}
    </Typography.Text>
  );
}

/** A work's actions in my list: 编辑/查看, 日志, the print links, 申诉 when possible, certificates. */
function MyWorkActions({ w, openWork }: { w: WorkListItem; openWork: (id: number, t?: DrawerTab) => void }) {
  const edit = w.myRank === 1 && isEditable(w.status);
  return (
    <Inline gap={0}>
      <Button
        type="link"
        size="small"
        icon={edit ? <EditOutlined /> : <EyeOutlined />}
        onClick={() => openWork(w.id)}
        data-testid="work-open"
      >
        {edit ? "编辑" : "查看"}
      </Button>
      <Button type="link" size="small" icon={<HistoryOutlined />} onClick={() => openWork(w.id, "log")}>
        日志
      </Button>
      <Button
        type="link"
        size="small"
        icon={<PrinterOutlined />}
        href={printPath("Registration", w.id)}
        target="_blank"
        rel="noopener"
      >
        报名表
      </Button>
      <Button
        type="link"
        size="small"
        icon={<PrinterOutlined />}
        href={printPath("Copyright", w.id)}
        target="_blank"
        rel="noopener"
      >
        版权声明
      </Button>
      {canAppealWork(w.status) && (
        <Link to={appealPath(w.id)}>
          <Button type="link" size="small" icon={<ExceptionOutlined />} data-testid="work-appeal">
            申诉
          </Button>
        </Link>
      )}
      <WorkCertificatesButton workId={w.id} />
    </Inline>
  );
}

/** On a phone: my works as cards (name, status and reason, contest and 大类, the actions) instead of the wide table. */
function MyWorkCards({
  works,
  loading,
  openWork,
}: {
  works: WorkListItem[];
  loading: boolean;
  openWork: (id: number, t?: DrawerTab) => void;
}) {
  return (
    <List<WorkListItem>
      dataSource={works}
      rowKey="id"
      loading={loading}
      locale={{ emptyText: <Empty description="还没有作品，点击「新建作品」开始报名" /> }}
      data-testid="my-works"
      renderItem={(w) => (
        <List.Item style={{ display: "block", paddingInline: 0 }} data-work-id={w.id}>
          <Lines gap={4}>
            <Typography.Link onClick={() => openWork(w.id)} strong>
              {w.name}
            </Typography.Link>
            <Inline gap={8}>
              <StatusTag status={w.status} name={w.statusName} />
              <Muted small>编号 {w.id}</Muted>
            </Inline>
            <Reason work={w} />
            <Muted small>
              {w.contest.name} · {w.category.name}
              {w.subcategory ? ` / ${w.subcategory.name}` : ""} · 作者：{w.authorNames}
            </Muted>
            <MyWorkActions w={w} openWork={openWork} />
          </Lines>
        </List.Item>
      )}
    />
  );
}

export default function AuthorWorks({ route }: PageProps) {
  const phone = usePhone();
  const query = useMyWorks();
  const [params, setParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const workId = Number(params.get("work")) || undefined;
  const tab = (params.get("tab") as DrawerTab | null) ?? "info";
  const openWork = (id: number | undefined, t: DrawerTab = "info") =>
    setParams(id ? { work: String(id), tab: t } : {}, { replace: !!workId && !!id });
  // The new work opens once the form has closed (focus: open-after-close.ts).
  const openCreated = useOpenAfterClose((id: number) => openWork(id));

  const works = query.data?.list ?? [];
  const invitations = works.filter((w) => w.myConfirmed === false);

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      {invitations.length > 0 && (
        <Card title="待我确认的作品" size="small" data-testid="invitations">
          <List
            dataSource={invitations}
            renderItem={(w) => (
              <List.Item
                actions={[
                  <InvitationActions key="a" workId={w.id} version={w.version} />,
                  <Button key="v" size="small" type="link" onClick={() => openWork(w.id)}>
                    查看
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  title={`《${w.name}》`}
                  description={`${w.category.name}${w.subcategory ? ` / ${w.subcategory.name}` : ""} · 作者：${w.authorNames} · 编号 ${w.id}`}
                />
              </List.Item>
            )}
          />
        </Card>
      )}
      <Card
        title={route.label}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="work-create">
            新建作品
          </Button>
        }
      >
        {query.isError && <Alert type="error" showIcon message={query.error.message} style={{ marginBottom: 16 }} />}
        {phone ? (
          <MyWorkCards works={works.filter((w) => w.myConfirmed !== false)} loading={query.isLoading} openWork={openWork} />
        ) : (
          <Table<WorkListItem>
            dataSource={works.filter((w) => w.myConfirmed !== false)}
            rowKey="id"
            loading={query.isLoading}
            pagination={false}
            size="middle"
            data-testid="my-works"
            locale={{ emptyText: <Empty description="还没有作品，点击「新建作品」开始报名" /> }}
            scroll={{ x: 1200 }}
          >
            <Table.Column<WorkListItem> dataIndex="id" title="作品编号" width={115} />
            <Table.Column<WorkListItem>
              dataIndex="name"
              title="作品名称"
              width={260}
              render={(name, w) => (
                <Lines>
                  <Typography.Link onClick={() => openWork(w.id)}>{name}</Typography.Link>
                  <Muted small>{w.contest.name}</Muted>
                </Lines>
              )}
            />
            <Table.Column<WorkListItem>
              title="大类 / 小类"
              width={170}
              render={(_, w) =>
                `${w.category.name}${w.subcategory ? ` / ${w.subcategory.name}` : ""}${w.group === "professional" ? "（专业组）" : ""}`
              }
            />
            <Table.Column<WorkListItem> dataIndex="authorNames" title="作者" width={150} />
            <Table.Column<WorkListItem> dataIndex="teacherNames" title="指导教师" width={100} render={(v) => v || "—"} />
            <Table.Column<WorkListItem>
              title="状态"
              width={220}
              render={(_, w) => (
                <Lines gap={2}>
                  <StatusTag status={w.status} name={w.statusName} />
                  <Reason work={w} />
                </Lines>
              )}
            />
            <Table.Column<WorkListItem>
              title="操作"
              width={260}
              fixed="right"
              render={(_, w) => <MyWorkActions w={w} openWork={openWork} />}
            />
          </Table>
        )}
      </Card>
      <MyCertificatesCard />
      <CreateWorkModal
        open={creating}
        mine={works}
        onClose={() => setCreating(false)}
        onCreated={(w) => {
          setCreating(false);
          openCreated.open(w.id);
        }}
        afterClose={openCreated.afterClose}
      />
      <WorkDrawer workId={workId} tab={tab} onTab={(t) => workId && openWork(workId, t)} onClose={() => openWork(undefined)} />
    </Space>
  );
}
