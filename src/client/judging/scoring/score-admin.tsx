/**
 * /ContestAdmin/OnlineJudging/:contestId (contest admins of the contest): online judging
 * progress — per work (each judge's score status and total, the raw mean) and per judge —
 * reopening a submitted score with a reason, and the check of the hash-chained score log.
 * The tables are in score-admin-tables.tsx.
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
  Tabs,
  Typography,
} from "antd";
import { SafetyCertificateOutlined } from "@ant-design/icons";
import { MAX_REASON, type AdminScoreRow, type ScoreLogCheck } from "../../../shared/judging/score-schema";
import type { PageProps } from "../../routing/model";
import { judgingKeys, scoreApi, useAdminScores } from "./api";
import { WindowText } from "./parts";
import { ScoreJudgesTable, ScoreWorksTable } from "./score-admin-tables";

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
              <Statistic title="已提交" value={s.submitted} valueStyle={{ color: "#237804" }} />
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
          <Progress aria-label="评分提交进度" percent={s.assignments ? Math.round((s.submitted / s.assignments) * 100) : 0} />
        </Space>
      </Card>
      <Card>
        <Tabs
          items={[
            {
              key: "works",
              label: "按作品",
              children: <ScoreWorksTable works={v.works} onReopen={setReopening} />,
            },
            {
              key: "judges",
              label: "按评委",
              children: <ScoreJudgesTable judges={v.judges} />,
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
