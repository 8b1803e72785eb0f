/**
 * /ContestAdmin/OnlineJudging/:contestId (contest admins of the contest): online judging
 * progress — per work (each judge's score status and total, the raw mean) and per judge —
 * reopening a submitted score with a reason, and the check of the hash-chained score log.
 */
import { useState } from "react";
import { useParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import {
  App,
  Alert,
  Button,
  Card,
  Col,
  Form,
  Input,
  Modal,
  Progress,
  Result,
  Row,
  Skeleton,
  Space,
  Statistic,
  Table,
  Tabs,
  Typography,
} from "antd";
import { RollbackOutlined, SafetyCertificateOutlined } from "@ant-design/icons";
import { MAX_REASON, type AdminScoreRow, type ScoreAdminView, type ScoreLogCheck } from "../../../shared/judging/score-schema";
import type { PageProps } from "../../routing/model";
import { judgingKeys, scoreApi, useAdminScores } from "./api";
import { ScoreStatusTag, WindowText } from "./parts";
import { fmtShortTime } from "../../format";

type WorkRow = ScoreAdminView["works"][number];
type JudgeRow = ScoreAdminView["judges"][number];

export default function ScoreAdmin({ route }: PageProps) {
  const { contestId: raw } = useParams();
  const contestId = /^\d+$/.test(raw ?? "") ? Number(raw) : 0;
  const { message } = App.useApp();
  const qc = useQueryClient();
  const scores = useAdminScores(contestId);
  const [check, setCheck] = useState<ScoreLogCheck | null>(null);
  const [checking, setChecking] = useState(false);
  const [reopening, setReopening] = useState<(AdminScoreRow & { workName: string }) | null>(null);

  if (!contestId) return <Result status="404" title="赛事不存在" />;
  if (scores.isLoading)
    return (
      <Card title={route.label}>
        <Skeleton active />
      </Card>
    );
  if (scores.error || !scores.data)
    return (
      <Card title={route.label}>
        <Result status="404" title={scores.error?.message ?? "赛事不存在或不在您的管理范围内"} />
      </Card>
    );
  const v = scores.data;
  const s = v.summary;

  const verify = async () => {
    setChecking(true);
    const r = await scoreApi.verifyLog(contestId);
    setChecking(false);
    if (r.error === 0 && r.data) setCheck(r.data);
    else message.error(r.info || "校验失败");
  };

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Card
        title={`${route.label}：${v.contest.name}`}
        extra={
          <Button icon={<SafetyCertificateOutlined />} loading={checking} onClick={verify} data-testid="verify-log">
            校验评分日志
          </Button>
        }
      >
        <Space direction="vertical" style={{ width: "100%" }}>
          <WindowText window={v.window} />
          {check && (
            <Alert
              type={check.ok ? "success" : "error"}
              showIcon
              message={check.message}
              data-testid="verify-result"
              closable
              onClose={() => setCheck(null)}
            />
          )}
          <Row gutter={16} data-testid="score-summary">
            <Col span={4}>
              <Statistic title="分配" value={s.assignments} />
            </Col>
            <Col span={4}>
              <Statistic title="已提交" value={s.submitted} valueStyle={{ color: "#52c41a" }} />
            </Col>
            <Col span={4}>
              <Statistic title="草稿" value={s.draft} valueStyle={{ color: "#fa8c16" }} />
            </Col>
            <Col span={4}>
              <Statistic title="未评" value={s.none} />
            </Col>
            <Col span={8}>
              <Statistic title="评完的作品" value={s.worksComplete} suffix={`/ ${s.works}`} />
            </Col>
          </Row>
          <Progress percent={s.assignments ? Math.round((s.submitted / s.assignments) * 100) : 0} />
        </Space>
      </Card>
      <Card>
        <Tabs
          items={[
            {
              key: "works",
              label: "按作品",
              children: (
                <Table<WorkRow>
                  size="small"
                  rowKey="workId"
                  dataSource={v.works}
                  data-testid="score-works"
                  pagination={{ defaultPageSize: 20, showSizeChanger: true, showTotal: (n) => `共 ${n} 件` }}
                  expandable={{
                    expandedRowRender: (w) => (
                      <Table<AdminScoreRow> size="small" rowKey="judgeId" pagination={false} dataSource={w.scores}>
                        <Table.Column<AdminScoreRow> dataIndex="judgeName" title="评委" />
                        <Table.Column<AdminScoreRow>
                          dataIndex="status"
                          title="状态"
                          render={(st) => <ScoreStatusTag status={st} />}
                        />
                        <Table.Column<AdminScoreRow> dataIndex="total" title="总分" render={(x: number | null) => x ?? "—"} />
                        <Table.Column<AdminScoreRow>
                          dataIndex="submittedAt"
                          title="提交时间"
                          render={(x: string | null) => fmtShortTime(x)}
                        />
                        <Table.Column<AdminScoreRow>
                          dataIndex="reopenReason"
                          title="退回原因"
                          render={(x: string | null) => x ?? ""}
                        />
                        <Table.Column<AdminScoreRow>
                          title="操作"
                          render={(_, r) =>
                            r.status === "submitted" && (
                              <Button
                                size="small"
                                icon={<RollbackOutlined />}
                                onClick={() => setReopening({ ...r, workName: w.name })}
                                data-testid="reopen-score"
                              >
                                退回
                              </Button>
                            )
                          }
                        />
                      </Table>
                    ),
                  }}
                >
                  <Table.Column<WorkRow> dataIndex="workId" title="作品编号" width={120} />
                  <Table.Column<WorkRow> dataIndex="name" title="作品名称" />
                  <Table.Column<WorkRow> dataIndex="category" title="大类" />
                  <Table.Column<WorkRow> dataIndex="judgeGroup" title="评审组" render={(x: string | null) => x ?? "—"} />
                  <Table.Column<WorkRow>
                    title="已提交 / 分配"
                    render={(_, w) => (
                      <Typography.Text
                        type={w.submitted === w.assigned ? "success" : undefined}
                        data-testid={`work-progress-${w.workId}`}
                      >
                        {w.submitted} / {w.assigned}
                      </Typography.Text>
                    )}
                  />
                  <Table.Column<WorkRow> dataIndex="mean" title="平均分（原始）" render={(x: number | null) => x ?? "—"} />
                </Table>
              ),
            },
            {
              key: "judges",
              label: "按评委",
              children: (
                <Table<JudgeRow>
                  size="small"
                  rowKey="judgeId"
                  dataSource={v.judges}
                  pagination={false}
                  data-testid="score-judges"
                >
                  <Table.Column<JudgeRow> dataIndex="name" title="评委" />
                  <Table.Column<JudgeRow> dataIndex="username" title="用户名" />
                  <Table.Column<JudgeRow> dataIndex="assigned" title="分配" />
                  <Table.Column<JudgeRow> dataIndex="submitted" title="已提交" />
                  <Table.Column<JudgeRow> dataIndex="draft" title="草稿" />
                  <Table.Column<JudgeRow>
                    title="进度"
                    width={220}
                    render={(_, j) => (
                      <Progress size="small" percent={j.assigned ? Math.round((j.submitted / j.assigned) * 100) : 0} />
                    )}
                  />
                </Table>
              ),
            },
          ]}
        />
      </Card>
      <ReopenModal
        contestId={contestId}
        row={reopening}
        onClose={(done) => {
          setReopening(null);
          if (done) void qc.invalidateQueries({ queryKey: judgingKeys.admin(contestId) });
        }}
      />
    </Space>
  );
}

