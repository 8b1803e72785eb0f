/**
 * 自动分配: the parameters (N reviews per work, capacity, own province; they become the
 * contest's settings), then the outcome. A complete assignment shows the figures — works,
 * judges, rows added, conflicts (from the check report: 0) and the load of every judge; when
 * no complete assignment exists nothing is written and the server's exact reasons are
 * listed (which works, which constraint), with the choice to write the partial assignment.
 * Existing assignments are kept; only missing judges are added.
 */
import { useEffect, useState } from "react";
import {
  Alert,
  Button,
  Col,
  Descriptions,
  Form,
  InputNumber,
  List,
  Modal,
  Result,
  Row,
  Select,
  Statistic,
  Switch,
  Table,
  Typography,
} from "antd";
import {
  MAX_REVIEWS_PER_WORK,
  type AssignBody,
  type AssignOutcome,
  type CheckReport,
  type JudgeGroupView,
} from "../../../shared/judging/schema";
import { fetchData } from "../../request";
import { A, judgingApi, problemsOf, useJudgingRefresh, useSettings, type Problem } from "./api";
import { ProblemList } from "./AssignParts";

type Phase =
  | { kind: "form" }
  | { kind: "done"; info: string; outcome: AssignOutcome; report: CheckReport | null }
  | { kind: "refused"; info: string; outcome: AssignOutcome | null; problems: Problem[] };

/** The dialog's buttons for each phase: 开始分配; after a refusal 修改参数 and, when some rows could be written, 确认写入部分分配; 关闭. */
function assignFooter(
  phase: Phase,
  busy: boolean,
  {
    onClose,
    onRun,
    onStart,
    onBack,
  }: { onClose: () => void; onRun: (partial: boolean) => unknown; onStart: () => unknown; onBack: () => void },
) {
  return phase.kind === "form"
    ? [
        <Button key="c" onClick={onClose}>
          取消
        </Button>,
        <Button key="ok" type="primary" loading={busy} onClick={onStart} data-testid="auto-assign-run">
          开始分配
        </Button>,
      ]
    : phase.kind === "refused" && phase.outcome && phase.outcome.proposed > 0
      ? [
          <Button key="back" onClick={onBack}>
            修改参数
          </Button>,
          <Button key="partial" danger loading={busy} onClick={() => onRun(true)} data-testid="auto-assign-partial">
            确认写入部分分配（{phase.outcome.proposed} 条）
          </Button>,
          <Button key="close" type="primary" onClick={onClose}>
            关闭
          </Button>,
        ]
      : [
          ...(phase.kind === "refused"
            ? [
                <Button key="back" onClick={onBack}>
                  修改参数
                </Button>,
              ]
            : []),
          <Button key="close" type="primary" onClick={onClose} data-testid="auto-assign-close">
            关闭
          </Button>,
        ];
}

