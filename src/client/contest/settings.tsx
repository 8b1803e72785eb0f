/**
 * /ContestAdmin/ContestSettings: the contest admin's own contests (GET
 * /Backend/ContestAdmin/contest/mine) with their school contests, edited in the same drawer
 * as root's; level, parent, admins and archiving are read-only (only root changes them).
 */
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Collapse, Descriptions, Empty, Space, Tag, Typography } from "antd";
import { EditOutlined } from "@ant-design/icons";
import { useCan } from "@refinedev/core";
import type { ContestView } from "../../shared/contest/schema";
import { CONTEST_LEVEL_NAMES, STAGE_NAMES, currentStage } from "../../shared/contest/stages";
import { get } from "../request";
import type { PageProps } from "../routing/model";
import { ChildContests } from "./ChildContests";
import { names } from "./columns";
import { ContestDrawer } from "./ContestDrawer";
import { useContestDrawer } from "./use-contest-drawer";
import { fmtTime } from "../format";
import { ComplaintSettingsPanel } from "../complaint/SettingsPanel";

export default function ContestSettings({ route }: PageProps) {
  const mine = useQuery({
    queryKey: ["contest-mine"],
    queryFn: async () => {
      const reply = await get<ContestView[]>("/Backend/ContestAdmin/contest/mine", undefined, { silent: true });
      if (reply.error !== 0) throw new Error(reply.info || "加载失败");
      return reply.data ?? [];
    },
  });
  const edit = useContestDrawer("edit", { restricted: true, onSaved: () => void mine.refetch() });
  const canUpdate = useCan({ resource: "api.contests", action: "update" }).data?.can;
  const list = mine.data ?? [];

  return (
    <Card title={route.label} loading={mine.isLoading}>
      {mine.isError && <Alert type="error" showIcon message={(mine.error as Error).message} />}
      {!mine.isLoading && !list.length && !mine.isError && <Empty description="您目前没有负责的赛事，请联系超级管理员" />}
      <Space direction="vertical" size="large" style={{ width: "100%" }}>
        {list.map((c) => (
          <Card
            key={c.id}
            type="inner"
            data-testid={`my-contest-${c.id}`}
            title={
              <Space>
                <Tag color="blue">{CONTEST_LEVEL_NAMES[c.level]}</Tag>
                <span>{c.name}</span>
                {c.archived && <Tag>已归档</Tag>}
              </Space>
            }
            extra={
              canUpdate && (
                <Button type="primary" icon={<EditOutlined />} onClick={() => edit.openEdit(c.id)}>
                  编辑设置
                </Button>
              )
            }
          >
            <ContestSummary contest={c} />
            {c.level !== "school" && (
              <Collapse
                style={{ marginTop: 16 }}
                size="small"
                items={[{ key: "complaint", label: "申诉处理期限与人员", children: <ComplaintSettingsPanel contestId={c.id} /> }]}
              />
            )}
            {c.level !== "school" && (
              <div style={{ marginTop: 16 }}>
                <ChildContests parent={c} restricted onEdit={(id) => edit.openEdit(id)} />
              </div>
            )}
          </Card>
        ))}
      </Space>
      <ContestDrawer state={edit} />
    </Card>
  );
}

function ContestSummary({ contest: c }: { contest: ContestView }) {
  const now = currentStage(c.stages);
  return (
    <Descriptions size="small" column={2} bordered styles={{ label: { width: 110, whiteSpace: "nowrap" } }}>
      <Descriptions.Item label="赛事代码">{c.code}</Descriptions.Item>
      <Descriptions.Item label="年份">{c.year}</Descriptions.Item>
      <Descriptions.Item label="上级赛事">{c.parentName ?? "—"}</Descriptions.Item>
      <Descriptions.Item label="省份">{c.province ?? "—"}</Descriptions.Item>
      <Descriptions.Item label="赛事管理员">{names(c.admins)}</Descriptions.Item>
      <Descriptions.Item label="赛事审核员">{names(c.reviewers)}</Descriptions.Item>
      <Descriptions.Item label="推荐名额">{c.level === "national" ? "—" : (c.recommendQuota ?? "不限")}</Descriptions.Item>
      <Descriptions.Item label="开放大类">{c.categoryNames.length ? c.categoryNames.join("、") : "未开放"}</Descriptions.Item>
      <Descriptions.Item label="阶段时间" span={2}>
        {c.stages.length ? (
          <Space direction="vertical" size={2}>
            {c.stages.map((s) => (
              <span key={s.stage}>
                <Tag color={s.stage === now ? "green" : undefined}>
                  {STAGE_NAMES[s.stage]}
                  {s.stage === now ? "（进行中）" : ""}
                </Tag>
                {fmtTime(s.startsAt)} ~ {fmtTime(s.endsAt)}
              </span>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">未设置</Typography.Text>
        )}
      </Descriptions.Item>
      {c.description && (
        <Descriptions.Item label="简介" span={2}>
          {c.description}
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}
