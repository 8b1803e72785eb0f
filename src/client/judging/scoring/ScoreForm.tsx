/**
 * The judge's score of one work: one number per rubric item (its maximum shown), the
 * category's deductions, a comment, the live total; 保存草稿 (items may be left empty) and
 * 提交 (every item, after a confirmation). A submitted score is shown read-only; only the
 * contest admin can reopen it. The server checks everything again and its sentence is shown.
 */
import { useMemo, useState } from "react";
import {
  App,
  Alert,
  Button,
  Checkbox,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from "antd";
import { CheckCircleOutlined, SaveOutlined, SendOutlined } from "@ant-design/icons";
import type { JudgeWorkView } from "../../../shared/judging/schema";
import { MAX_COMMENT, oneDecimal, scoreTotal, type MyScore, type ScoreBody } from "../../../shared/judging/score-schema";
import { scoreApi } from "./api";
import { fmtShortTime, fmtTime } from "../../format";

type Values = { items: Record<string, number | null | undefined>; deductions: string[]; comment: string };

interface Props {
  contestId: number;
  work: JudgeWorkView;
  score: MyScore;
  /** after a save or submit (the new score), or when the score should be reloaded (null) */
  onChanged: (score: MyScore | null) => void;
}

export function ScoreForm({ contestId, work, score, onChanged }: Props) {
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState<"draft" | "submit" | null>(null);
  const rubric = work.rubric;
  const initial: Values = useMemo(
    () => ({
      items: Object.fromEntries(rubric.items.map((i) => [String(i.id), score.items[String(i.id)] ?? null])),
      deductions: score.deductions,
      comment: score.comment,
    }),
    [rubric.items, score],
  );
  const watched = Form.useWatch([], form) as Values | undefined;
  const current = watched?.items ? watched : initial;
  const filled = Object.fromEntries(Object.entries(current.items ?? {}).filter(([, v]) => typeof v === "number")) as Record<
    string,
    number
  >;
  const taken = rubric.deductions.filter((d) => (current.deductions ?? []).includes(d.name)).map((d) => d.points);
  const total = Object.keys(filled).length ? scoreTotal(filled, taken) : null;
  const missing = rubric.items.filter((i) => typeof current.items?.[String(i.id)] !== "number");

  if (score.status === "submitted") return <SubmittedScore work={work} score={score} />;
  if (!rubric.items.length)
    return <Alert type="warning" showIcon message="本作品类别尚未设置评分标准，暂不能评分，请联系赛事管理员" />;

  const bodyOf = (v: Values): ScoreBody => ({
    items: Object.fromEntries(Object.entries(v.items ?? {}).filter(([, x]) => typeof x === "number")) as Record<string, number>,
    deductions: v.deductions ?? [],
    comment: v.comment ?? "",
    version: score.version,
  });

  const send = async (kind: "draft" | "submit") => {
    setBusy(kind);
    try {
      const v = form.getFieldsValue(true) as Values;
      const r =
        kind === "draft"
          ? await scoreApi.saveDraft(contestId, work.id, bodyOf(v))
          : await scoreApi.submit(contestId, work.id, bodyOf(v));
      if (r.error === 0 && r.data) {
        message.success(r.info);
        onChanged(r.data);
      } else {
        message.error(r.info || "保存失败");
        if (r.status === 409 || r.status === 400) onChanged(null);
      }
    } finally {
      setBusy(null);
    }
  };

  const saveDraft = async () => {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    await send("draft");
  };

  const submit = async () => {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    if (missing.length) {
      message.error(`「${missing[0].name}」尚未评分，请为全部评分项打分后再提交`);
      return;
    }
    modal.confirm({
      title: "确认提交评分？",
      content: `总分 ${total} 分。提交后不能再修改，如需修改须由赛事管理员退回。`,
      okText: "确认提交",
      cancelText: "再看看",
      onOk: () => send("submit"),
    });
  };

  const closed = !score.window.open;
  return (
    <Form form={form} layout="vertical" initialValues={initial} disabled={closed} data-testid="score-form">
      {score.reopenReason && score.status === "draft" && (
        <Alert
          style={{ marginBottom: 12 }}
          type="warning"
          showIcon
          message={`赛事管理员已退回您的评分：${score.reopenReason}`}
          description="请修改后重新提交。"
          data-testid="reopen-reason"
        />
      )}
      {closed && <Alert style={{ marginBottom: 12 }} type="warning" showIcon message={score.window.message} />}
      <RubricTable items={rubric.items} />
      {rubric.deductions.length > 0 && (
        <Form.Item name="deductions" label="扣分项">
          <Checkbox.Group options={rubric.deductions.map((d) => ({ value: d.name, label: `${d.name}（扣 ${d.points} 分）` }))} />
        </Form.Item>
      )}
      <Form.Item name="comment" label="评语">
        <Input.TextArea rows={3} maxLength={MAX_COMMENT} showCount placeholder="作品的优点与不足（选填）" />
      </Form.Item>
      <Space align="center" size="large" wrap>
        <Statistic
          title={`总分（满分 ${rubric.total}）`}
          value={total ?? "—"}
          valueStyle={{ color: "#0958d9" }}
          data-testid="live-total"
        />
        {missing.length > 0 && <Typography.Text type="secondary">尚有 {missing.length} 项未评分</Typography.Text>}
        <Button
          icon={<SaveOutlined />}
          onClick={saveDraft}
          loading={busy === "draft"}
          disabled={closed || busy !== null}
          data-testid="save-draft"
        >
          保存草稿
        </Button>
        <Button
          type="primary"
          icon={<SendOutlined />}
          onClick={submit}
          loading={busy === "submit"}
          disabled={closed || busy !== null}
          data-testid="submit-score"
        >
          提交
        </Button>
        {score.updatedAt && <Typography.Text type="secondary">上次保存：{fmtShortTime(score.updatedAt)}</Typography.Text>}
      </Space>
    </Form>
  );
}

function SubmittedScore({ work, score }: { work: JudgeWorkView; score: MyScore }) {
  return (
    <div data-testid="score-submitted">
      <Alert
        type="success"
        showIcon
        icon={<CheckCircleOutlined />}
        style={{ marginBottom: 12 }}
        message={
          <Space>
            <Tag color="green">已提交</Tag>
            <span>
              总分 <b>{score.total}</b> 分
            </span>
          </Space>
        }
        description={`提交时间：${score.submittedAt ? fmtTime(score.submittedAt) : "—"}。提交后不能修改；如需修改请联系赛事管理员退回。`}
      />
      <Descriptions size="small" column={1} bordered>
        {work.rubric.items.map((i) => (
          <Descriptions.Item key={i.id} label={`${i.name}（满分 ${i.maxPoints}）`}>
            {score.items[String(i.id)] ?? "—"}
          </Descriptions.Item>
        ))}
        <Descriptions.Item label="扣分项">
          {score.deductions.length
            ? score.deductions
                .map((d) => `${d}（扣 ${work.rubric.deductions.find((x) => x.name === d)?.points ?? "?"} 分）`)
                .join("、")
            : "无"}
        </Descriptions.Item>
        <Descriptions.Item label="评语">
          <span style={{ whiteSpace: "pre-wrap" }}>{score.comment || "—"}</span>
        </Descriptions.Item>
      </Descriptions>
    </div>
  );
}

type RubricItem = JudgeWorkView["rubric"]["items"][number];

/** One row per rubric item: its name and description, and the score field (one decimal at most, its maximum shown). */
function RubricTable({ items }: { items: RubricItem[] }) {
  return (
    <Table size="small" rowKey="id" pagination={false} dataSource={items} style={{ marginBottom: 12 }}>
      <Table.Column<JudgeWorkView["rubric"]["items"][number]>
        title="评分项"
        render={(_, i) => (
          <>
            <Typography.Text strong>{i.name}</Typography.Text>
            {i.description && (
              <div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {i.description}
                </Typography.Text>
              </div>
            )}
          </>
        )}
      />
      <Table.Column<JudgeWorkView["rubric"]["items"][number]>
        title="得分"
        width={190}
        render={(_, i) => (
          <Form.Item
            name={["items", String(i.id)]}
            style={{ margin: 0 }}
            rules={[
              {
                validator: async (_r, v) =>
                  v === null || v === undefined || oneDecimal(v) ? undefined : Promise.reject(new Error("最多保留一位小数")),
              },
            ]}
          >
            <InputNumber
              min={0}
              max={i.maxPoints}
              step={1}
              style={{ width: 160 }}
              addonAfter={`/ ${i.maxPoints}`}
              placeholder="0"
              aria-label={i.name}
              data-testid={`item-${i.name}`}
            />
          </Form.Item>
        )}
      />
    </Table>
  );
}
