/**
 * One judge group: its judges (add judges of the contest with a searchable select, make
 * one the leader, remove one without assignments in the group), its works with their
 * judges, and its offline defence.
 */
import { useState } from "react";
import { Alert, Button, Descriptions, Drawer, Popconfirm, Select, Space, Table, Tabs, Tag, Typography } from "antd";
import { CrownOutlined, ThunderboltOutlined, UserAddOutlined } from "@ant-design/icons";
import type { ContestJudge, JudgeGroupView } from "../../../shared/judging/schema";
import { judgingApi, useJudgingRefresh } from "./api";
import { AutoAssignModal } from "./AutoAssignModal";
import { DefenceTab } from "./DefenceTab";
import { judgeLabel } from "./GroupFormModal";
import { WorksTable } from "./WorksTable";

export function GroupDrawer({
  contestId,
  group,
  groups,
  judges,
  onClose,
  onEdit,
}: {
  contestId: number;
  group: JudgeGroupView | null;
  groups: JudgeGroupView[];
  judges: ContestJudge[];
  onClose: () => void;
  onEdit: (g: JudgeGroupView) => void;
}) {
  const [assigning, setAssigning] = useState(false);
  return (
    <Drawer
      open={!!group}
      width={1000}
      title={group ? `评审组「${group.name}」` : ""}
      onClose={onClose}
      destroyOnHidden
      extra={
        group && (
          <Space>
            <Button onClick={() => onEdit(group)}>编辑评审组</Button>
            <Button
              type="primary"
              icon={<ThunderboltOutlined />}
              disabled={!group.workCount || !group.judges.length}
              onClick={() => setAssigning(true)}
              data-testid="group-auto-assign"
            >
              自动分配本组评委
            </Button>
          </Space>
        )
      }
      data-testid="group-drawer"
    >
      {group && (
        <>
          <Descriptions size="small" column={3} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="范围">{group.scope}</Descriptions.Item>
            <Descriptions.Item label="专家组长">{group.leader?.name ?? "未指定"}</Descriptions.Item>
            <Descriptions.Item label="作品 / 分配">
              {group.workCount} 件 / {group.assignmentCount} 条
            </Descriptions.Item>
            {group.note && (
              <Descriptions.Item label="备注" span={3}>
                {group.note}
              </Descriptions.Item>
            )}
          </Descriptions>
          <Tabs
            items={[
              {
                key: "judges",
                label: `评委（${group.judges.length}）`,
                children: <Members contestId={contestId} group={group} judges={judges} />,
              },
              {
                key: "works",
                label: `作品（${group.workCount}）`,
                children: <WorksTable key={group.id} contestId={contestId} groups={groups} judges={judges} groupId={group.id} />,
              },
              { key: "defence", label: "线下答辩", children: <DefenceTab contestId={contestId} groupId={group.id} /> },
            ]}
          />
          <AutoAssignModal
            contestId={contestId}
            open={assigning}
            groups={groups}
            groupId={group.id}
            onClose={() => setAssigning(false)}
          />
        </>
      )}
    </Drawer>
  );
}

function Members({ contestId, group, judges }: { contestId: number; group: JudgeGroupView; judges: ContestJudge[] }) {
  const refresh = useJudgingRefresh(contestId);
  const [adding, setAdding] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const inGroup = new Set(group.judges.map((j) => j.id));
  const candidates = judges.filter((j) => !inGroup.has(j.id));
  const byId = new Map(judges.map((j) => [j.id, j]));
  const add = async () => {
    setBusy(true);
    const reply = await judgingApi.addJudges(group.id, adding);
    setBusy(false);
    if (reply.error === 0) {
      setAdding([]);
      refresh();
    }
  };
  return (
    <>
      <Space.Compact style={{ width: "100%", marginBottom: 12 }}>
        <Select
          mode="multiple"
          showSearch
          optionFilterProp="label"
          style={{ width: "100%" }}
          placeholder={candidates.length ? "搜索本赛事的评委（姓名、用户名、学校），可多选" : "本赛事的评委都已在本组"}
          value={adding}
          onChange={setAdding}
          options={candidates.map((j) => ({
            value: j.id,
            label: `${judgeLabel(j)}${j.groups.length ? `（已在：${j.groups.map((g) => g.name).join("、")}）` : ""}`,
          }))}
          data-testid="add-judges-select"
        />
        <Button
          type="primary"
          icon={<UserAddOutlined />}
          disabled={!adding.length}
          loading={busy}
          onClick={add}
          data-testid="add-judges"
        >
          加入评审组
        </Button>
      </Space.Compact>
      {!judges.length && (
        <Alert type="info" showIcon style={{ marginBottom: 12 }} message="本赛事还没有评委，请先在「评委与审核员」中添加评委。" />
      )}
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={group.judges}
        locale={{ emptyText: "本组还没有评委" }}
        data-testid="group-judges"
        columns={[
          {
            title: "姓名",
            dataIndex: "name",
            render: (n: string, j) => (
              <Space>
                {n}
                {group.leader?.id === j.id && (
                  <Tag color="gold" icon={<CrownOutlined />}>
                    专家组长
                  </Tag>
                )}
              </Space>
            ),
          },
          { title: "用户名", dataIndex: "username" },
          { title: "学校", dataIndex: "schoolName", render: (s: string | null) => s ?? "无（行业专家）" },
          { title: "已分配作品", render: (_, j) => byId.get(j.id)?.load ?? 0 },
          {
            title: "操作",
            render: (_, j) => (
              <Space size={0}>
                {group.leader?.id !== j.id && (
                  <Button
                    type="link"
                    size="small"
                    onClick={async () => (await judgingApi.setLeader(group.id, j.id)).error === 0 && refresh()}
                  >
                    设为组长
                  </Button>
                )}
                <Popconfirm
                  title={`把「${j.name}」移出本组？`}
                  okText="移出"
                  okButtonProps={{ danger: true }}
                  cancelText="取消"
                  onConfirm={async () => (await judgingApi.removeJudge(group.id, j.id)).error === 0 && refresh()}
                >
                  <Button type="link" size="small" danger>
                    移出
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        评委在本组有分配时不能移出，请先在作品中移除或替换这些分配。
      </Typography.Paragraph>
    </>
  );
}
