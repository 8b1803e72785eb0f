/**
 * /ContestAdmin/Group (contest admins): the judging setting of one of the admin's contests.
 * Settings (N reviews per work, default 3; capacity; own province), judge groups per
 * 大类 / 小类 / 普通-专业组 with their judges and leader, the works put in groups (by
 * category automatically, or by hand), 自动分配 (min-cost flow: every work N conflict-free
 * judges, loads balanced; the exact reasons when impossible), manual assignment and
 * removal, and the contest's judges with their loads. The check report is one click away.
 */
import { useState } from "react";
import { Link } from "react-router";
import { Alert, App, Button, Card, Col, Popconfirm, Row, Space, Statistic, Table, Tabs, Tag, Tooltip } from "antd";
import { ApartmentOutlined, AuditOutlined, ThunderboltOutlined } from "@ant-design/icons";
import type { ContestJudge } from "../../../shared/judging/schema";
import type { PageProps } from "../../routing/model";
import { judgingApi, useCheck, useContestJudges, useGroups, useJudgingRefresh } from "./api";
import { AutoAssignModal } from "./AutoAssignModal";
import { ContestBar, useChosenContest } from "./ContestBar";
import { GroupsTab } from "./GroupsTab";
import { SettingsCard } from "./SettingsCard";
import { WorksTable } from "./WorksTable";

export default function GroupSetting({ route }: PageProps) {
  const state = useChosenContest();
  const { contestId } = state;
  return (
    <Card
      title={route.label}
      extra={
        contestId && (
          <Link to={`/contest-admin/check-group-setting?contestId=${contestId}`}>
            <Button icon={<AuditOutlined />}>分组回避检查</Button>
          </Link>
        )
      }
    >
      <ContestBar state={state} />
      {contestId && <ContestJudging key={contestId} contestId={contestId} />}
    </Card>
  );
}

function ContestJudging({ contestId }: { contestId: number }) {
  const groups = useGroups(contestId);
  const judges = useContestJudges(contestId);
  const check = useCheck(contestId);
  const refresh = useJudgingRefresh(contestId);
  const { modal } = App.useApp();
  const [autoOpen, setAutoOpen] = useState(false);
  const [grouping, setGrouping] = useState(false);
  const s = check.data?.summary;

  const autoGroup = async (regroup: boolean) => {
    setGrouping(true);
    const reply = await judgingApi.autoGroup(contestId, regroup);
    setGrouping(false);
    if (reply.error === 0 && reply.data) {
      refresh();
      if (reply.data.unmatched.length) {
        modal.warning({
          title: `${reply.data.unmatched.length} 件作品没有匹配的评审组`,
          content: (
            <ul style={{ paddingInlineStart: 18 }}>
              {reply.data.unmatched.slice(0, 20).map((w) => (
                <li key={w.id}>
                  {w.id}《{w.name}》（{w.categoryName}）
                </li>
              ))}
              {reply.data.unmatched.length > 20 && <li>……</li>}
            </ul>
          ),
        });
      }
    }
  };

  const error = groups.error ?? judges.error;
  if (error) return <Alert type="error" showIcon message={error.message} />;
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Card size="small" title="评审设置">
        <SettingsCard contestId={contestId} />
      </Card>
      <Card size="small" data-testid="judging-summary">
        <Row gutter={16} align="middle">
          <Col flex="auto">
            <Row gutter={16}>
              <Col span={4}>
                <Statistic title="评审组" value={s?.groups ?? "—"} />
              </Col>
              <Col span={4}>
                <Statistic title="评委" value={s?.judges ?? "—"} />
              </Col>
              <Col span={4}>
                <Statistic title="评审作品" value={s?.works ?? "—"} />
              </Col>
              <Col span={4}>
                <Statistic
                  title="未分组作品"
                  value={s?.worksWithoutGroup ?? "—"}
                  valueStyle={{ color: s?.worksWithoutGroup ? "#ad4e00" : undefined }}
                />
              </Col>
              <Col span={4}>
                <Statistic
                  title="评委不足"
                  value={s?.shortWorks ?? "—"}
                  valueStyle={{ color: s?.shortWorks ? "#ad4e00" : undefined }}
                />
              </Col>
              <Col span={4}>
                <div data-testid="summary-conflicts">
                  <Statistic
                    title="回避冲突"
                    value={s?.conflicts ?? "—"}
                    valueStyle={{ color: s?.conflicts ? "#cf1322" : "#237804" }}
                  />
                </div>
              </Col>
            </Row>
          </Col>
          <Col flex="none">
            <Space direction="vertical">
              <Space.Compact>
                <Tooltip title="把未分组的作品按大类、小类和组别分入最具体的匹配评审组">
                  <Button
                    icon={<ApartmentOutlined />}
                    loading={grouping}
                    onClick={() => autoGroup(false)}
                    data-testid="auto-group"
                  >
                    按类别自动分组
                  </Button>
                </Tooltip>
                <Popconfirm
                  title="重新分组：还没有分配评委的作品都按类别重新分入评审组，确认？"
                  okText="重新分组"
                  cancelText="取消"
                  onConfirm={() => autoGroup(true)}
                >
                  <Button>重新分组</Button>
                </Popconfirm>
              </Space.Compact>
              <Button
                type="primary"
                block
                icon={<ThunderboltOutlined />}
                onClick={() => setAutoOpen(true)}
                data-testid="auto-assign"
              >
                自动分配评委
              </Button>
            </Space>
          </Col>
        </Row>
      </Card>
      <Tabs
        items={[
          {
            key: "groups",
            label: `评审组（${groups.data?.length ?? 0}）`,
            children: (
              <GroupsTab
                contestId={contestId}
                groups={groups.data ?? []}
                judges={judges.data ?? []}
                loading={groups.isFetching}
              />
            ),
          },
          {
            key: "works",
            label: "作品与分配",
            children: <WorksTable contestId={contestId} groups={groups.data ?? []} judges={judges.data ?? []} />,
          },
          {
            key: "judges",
            label: `评委（${judges.data?.length ?? 0}）`,
            children: <JudgesTable judges={judges.data ?? []} loading={judges.isFetching} />,
          },
        ]}
      />
      <AutoAssignModal contestId={contestId} open={autoOpen} groups={groups.data ?? []} onClose={() => setAutoOpen(false)} />
    </Space>
  );
}

function JudgesTable({ judges, loading }: { judges: ContestJudge[]; loading: boolean }) {
  return (
    <Table<ContestJudge>
      rowKey="id"
      size="small"
      loading={loading}
      dataSource={judges}
      pagination={judges.length > 20 ? { pageSize: 20 } : false}
      locale={{ emptyText: "本赛事还没有评委，请在「评委与审核员」中添加" }}
      data-testid="contest-judges"
    >
      <Table.Column<ContestJudge> title="姓名" dataIndex="name" />
      <Table.Column<ContestJudge> title="用户名" dataIndex="username" />
      <Table.Column<ContestJudge> title="学校" render={(_, j) => j.school?.name ?? "无（行业专家）"} />
      <Table.Column<ContestJudge> title="省份" dataIndex="province" render={(p: string | null) => p ?? "—"} />
      <Table.Column<ContestJudge>
        title="评审组"
        render={(_, j) =>
          j.groups.length ? j.groups.map((g) => <Tag key={g.id}>{g.name}</Tag>) : <Tag color="orange">未分组</Tag>
        }
      />
      <Table.Column<ContestJudge> title="已分配作品" dataIndex="load" sorter={(a, b) => a.load - b.load} />
      <Table.Column<ContestJudge> title="申报回避" dataIndex="declared" />
    </Table>
  );
}