export function AutoAssignModal({
  contestId,
  open,
  workIds,
  groups,
  groupId,
  onClose,
}: {
  contestId: number;
  open: boolean;
  workIds?: number[];
  groups?: JudgeGroupView[];
  groupId?: number;
  onClose: () => void;
}) {
  const settings = useSettings(contestId);
  const refresh = useJudgingRefresh(contestId);
  const [form] = Form.useForm<AssignBody>();
  const [phase, setPhase] = useState<Phase>({ kind: "form" });
  const [busy, setBusy] = useState(false);

  // Each opening starts at the form. The contest's settings fill the form when they arrive, unless
  // the admin has already typed; their refetch after a run must not take the outcome off the screen.
  useEffect(() => {
    if (open) setPhase({ kind: "form" });
  }, [open]);
  useEffect(() => {
    if (open && settings.data && !form.isFieldsTouched()) form.setFieldsValue({ ...settings.data, groupId });
  }, [open, settings.data, form, groupId]);

  const run = async (confirmPartial = false) => {
    const v = form.getFieldsValue(true) as AssignBody;
    setBusy(true);
    const reply = await judgingApi.autoAssign(contestId, {
      reviewsPerWork: v.reviewsPerWork,
      judgeCapacity: v.judgeCapacity ?? null,
      avoidProvince: !!v.avoidProvince,
      ...(workIds?.length ? { workIds } : {}),
      ...(v.groupId ? { groupId: v.groupId } : {}),
      ...(confirmPartial ? { confirmPartial: true } : {}),
    });
    const outcome = reply.data && "applied" in reply.data ? reply.data : null;
    if (reply.error === 0 && outcome) {
      const report = await fetchData<CheckReport>(`${A}/${contestId}/check`).catch(() => null);
      setPhase({ kind: "done", info: reply.info, outcome, report });
      refresh();
    } else {
      setPhase({ kind: "refused", info: reply.info || "自动分配失败", outcome, problems: problemsOf(reply.data) });
    }
    setBusy(false);
  };

  const footer = assignFooter(phase, busy || settings.isLoading, {
    onClose,
    onRun: run,
    onStart: () => form.validateFields().then(() => run()),
    onBack: () => setPhase({ kind: "form" }),
  });

  return (
    <Modal
      open={open}
      title={
        workIds?.length
          ? `为 ${workIds.length} 件评委不足的作品补足评委`
          : groupId
            ? `自动分配「${groups?.find((g) => g.id === groupId)?.name ?? ""}」的评委`
            : "自动分配评委"
      }
      width={phase.kind === "form" ? 560 : 820}
      onCancel={onClose}
      footer={footer}
      destroyOnHidden
      data-testid="auto-assign-modal"
    >
      {phase.kind === "form" && (
        <>
          <div style={{ color: "rgba(0,0,0,0.55)", marginBottom: 16 }} data-testid="auto-assign-explain">
            系统为每件作品挑选 N 位评委：
            <ul style={{ margin: "4px 0", paddingInlineStart: 20 }}>
              <li>
                只挑作品所在评审组的评委，不挑与作品有回避关系的评委（本校、本人指导或参与、申报回避；开启“回避本省作品”时还有同省）；
              </li>
              <li>尽量让每位评委分到的作品数相近（最多与最少相差不超过 1 件）；</li>
              <li>已有的分配保留，只补足缺额。</li>
            </ul>
            评委不够分时，不写入任何分配，并说明缺在哪个评审组：可以为该组增加评委、调低每件作品评审次数
            N，或提高每位评委最多作品数后再试。
          </div>
          <Form
            form={form}
            layout="vertical"
            initialValues={{ ...(settings.data ?? { reviewsPerWork: 3, judgeCapacity: null, avoidProvince: false }), groupId }}
          >
            {!workIds?.length && groups && (
              <Form.Item name="groupId" label="分配范围" extra="可以先为已准备好的评审组分配">
                <Select
                  allowClear
                  placeholder="全部评审组的作品"
                  options={groups.map((g) => ({
                    value: g.id,
                    label: `${g.name}（${g.workCount} 件作品，${g.judges.length} 位评委）`,
                  }))}
                  data-testid="auto-assign-scope"
                />
              </Form.Item>
            )}
            <Row gutter={16}>
              <Col span={8}>
                <Form.Item name="reviewsPerWork" label="每件作品评审次数 N" rules={[{ required: true, message: "请填写" }]}>
                  <InputNumber min={1} max={MAX_REVIEWS_PER_WORK} style={{ width: "100%" }} data-testid="auto-assign-n" />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="judgeCapacity" label="每位评委最多作品数">
                  <InputNumber min={1} max={100000} placeholder="不限" style={{ width: "100%" }} />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="avoidProvince" label="回避本省作品" valuePropName="checked">
                  <Switch />
                </Form.Item>
              </Col>
            </Row>
          </Form>
        </>
      )}
      {phase.kind === "done" && <Done info={phase.info} outcome={phase.outcome} report={phase.report} />}
      {phase.kind === "refused" && <Refused info={phase.info} outcome={phase.outcome} problems={phase.problems} />}
    </Modal>
  );
}

