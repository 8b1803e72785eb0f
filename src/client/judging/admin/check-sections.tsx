/**
 * The sections of the check report (check.tsx): the verdict and figures, the conflicting
 * assignments, the assignments outside the setting, the works with too few judges, and
 * the load of each judge and group with the judges and works without a group.
 */
import { Link } from "react-router";
import { Alert, Button, Card, Col, Empty, Popconfirm, Progress, Row, Space, Statistic, Table, Tag, Typography } from "antd";
import { ApartmentOutlined, ReloadOutlined, ThunderboltOutlined } from "@ant-design/icons";
import type { CheckReport } from "../../../shared/judging/schema";

type Conflict = CheckReport["conflicts"][number];

/** What the check found and the settings it checked against; 重新检查. */
export function CheckVerdict({ r, onRecheck }: { r: CheckReport; onRecheck: () => void }) {
  const s = r.summary;
  const fine = !s.conflicts && !s.misplaced && !s.shortWorks && !s.worksWithoutGroup;
  return (
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
        <Button size="small" icon={<ReloadOutlined />} onClick={onRecheck}>
          重新检查
        </Button>
      }
    />
  );
}

/** The figures: works, assignments, judges, groups, conflicts, short works, judge load. */
export function CheckFigures({ r }: { r: CheckReport }) {
  const s = r.summary;
  return (
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
            <Statistic title="回避冲突" value={s.conflicts} valueStyle={{ color: s.conflicts ? "#cf1322" : "#237804" }} />
          </div>
        </Col>
        <Col span={3}>
          <Statistic title="评委不足" value={s.shortWorks} valueStyle={{ color: s.shortWorks ? "#ad4e00" : undefined }} />
        </Col>
        <Col span={6}>
          <Statistic title="评委工作量（最少–最多，相差）" value={`${r.overall.min}–${r.overall.max}（${r.overall.spread}）`} />
        </Col>
      </Row>
    </Card>
  );
}

/** 回避冲突: each conflicting assignment with its reasons; replace the judge or remove it. */
export function ConflictsCard({
  r,
  onReplace,
  onRemove,
}: {
  r: CheckReport;
  onReplace: (c: Conflict) => void;
  onRemove: (assignmentId: number) => unknown;
}) {
  const s = r.summary;
  return (
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
                <Button type="link" size="small" onClick={() => onReplace(c)}>
                  替换评委
                </Button>
                <Popconfirm
                  title="移除这条有回避冲突的分配？"
                  okText="移除"
                  okButtonProps={{ danger: true }}
                  cancelText="取消"
                  onConfirm={() => onRemove(c.assignmentId)}
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
  );
}

/** 不符合分组的分配: assignments outside the setting, each removable. */
export function MisplacedCard({ r, onRemove }: { r: CheckReport; onRemove: (assignmentId: number) => unknown }) {
  const s = r.summary;
  return (
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
              <Popconfirm title="移除这条分配？" okText="移除" cancelText="取消" onConfirm={() => onRemove(m.assignmentId)}>
                <Button type="link" size="small" danger>
                  移除分配
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Card>
  );
}

/** 评委不足的作品, with 为这些作品自动补足评委. */
export function ShortWorksCard({ r, onFill }: { r: CheckReport; onFill: (workIds: number[]) => void }) {
  const s = r.summary;
  return (
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
            onClick={() => onFill(r.shortWorks.map((w) => w.workId))}
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
  );
}

/** The load of each judge and group, and the judges and works without a group (按类别自动分组). */
export function LoadsRow({
  r,
  contestId,
  grouping,
  onAutoGroup,
}: {
  r: CheckReport;
  contestId: number;
  grouping: boolean;
  onAutoGroup: () => void;
}) {
  const s = r.summary;
  const maxLoad = Math.max(1, ...r.judgeLoads.map((j) => j.load));
  return (
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
                      aria-label="评审负荷"
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
                <Button icon={<ApartmentOutlined />} loading={grouping} onClick={onAutoGroup}>
                  按类别自动分组
                </Button>
              </>
            )}
          </Card>
        )}
      </Col>
    </Row>
  );
}
