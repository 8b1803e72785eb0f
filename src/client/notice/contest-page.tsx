/**
 * /ContestAdmin/NoticeManagement (contest admin): the notices and explanation texts of
 * one of the admin's contests, a row per section of the catalogue, written or not.
 */
import { useEffect, useState } from "react";
import { DeleteButton, EditButton } from "@refinedev/antd";
import { useCan, useList } from "@refinedev/core";
import { Alert, Button, Card, Form, Space, Table, Tag, Typography } from "antd";
import { EyeOutlined, PlusOutlined } from "@ant-design/icons";
import type { NoticeView } from "../../shared/notice/schema";
import { NOTICE_SECTIONS, type NoticeSection } from "../../shared/notice/sections";
import type { PageProps } from "../routing/model";
import { ContestSelect, contestLabel, useMyContests } from "./contest-select";
import { NoticeDrawer, type NoticeSlot } from "./notice-drawer";
import { NoticePreview, updatedText } from "./preview";
import { sectionHint } from "./section-page";

interface Row {
  section: NoticeSection;
  notice?: NoticeView;
}

export default function ContestNoticePage({ route }: PageProps) {
  const mine = useMyContests();
  const [contestId, setContestId] = useState<number>();
  const [slot, setSlot] = useState<NoticeSlot | null>(null);
  const [preview, setPreview] = useState<NoticeView | null>(null);
  const canCreate = useCan({ resource: "api.notices", action: "create" }).data?.can;
  useEffect(() => {
    if (contestId === undefined && mine.data?.length) setContestId(mine.data[0].id);
  }, [contestId, mine.data]);
  const contest = mine.data?.find((c) => c.id === contestId);
  const { result, query } = useList<NoticeView>({
    resource: "notices",
    filters: [{ field: "contestId", operator: "eq", value: contestId }],
    pagination: { pageSize: 100 },
    queryOptions: { enabled: contestId !== undefined },
  });
  const rows: Row[] = NOTICE_SECTIONS.map((section) => ({ section, notice: result.data.find((n) => n.section === section.key) }));
  const open = (r: Row) =>
    contest && setSlot({ section: r.section.key, contestId: contest.id, contestName: contest.name, id: r.notice?.id });

  return (
    <Card title={route.label}>
      <Form layout="inline" style={{ marginBottom: 16 }}>
        <Form.Item label="赛事">
          <ContestSelect
            style={{ minWidth: 360 }}
            value={contestId}
            onChange={(v) => setContestId(v)}
            data-testid="notice-contest"
          />
        </Form.Item>
      </Form>
      {mine.isError && <Alert type="error" showIcon message={mine.error.message} />}
      {mine.data && !mine.data.length && <Alert type="info" showIcon message="您目前没有负责的赛事，无法编写通知与说明。" />}
      {contest && (
        <Table<Row>
          dataSource={rows}
          rowKey={(r) => r.section.key}
          loading={query.isFetching}
          pagination={false}
          size="middle"
          data-testid="notice-table"
        >
          <Table.Column<Row>
            title="栏目"
            width={260}
            render={(_, r) => (
              <Space direction="vertical" size={0}>
                <span>
                  {r.section.name} <Tag>{r.section.kind === "announcement" ? "公告" : "说明"}</Tag>
                </span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {sectionHint(r.section, true)}
                </Typography.Text>
              </Space>
            )}
          />
          <Table.Column<Row>
            title="标题"
            render={(_, r) =>
              r.notice?.title ?? (
                <Typography.Text type="secondary">
                  未编写{r.section.kind === "explanation" ? "（使用上级赛事或全平台的说明）" : ""}
                </Typography.Text>
              )
            }
          />
          <Table.Column<Row> title="更新" width={200} render={(_, r) => (r.notice ? updatedText(r.notice) : "—")} />
          <Table.Column<Row>
            title="操作"
            width={230}
            render={(_, r) =>
              r.notice ? (
                <Space>
                  <Button size="small" icon={<EyeOutlined />} onClick={() => setPreview(r.notice!)}>
                    预览
                  </Button>
                  <EditButton size="small" resource="notices" recordItemId={r.notice.id} onClick={() => open(r)} />
                  <DeleteButton
                    size="small"
                    resource="notices"
                    recordItemId={r.notice.id}
                    confirmTitle="删除这条内容？"
                    onSuccess={() => query.refetch()}
                  />
                </Space>
              ) : (
                canCreate && (
                  <Button size="small" icon={<PlusOutlined />} onClick={() => open(r)}>
                    编写
                  </Button>
                )
              )
            }
          />
        </Table>
      )}
      {contest && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
          当前赛事：{contestLabel(contest)}
        </Typography.Paragraph>
      )}
      <NoticeDrawer slot={slot} onClose={() => (setSlot(null), void query.refetch())} />
      <NoticePreview notice={preview} onClose={() => setPreview(null)} />
    </Card>
  );
}