function ReopenModal({
  contestId,
  row,
  onClose,
}: {
  contestId: number;
  row: (AdminScoreRow & { workName: string }) | null;
  onClose: (done: boolean) => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const ok = async () => {
    let reason: string;
    try {
      ({ reason } = await form.validateFields());
    } catch {
      return; // the form shows what is missing
    }
    setBusy(true);
    const r = await scoreApi.reopen(contestId, row!.scoreId!, reason, row!.version);
    setBusy(false);
    if (r.error === 0) {
      message.success(r.info);
      form.resetFields();
      onClose(true);
    } else message.error(r.info || "退回失败");
  };
  return (
    <Modal
      open={!!row}
      title="退回评分"
      okText="退回"
      cancelText="取消"
      confirmLoading={busy}
      onOk={ok}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      {row && (
        <Typography.Paragraph>
          退回评委「{row.judgeName}」对《{row.workName}》的评分（总分 {row.total}
          ）。退回后评委可以修改并重新提交，退回原因会显示给评委并记入评分日志。
        </Typography.Paragraph>
      )}
      <Form form={form} layout="vertical">
        <Form.Item name="reason" label="退回原因" rules={[{ required: true, whitespace: true, message: "请填写退回原因" }]}>
          <Input.TextArea rows={3} maxLength={MAX_REASON} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
