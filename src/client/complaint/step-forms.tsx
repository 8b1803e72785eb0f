/**
 * The handlers' written steps (StepForms.tsx shows them for the steps the view's `actions`
 * list): the reviewer's opinion, the complaint admin's decision (prefilled from the opinion)
 * and the arbitrator's ruling. Each form hands its request to `onSubmit`, which sends it and
 * reports busy/done; the version is the view's.
 */
import { Button, Form, Input, Popconfirm, Radio, Typography } from "antd";
import type { HandlerComplaintView } from "../../shared/complaint/schema";
import { ARBITRATION_OUTCOMES, ARBITRATION_OUTCOME_NAMES, TEXT_MAX } from "../../shared/complaint/states";
import { arbitrate, decide, giveOpinion } from "./api";
import { textProblem } from "./logic";
import { OutcomeFields } from "./OutcomeFields";
import { filerWord } from "../../shared/complaint/labels";

interface StepFormProps {
  c: HandlerComplaintView;
  busy: boolean;
  /** sends the step's request (and refreshes when it succeeded) */
  onSubmit: (p: Promise<{ error: number }>) => Promise<boolean>;
}

const textRule = (what: string) => ({
  validator: (_: unknown, v: string) => {
    const p = textProblem(v, what);
    return p ? Promise.reject(new Error(p)) : Promise.resolve();
  },
});

/** 审核意见: outcome, action and the reviewer's reasons. */
export function OpinionForm({ c, busy, onSubmit }: StepFormProps) {
  const [form] = Form.useForm();
  const version = c.version;
  return (
    <Form
      form={form}
      layout="vertical"
      data-testid="opinion-form"
      onFinish={(v) => void onSubmit(giveOpinion(c.id, { ...v, text: v.text.trim(), version }))}
    >
      <Typography.Title level={5}>审核意见</Typography.Title>
      <OutcomeFields award={false} />
      <Form.Item label="意见与理由" name="text" required rules={[textRule("审核意见")]}>
        <Input.TextArea rows={5} maxLength={TEXT_MAX} showCount data-testid="opinion-text" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} data-testid="opinion-submit">
        提交审核意见
      </Button>
    </Form>
  );
}

/** 处理决定: outcome, action (with the new award) and reasons, confirmed before it is sent. */
export function DecisionForm({ c, busy, onSubmit }: StepFormProps) {
  const [form] = Form.useForm();
  const version = c.version;
  return (
    <Form
      form={form}
      layout="vertical"
      data-testid="decision-form"
      initialValues={c.opinion ? { outcome: c.opinion.outcome, action: c.opinion.action } : undefined}
      onFinish={(v) =>
        void onSubmit(
          decide(c.id, {
            outcome: v.outcome,
            action: v.action,
            text: v.text.trim(),
            ...(v.action === "change_award" ? { awardLevelId: v.awardLevelId ?? null } : {}),
            version,
          }),
        )
      }
    >
      <Typography.Title level={5}>处理决定</Typography.Title>
      {c.opinion && <Typography.Paragraph type="secondary">已按审核意见预填结论和处理方式，可修改。</Typography.Paragraph>}
      <OutcomeFields award level={c.contestLevel} />
      <Form.Item label="决定理由" name="text" required rules={[textRule("决定理由")]}>
        <Input.TextArea rows={5} maxLength={TEXT_MAX} showCount data-testid="decision-text" />
      </Form.Item>
      <Popconfirm
        title={`决定作出后处理措施立即执行，并通知${filerWord(c.type)}和作品第一作者。确定提交？`}
        onConfirm={() => form.submit()}
      >
        <Button type="primary" loading={busy} data-testid="decision-submit">
          提交决定
        </Button>
      </Popconfirm>
    </Form>
  );
}

/** 仲裁裁决: uphold or revise (with a revised outcome and action), and reasons. */
export function ArbitrationForm({ c, busy, onSubmit }: StepFormProps) {
  const [form] = Form.useForm();
  const arbOutcome = Form.useWatch("outcome", form);
  const version = c.version;
  return (
    <Form
      form={form}
      layout="vertical"
      data-testid="arbitration-form"
      onFinish={(v) =>
        void onSubmit(
          arbitrate(c.id, {
            outcome: v.outcome,
            text: v.text.trim(),
            ...(v.outcome === "revise"
              ? {
                  revisedOutcome: v.revisedOutcome,
                  revisedAction: v.revisedAction,
                  ...(v.revisedAction === "change_award" ? { awardLevelId: v.awardLevelId ?? null } : {}),
                }
              : {}),
            version,
          }),
        )
      }
    >
      <Typography.Title level={5}>仲裁裁决</Typography.Title>
      <Form.Item label="仲裁结论" name="outcome" rules={[{ required: true, message: "请选择仲裁结论" }]}>
        <Radio.Group
          options={ARBITRATION_OUTCOMES.map((o) => ({ value: o, label: ARBITRATION_OUTCOME_NAMES[o] }))}
          data-testid="arbitration-outcome"
        />
      </Form.Item>
      {arbOutcome === "revise" && <OutcomeFields prefix="revised" award level={c.contestLevel} />}
      <Form.Item label="仲裁理由" name="text" required rules={[textRule("仲裁理由")]}>
        <Input.TextArea rows={5} maxLength={TEXT_MAX} showCount data-testid="arbitration-text" />
      </Form.Item>
      <Typography.Paragraph type="secondary">仲裁裁决为最终结果，经超级管理员确认后生效。</Typography.Paragraph>
      <Button type="primary" htmlType="submit" loading={busy} data-testid="arbitration-submit">
        提交仲裁裁决
      </Button>
    </Form>
  );
}
