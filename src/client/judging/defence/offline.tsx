/**
 * /judge/Offline/:contestId: the defence session of each of the judge's groups in the
 * contest — time, place, the drawn order with each work's time, the defence material, and
 * per work the judge's score (0–100), recommendation (强烈推荐/推荐/不推荐) and comment,
 * editable until the group leader signs off. Works the judge must avoid are not listed
 * (the server leaves them out). The leader draws the order here and opens the group sheet.
 */
import { useState } from "react";
import { useParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  App,
  Button,
  Card,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Progress,
  Radio,
  Result,
  Skeleton,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from "antd";
import { EditOutlined, FileTextOutlined, ThunderboltOutlined } from "@ant-design/icons";
import {
  RECOMMENDATION_NAMES,
  RECOMMENDATIONS,
  type JudgeSession,
  type JudgeSlot,
  type ScoreBody,
} from "../../../shared/judging/defence-schema";
import { sizeText } from "../../../shared/work/files";
import type { ButtonProps, TableColumnsType } from "antd";
import type { PageProps } from "../../routing/model";
import { fieldOf } from "../../request";
import { defenceApi, defenceKeys, judgeFileUrl, sheetPath, timeText, useMySessions } from "./api";
import { RecommendationTag, SessionInfo } from "./SessionInfo";

function ScoreModal({ session, slot, onClose }: { session: JudgeSession; slot: JudgeSlot; onClose: () => void }) {
  const [form] = Form.useForm<ScoreBody>();
  const [busy, setBusy] = useState(false);
  const { message } = App.useApp();
  const qc = useQueryClient();
  const save = async (v: ScoreBody) => {
    setBusy(true);
    const r = await defenceApi.score(session.id, slot.work.id, {
      score: v.score,
      recommendation: v.recommendation,
      comment: v.comment ?? "",
    });
    setBusy(false);
    if (r.error !== 0) {
      const field = fieldOf(r);
      if (field) form.setFields([{ name: field as keyof ScoreBody, errors: [r.info] }]);
      else message.error(r.info);
      return;
    }
    message.success(r.info);
    await qc.invalidateQueries({ queryKey: defenceKeys.mine(session.contest.id) });
    onClose();
  };
  return (
    <Modal
      open
      title={`答辩评分：${slot.work.name}`}
      okText="保存评分"
      cancelText="取消"
      onOk={() => form.submit()}
      confirmLoading={busy}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ "data-testid": "score-save" } as ButtonProps}
    >
      <Typography.Paragraph type="secondary">
        作品 {slot.work.id} · {slot.work.category}
        {slot.work.subcategory ? ` / ${slot.work.subcategory}` : ""}
        {slot.position ? ` · 第 ${slot.position} 位，${timeText(slot.time, false)}` : ""}
      </Typography.Paragraph>
      <Form<ScoreBody>
        form={form}
        layout="vertical"
        onFinish={save}
        initialValues={
          slot.mine
            ? { score: slot.mine.score, recommendation: slot.mine.recommendation, comment: slot.mine.comment }
            : { comment: "" }
        }
        data-testid="score-form"
      >
        <Form.Item
          name="score"
          label="评分（0–100）"
          rules={[
            { required: true, message: "请填写评分" },
            { type: "number", min: 0, max: 100, message: "评分须在 0 到 100 之间" },
          ]}
        >
          <InputNumber min={0} max={100} step={0.5} precision={1} style={{ width: 160 }} autoFocus data-testid="score-input" />
        </Form.Item>
        <Form.Item name="recommendation" label="推荐意见" rules={[{ required: true, message: "请选择推荐意见" }]}>
          <Radio.Group optionType="button" buttonStyle="solid" data-testid="recommendation">
            {RECOMMENDATIONS.map((r) => (
              <Radio.Button key={r} value={r} data-testid={`rec-${r}`}>
                {RECOMMENDATION_NAMES[r]}
              </Radio.Button>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item name="comment" label="评语" rules={[{ max: 1000, message: "评语不能超过 1000 个字" }]}>
          <Input.TextArea
            rows={4}
            showCount
            maxLength={1000}
            placeholder="对作品和答辩表现的意见（选填）"
            data-testid="score-comment"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The judge's slots: order, time, work, files, my score and 评分/修改 (disabled with the reason while scoring is closed). */
function judgeSlotColumns(
  s: JudgeSession,
  { canScore, whyLocked, onScore }: { canScore: boolean; whyLocked: string; onScore: (x: JudgeSlot) => void },
): TableColumnsType<JudgeSlot> {
  return [
    { title: "顺序", dataIndex: "position", width: 64, render: (p: number | null) => p ?? "—" },
    { title: "时间", dataIndex: "time", width: 72, render: (t: string | null) => timeText(t, false) },
    { title: "作品编号", width: 120, render: (_, x) => x.work.id },
    {
      title: "作品",
      render: (_, x) => (
        <Space direction="vertical" size={0}>
          <span data-testid="slot-name">{x.work.name}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {[x.work.category, x.work.subcategory].filter(Boolean).join(" / ")}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: "答辩材料",
      width: 170,
      render: (_, x) =>
        x.files.filter((f) => f.current).length ? (
          x.files
            .filter((f) => f.current)
            .map((f) => (
              <div key={f.id}>
                <a href={judgeFileUrl(s.id, x.work.id, f.id)}>{f.filename}</a>{" "}
                <Typography.Text type="secondary">（{sizeText(f.size)}）</Typography.Text>
              </div>
            ))
        ) : (
          <Typography.Text type="secondary">未上传</Typography.Text>
        ),
    },
    {
      title: "我的评分",
      width: 190,
      render: (_, x) =>
        x.mine ? (
          <Space size={4} wrap data-testid="my-score">
            <b>{x.mine.score}</b>
            <RecommendationTag value={x.mine.recommendation} />
            {x.mine.comment && (
              <Tooltip title={x.mine.comment}>
                <Typography.Text type="secondary" ellipsis style={{ maxWidth: 80 }}>
                  {x.mine.comment}
                </Typography.Text>
              </Tooltip>
            )}
          </Space>
        ) : (
          <Typography.Text type="secondary">未评分</Typography.Text>
        ),
    },
    {
      title: "操作",
      width: 100,
      render: (_, x) => (
        <Tooltip title={whyLocked}>
          <Button
            size="small"
            type={x.mine ? "default" : "primary"}
            icon={<EditOutlined />}
            disabled={!canScore}
            onClick={() => onScore(x)}
            data-testid={`score-${x.work.id}`}
          >
            {x.mine ? "修改" : "评分"}
          </Button>
        </Tooltip>
      ),
    },
  ];
}

function SessionCard({ s }: { s: JudgeSession }) {
  const [editing, setEditing] = useState<JudgeSlot | null>(null);
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const locked = !!s.signOff;
  const canScore = s.isMember && !locked && !!s.draw;
  const total = s.isMember ? s.slots.length : 0;

  const draw = () =>
    modal.confirm({
      title: s.draw ? "重新抽签？" : "抽签确定答辩顺序？",
      content: s.draw
        ? "重新抽签会替换当前的答辩顺序和时间；已开始评分后不能重新抽签。"
        : "系统用密码学随机数生成种子并记录，顺序可由种子复核。",
      okText: s.draw ? "重新抽签" : "抽签",
      cancelText: "取消",
      onOk: async () => {
        const r = await defenceApi.draw(s.id, !!s.draw);
        if (r.error !== 0) return void message.error(r.info);
        message.success(r.info);
        await qc.invalidateQueries({ queryKey: defenceKeys.mine(s.contest.id) });
      },
    });

  const whyLocked = locked
    ? "专家组长已签署，评分不能再修改"
    : !s.draw
      ? "答辩顺序尚未抽签"
      : !s.isMember
        ? "您不是本组的评委成员"
        : "";

  return (
    <Card
      title={
        <Space wrap>
          <span>{s.group.name} · 现场答辩</span>
          {s.isLeader && <Tag color="gold">专家组长</Tag>}
        </Space>
      }
      extra={
        <Space wrap>
          {s.isLeader && !locked && (
            <Button icon={<ThunderboltOutlined />} onClick={draw} data-testid="draw-button">
              {s.draw ? "重新抽签" : "抽签"}
            </Button>
          )}
          {s.isLeader && (
            <a href={sheetPath(s.id)} target="_blank" rel="noreferrer">
              <Button type="primary" icon={<FileTextOutlined />} data-testid="open-sheet">
                结果汇总与签署
              </Button>
            </a>
          )}
        </Space>
      }
      data-testid={`session-${s.id}`}
    >
      <Space direction="vertical" size={16} style={{ width: "100%" }}>
        <SessionInfo s={s} />
        {s.avoided > 0 && (
          <Alert
            type="info"
            showIcon
            message={`本组另有 ${s.avoided} 件作品与您存在回避关系（本校、指导或申报回避），不在此列出，您无需评分。`}
          />
        )}
        {s.isMember && (
          <div>
            <Typography.Text>
              我的评分进度：已评 <b data-testid="scored-count">{s.scored}</b> / {total}
            </Typography.Text>
            <Progress
              aria-label="我的评分进度"
              percent={total ? Math.round((s.scored / total) * 100) : 0}
              status={total && s.scored === total ? "success" : "active"}
            />
          </div>
        )}
        <Table<JudgeSlot>
          rowKey={(x) => x.work.id}
          dataSource={s.slots}
          pagination={false}
          size="middle"
          data-testid="slots"
          locale={{ emptyText: "没有需要您评分的作品" }}
          columns={judgeSlotColumns(s, { canScore, whyLocked, onScore: setEditing })}
        />
      </Space>
      {editing && <ScoreModal session={s} slot={editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}

export default function Offline({ route }: PageProps) {
  const { contestId } = useParams();
  const id = /^\d+$/.test(contestId ?? "") ? Number(contestId) : 0;
  const q = useMySessions(id);
  if (!id) return <Result status="404" title="赛事不存在" />;
  if (q.isLoading)
    return (
      <Card title={route.label}>
        <Skeleton active />
      </Card>
    );
  if (q.error)
    return (
      <Card title={route.label}>
        <Result status="404" title={q.error.message} />
      </Card>
    );
  const list = q.data ?? [];
  if (!list.length)
    return (
      <Card title={route.label}>
        <Empty description="您所在的评审组尚未安排现场答辩" />
      </Card>
    );
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="offline-page">
      <Typography.Title level={4} style={{ margin: 0 }}>
        {route.label} · {list[0].contest.name}
      </Typography.Title>
      {list.map((s) => (
        <SessionCard key={s.id} s={s} />
      ))}
    </Space>
  );
}
