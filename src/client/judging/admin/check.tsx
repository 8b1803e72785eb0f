/**
 * /contest-admin/check-group-setting (contest admins): the check report of a contest's
 * judging setting — every assignment that breaks a conflict rule with its reasons,
 * assignments outside the setting, the load of each judge and group, works with too few
 * judges, judges and works without a group — each fixable from here: remove or replace a
 * conflicting assignment, fill the missing judges with the automatic assignment, put the
 * ungrouped works in groups.
 */
import { useState } from "react";
import { Link } from "react-router";
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Modal,
  Popconfirm,
  Progress,
  Result,
  Row,
  Select,
  Skeleton,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from "antd";
import { ApartmentOutlined, ReloadOutlined, SettingOutlined, ThunderboltOutlined } from "@ant-design/icons";
import type { CheckReport } from "../../../shared/judging/schema";
import type { PageProps } from "../../routing/model";
import { judgingApi, problemsOf, useCheck, useContestJudges, useJudgingRefresh, type Problem } from "./api";
import { ProblemList } from "./AssignParts";
import { AutoAssignModal } from "./AutoAssignModal";
import { ContestBar, useChosenContest } from "./ContestBar";
import { judgeLabel } from "./GroupFormModal";

type Conflict = CheckReport["conflicts"][number];

export default function CheckGroupSetting({ route }: PageProps) {
  const state = useChosenContest();
  const { contestId } = state;
  return (
    <Card
      title={route.label}
      extra={
        contestId && (
          <Link to={`/ContestAdmin/Group?contestId=${contestId}`}>
            <Button icon={<SettingOutlined />}>设置分组</Button>
          </Link>
        )
      }
    >
      <ContestBar state={state} />
      {contestId && <Report key={contestId} contestId={contestId} />}
    </Card>
  );
}