function Done({ info, outcome, report }: { info: string; outcome: AssignOutcome; report: CheckReport | null }) {
  const conflicts = report?.summary.conflicts ?? null;
  return (
    <div data-testid="auto-assign-result">
      <Result status={outcome.complete ? "success" : "warning"} title={info} style={{ padding: "8px 0 16px" }} />
      <Row gutter={16} style={{ marginBottom: 16 }}>
        <Col span={4}>
          <Statistic title="作品" value={outcome.works} />
        </Col>
        <Col span={4}>
          <Statistic title="评委" value={outcome.judges} />
        </Col>
        <Col span={4}>
          <Statistic title="新增分配" value={outcome.added} />
        </Col>
        <Col span={4}>
          <div data-testid="auto-assign-conflicts">
            <Statistic title="回避冲突" value={conflicts ?? "—"} valueStyle={{ color: conflicts ? "#cf1322" : "#237804" }} />
          </div>
        </Col>
        <Col span={8}>
          <Statistic title="工作量（最少–最多，相差）" value={`${outcome.minLoad}–${outcome.maxLoad}（${outcome.loadSpread}）`} />
        </Col>
      </Row>
      {outcome.issues.length > 0 && <IssueList issues={outcome.issues} />}
      {report && (
        <Table
          size="small"
          rowKey="judgeId"
          dataSource={report.judgeLoads}
          pagination={report.judgeLoads.length > 10 ? { pageSize: 10 } : false}
          title={() => "每位评委的工作量"}
          data-testid="auto-assign-loads"
          columns={[
            { title: "评委", dataIndex: "name" },
            { title: "学校", dataIndex: "schoolName", render: (s: string | null) => s ?? "无" },
            { title: "评审组", dataIndex: "groups", render: (g: string[]) => g.join("、") || "—" },
            { title: "作品数", dataIndex: "load", width: 90 },
            { title: "上限", dataIndex: "capacity", width: 80, render: (c: number | null) => c ?? "不限" },
          ]}
        />
      )}
    </div>
  );
}

function IssueList({ issues }: { issues: AssignOutcome["issues"] }) {
  return (
    <List
      size="small"
      bordered
      style={{ marginBottom: 16 }}
      header={<Typography.Text strong>原因</Typography.Text>}
      dataSource={issues}
      data-testid="auto-assign-issues"
      renderItem={(i) => (
        <List.Item>
          <Typography.Text>{i.message}</Typography.Text>
        </List.Item>
      )}
    />
  );
}

function Refused({ info, outcome, problems }: { info: string; outcome: AssignOutcome | null; problems: Problem[] }) {
  return (
    <div data-testid="auto-assign-refused">
      {outcome ? (
        <Alert type="error" showIcon message={info} style={{ marginBottom: 16 }} />
      ) : (
        <ProblemList info={info} problems={problems} />
      )}
      {outcome && (
        <>
          {/* The sentence above names the first reason; the list gives them all when there are more. */}
          {outcome.issues.some((i) => !info.includes(i.message)) && <IssueList issues={outcome.issues} />}
          <Descriptions size="small" column={3} bordered>
            <Descriptions.Item label="参与分配的作品">{outcome.works}</Descriptions.Item>
            <Descriptions.Item label="评委">{outcome.judges}</Descriptions.Item>
            <Descriptions.Item label="可写入的分配">{outcome.proposed}</Descriptions.Item>
            <Descriptions.Item label="评委不足的作品" span={3}>
              {outcome.shortfalls.length
                ? `${outcome.shortfalls
                    .slice(0, 10)
                    .map((s) => `${s.workId}（需 ${s.needed}，可分 ${s.proposed}）`)
                    .join("、")}${outcome.shortfalls.length > 10 ? ` 等 ${outcome.shortfalls.length} 件` : ""}`
                : "无"}
            </Descriptions.Item>
          </Descriptions>
          {outcome.proposed > 0 && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
              可以先调整评审组的评委或参数后重试；也可以确认写入这 {outcome.proposed} 条分配，评委不足的作品稍后在检查报告中补足。
            </Typography.Paragraph>
          )}
        </>
      )}
    </div>
  );
}