function Report({ contestId }: { contestId: number }) {
  const check = useCheck(contestId);
  const refresh = useJudgingRefresh(contestId);
  const [fill, setFill] = useState<number[] | null>(null);
  const [replacing, setReplacing] = useState<Conflict | null>(null);
  const [grouping, setGrouping] = useState(false);
  if (check.isLoading) return <Skeleton active />;
  if (check.isError || !check.data) return <Alert type="error" showIcon message={check.error?.message ?? "检查报告加载失败"} />;
  const r = check.data;
  const s = r.summary;
  const fine = !s.conflicts && !s.misplaced && !s.shortWorks && !s.worksWithoutGroup;
  const maxLoad = Math.max(1, ...r.judgeLoads.map((j) => j.load));
  const remove = async (id: number) => (await judgingApi.removeAssignment(id)).error === 0 && refresh();
  const autoGroup = async () => {
    setGrouping(true);
    const reply = await judgingApi.autoGroup(contestId);
    setGrouping(false);
    if (reply.error === 0) refresh();
  };

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="check-report">
      <Alert
        type={fine ? "success" : s.conflicts ? "error" : "warning"}
        showIcon
        data-testid="check-verdict"
        message={
          fine
            ? "检查通过：没有回避冲突，每件作品均有足够评委"
            : `发现 ${s.conflicts} 条回避冲突、${s.misplaced} 条不符合分组的分配、${s.shortWorks} 件评委不足的作品、${s.worksWithoutGroup} 件未分组的作品`
        }
        description={`每件作品需要 ${r.settings.reviewsPerWork} 位评委；${r.settings.judgeCapacity === null ? "每位评委的作品数不限" : `每位评委最多 ${r.settings.judgeCapacity} 件`}${r.settings.avoidProvince ? "；回避本省作品" : ""}。`}
        action={
          <Button size="small" icon={<ReloadOutlined />} onClick={() => void check.refetch()}>
            重新检查
          </Button>
        }
      />
      <Card size="small">
        <Row gutter={16}>
          <Col span={3}>
            <Statistic title="评审作品" value={s.works} />
          </Col>
          <Col span={3}>
            <Statistic title="分配" value={s.assignments} />
          </Col>
          <Col span={3}>
            <Statistic title="评委" value={s.judges} />
          </Col>
          <Col span={3}>
            <Statistic title="评审组" value={s.groups} />
          </Col>
          <Col span={3}>
            <div data-testid="check-conflicts">
              <Statistic title="回避冲突" value={s.conflicts} valueStyle={{ color: s.conflicts ? "#ff4d4f" : "#52c41a" }} />
            </div>
          </Col>
          <Col span={3}>
            <Statistic title="评委不足" value={s.shortWorks} valueStyle={{ color: s.shortWorks ? "#faad14" : undefined }} />
          </Col>
          <Col span={6}>
            <Statistic title="评委工作量（最少–最多，相差）" value={`${r.overall.min}–${r.overall.max}（${r.overall.spread}）`} />
          </Col>
        </Row>
      </Card>

      <Card
        size="small"
        title={
          <Space>
            回避冲突<Tag color={s.conflicts ? "red" : "green"}>{s.conflicts}</Tag>
          </Space>
        }
        data-testid="check-conflict-list"
      >
        {r.conflicts.length ? (
          <Table<Conflict>
            size="small"
            rowKey="assignmentId"
            dataSource={r.conflicts}
            pagination={r.conflicts.length > 20 ? { pageSize: 20 } : false}
          >
            <Table.Column<Conflict> title="作品" render={(_, c) => `${c.workId}《${c.workName}》`} />
            <Table.Column<Conflict> title="评委" dataIndex="judgeName" />
            <Table.Column<Conflict>
              title="原因"
              dataIndex="reasonText"
              render={(t: string) => <Typography.Text type="danger">{t}</Typography.Text>}
            />
            <Table.Column<Conflict>
              title="处理"
              render={(_, c) => (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => setReplacing(c)}>
                    替换评委
                  </Button>
                  <Popconfirm
                    title="移除这条有回避冲突的分配？"
                    okText="移除"
                    okButtonProps={{ danger: true }}
                    cancelText="取消"
                    onConfirm={() => remove(c.assignmentId)}
                  >
                    <Button type="link" size="small" danger data-testid="conflict-remove">
                      移除分配
                    </Button>
                  </Popconfirm>
                </Space>
              )}
            />
          </Table>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有回避冲突：没有评委评审本校、本人指导或申报回避的作品" />
        )}
      </Card>

      {r.misplaced.length > 0 && (
        <Card
          size="small"
          title={
            <Space>
              不符合分组的分配<Tag color="orange">{s.misplaced}</Tag>
            </Space>
          }
        >
          <Table
            size="small"
            rowKey="assignmentId"
            dataSource={r.misplaced}
            pagination={false}
            columns={[
              { title: "作品", dataIndex: "workId" },
              { title: "问题", dataIndex: "message" },
              {
                title: "处理",
                render: (_, m) => (
                  <Popconfirm title="移除这条分配？" okText="移除" cancelText="取消" onConfirm={() => remove(m.assignmentId)}>
                    <Button type="link" size="small" danger>
                      移除分配
                    </Button>
                  </Popconfirm>
                ),
              },
            ]}
          />
        </Card>
      )}

      <Card
        size="small"
        title={
          <Space>
            评委不足的作品<Tag color={s.shortWorks ? "orange" : "green"}>{s.shortWorks}</Tag>
          </Space>
        }
        extra={
          r.shortWorks.length > 0 && (
            <Button
              type="primary"
              size="small"
              icon={<ThunderboltOutlined />}
              onClick={() => setFill(r.shortWorks.map((w) => w.workId))}
              data-testid="fill-short"
            >
              为这些作品自动补足评委
            </Button>
          )
        }
        data-testid="check-short"
      >
        {r.shortWorks.length ? (
          <Table
            size="small"
            rowKey="workId"
            dataSource={r.shortWorks}
            pagination={r.shortWorks.length > 10 ? { pageSize: 10 } : false}
            columns={[
              { title: "作品", render: (_, w) => `${w.workId}《${w.name}》` },
              { title: "评审组", dataIndex: "groupName", render: (g: string | null) => g ?? <Tag color="orange">未分组</Tag> },
              {
                title: "评委",
                render: (_, w) => (
                  <Tag color="red">
                    {w.have}/{w.needed}
                  </Tag>
                ),
              },
            ]}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="每件作品都有足够的评委" />
        )}
      </Card>

      <Row gutter={16}>
        <Col xs={24} xl={14}>
          <Card size="small" title="每位评委的工作量" data-testid="check-judge-loads">
            <Table
              size="small"
              rowKey="judgeId"
              dataSource={r.judgeLoads}
              pagination={r.judgeLoads.length > 15 ? { pageSize: 15 } : false}
              columns={[
                { title: "评委", dataIndex: "name", render: (n: string) => <span style={{ whiteSpace: "nowrap" }}>{n}</span> },
                {
                  title: "学校",
                  dataIndex: "schoolName",
                  render: (x: string | null) => <span style={{ whiteSpace: "nowrap" }}>{x ?? "无"}</span>,
                },
                {
                  title: "评审组",
                  dataIndex: "groups",
                  render: (g: string[]) => g.join("、") || <Tag color="orange">未分组</Tag>,
                },
                {
                  title: "作品数",
                  dataIndex: "load",
                  width: 200,
                  sorter: (a, b) => a.load - b.load,
                  render: (n: number, j) => (
                    <Space style={{ width: 180 }}>
                      <Progress
                        percent={(n / maxLoad) * 100}
                        showInfo={false}
                        size="small"
                        style={{ width: 110, margin: 0 }}
                        status={j.capacity !== null && n > j.capacity ? "exception" : "normal"}
                      />
                      {n}
                      {j.capacity !== null ? ` / ${j.capacity}` : ""}
                    </Space>
                  ),
                },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card size="small" title="每个评审组的工作量" data-testid="check-group-loads">
            <Table
              size="small"
              rowKey="groupId"
              dataSource={r.groupLoads}
              pagination={false}
              columns={[
                { title: "评审组", dataIndex: "name", render: (n: string) => <span style={{ whiteSpace: "nowrap" }}>{n}</span> },
                { title: "评委", dataIndex: "judges", width: 60 },
                { title: "作品", dataIndex: "works", width: 60 },
                { title: "分配", dataIndex: "assignments", width: 60 },
                {
                  title: "每位评委作品数",
                  render: (_, g) => (
                    <span style={{ whiteSpace: "nowrap" }}>{g.judges ? `${g.min}–${g.max}（相差 ${g.spread}）` : "—"}</span>
                  ),
                },
              ]}
            />
          </Card>
          {(r.judgesWithoutGroup.length > 0 || r.worksWithoutGroup.length > 0) && (
            <Card size="small" title="未分组" style={{ marginTop: 16 }} data-testid="check-ungrouped">
              {r.judgesWithoutGroup.length > 0 && (
                <Typography.Paragraph>
                  <Typography.Text type="secondary">未分入评审组的评委：</Typography.Text>
                  {r.judgesWithoutGroup.map((j) => (
                    <Tag key={j.id}>{j.name}</Tag>
                  ))}
                  <Link to={`/ContestAdmin/Group?contestId=${contestId}`}>去添加</Link>
                </Typography.Paragraph>
              )}
              {r.worksWithoutGroup.length > 0 && (
                <>
                  <Typography.Paragraph>
                    <Typography.Text type="secondary">未分入评审组的作品（{s.worksWithoutGroup}）：</Typography.Text>
                    {r.worksWithoutGroup.slice(0, 12).map((w) => (
                      <Tag key={w.id}>
                        {w.id}《{w.name}》
                      </Tag>
                    ))}
                    {r.worksWithoutGroup.length > 12 && "……"}
                  </Typography.Paragraph>
                  <Button icon={<ApartmentOutlined />} loading={grouping} onClick={autoGroup}>
                    按类别自动分组
                  </Button>
                </>
              )}
            </Card>
          )}
        </Col>
      </Row>
      {!r.judgeLoads.length && !r.groupLoads.length && (
        <Result
          status="info"
          title="还没有评审组和评委"
          extra={
            <Link to={`/ContestAdmin/Group?contestId=${contestId}`}>
              <Button type="primary">去设置分组</Button>
            </Link>
          }
        />
      )}
      <AutoAssignModal contestId={contestId} open={!!fill} workIds={fill ?? undefined} onClose={() => setFill(null)} />
      <ReplaceModal contestId={contestId} conflict={replacing} onClose={() => setReplacing(null)} onDone={refresh} />
    </Space>
  );
}

function ReplaceModal({
  contestId,
  conflict,
  onClose,
  onDone,
}: {
  contestId: number;
  conflict: Conflict | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const judges = useContestJudges(contestId);
  const [judgeId, setJudgeId] = useState<number>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<{ info: string; problems: Problem[] } | null>(null);
  const submit = async () => {
    if (!conflict || !judgeId) return;
    setBusy(true);
    const reply = await judgingApi.replace(conflict.assignmentId, judgeId);
    setBusy(false);
    if (reply.error === 0) {
      setJudgeId(undefined);
      setRefusal(null);
      onDone();
      onClose();
    } else setRefusal({ info: reply.info, problems: problemsOf(reply.data) });
  };
  return (
    <Modal
      open={!!conflict}
      title={conflict ? `替换作品 ${conflict.workId}《${conflict.workName}》的评委「${conflict.judgeName}」` : ""}
      okText="替换"
      cancelText="取消"
      okButtonProps={{ disabled: !judgeId }}
      confirmLoading={busy}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">新评委同样检查回避、评审组和容量；不通过时原分配保留。</Typography.Paragraph>
      <Select
        showSearch
        optionFilterProp="label"
        style={{ width: "100%" }}
        placeholder="选择新评委"
        value={judgeId}
        onChange={(v) => {
          setJudgeId(v);
          setRefusal(null);
        }}
        options={(judges.data ?? [])
          .filter((j) => j.id !== conflict?.judgeId)
          .map((j) => ({ value: j.id, label: `${judgeLabel(j)}（已分配 ${j.load} 件）` }))}
      />
      {refusal && (
        <div style={{ marginTop: 12 }}>
          <ProblemList info={refusal.info} problems={refusal.problems} />
        </div>
      )}
    </Modal>
  );
}
