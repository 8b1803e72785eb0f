/**
 * The handlers' step forms, shown for the steps the server lists in the view's `actions`
 * (its state machine and the caller's role decide): 受理 / 不予受理 / 结案 / 确认 / 退回
 * (a reason where the step needs one), the reviewer's opinion, the complaint admin's
 * decision with its action, the arbitrator's ruling. Each carries the view's version.
 */
import { useState } from "react";
import { Alert, Button, Form, Input, Modal, Popconfirm, Radio, Select, Space, Typography } from "antd";
import type { HandlerComplaintView } from "../../shared/complaint/schema";
import {
  ARBITRATION_OUTCOMES,
  ARBITRATION_OUTCOME_NAMES,
  COMPLAINT_TRANSITIONS,
  DECISION_ACTIONS,
  DECISION_ACTION_NAMES,
  DECISION_OUTCOMES,
  DECISION_OUTCOME_NAMES,
  TEXT_MAX,
  actionAllowed,
  type ComplaintAction,
  type DecisionAction,
  type DecisionOutcome,
} from "../../shared/complaint/states";
import { applyRejudge, arbitrate, decide, giveOpinion, handlerStep, useAwardLevels, type HandlerDesk } from "./api";
import { textProblem } from "./logic";

/** Which steps each screen offers. */
export const DESK_STEPS: Record<HandlerDesk, readonly ComplaintAction[]> = {
  manage: ["accept", "refuse", "opinion", "decide", "close"],
  arbitrate: ["arbitrate"],
  review: ["confirm", "return"],
};

const textRule = (what: string) => ({
  validator: (_: unknown, v: string) => {
    const p = textProblem(v, what);
    return p ? Promise.reject(new Error(p)) : Promise.resolve();
  },
});

/** Outcome + action pickers; a rejected complaint changes nothing. */
function OutcomeFields({ prefix = "", award }: { prefix?: string; award: boolean }) {
  const form = Form.useFormInstance();
  const outcomeName = prefix ? `${prefix}Outcome` : "outcome";
  const actionName = prefix ? `${prefix}Action` : "action";
  const outcome: DecisionOutcome | undefined = Form.useWatch(outcomeName, form);
  const action: DecisionAction | undefined = Form.useWatch(actionName, form);
  const awards = useAwardLevels(award && action === "change_award");
  return (
    <>
      <Form.Item label="结论" name={outcomeName} rules={[{ required: true, message: "请选择结论" }]}>
        <Radio.Group
          options={DECISION_OUTCOMES.map((o) => ({ value: o, label: DECISION_OUTCOME_NAMES[o] }))}
          onChange={(e) => e.target.value === "rejected" && form.setFieldValue(actionName, "no_change")}
          data-testid={`${prefix || "decision"}-outcome`}
        />
      </Form.Item>
      <Form.Item label="处理" name={actionName} rules={[{ required: true, message: "请选择处理方式" }]}>
        <Radio.Group
          options={DECISION_ACTIONS.map((a) => ({
            value: a,
            label: DECISION_ACTION_NAMES[a],
            disabled: !!outcome && !actionAllowed(outcome, a),
          }))}
          data-testid={`${prefix || "decision"}-action`}
        />
      </Form.Item>
      {award && action === "change_award" && (
        <Form.Item label="新奖项" name="awardLevelId" extra="不选择表示取消奖项">
          <Select
            allowClear
            style={{ width: 240 }}
            loading={awards.isLoading}
            placeholder="无奖项"
            options={(awards.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
          />
        </Form.Item>
      )}
      {award && action === "rejudge" && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="重新评审将由系统选派无回避冲突的新评委（不含该作品以往的全部评委），新的评分将取代原评分。"
        />
      )}
      {award && action === "disqualify" && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message="取消作品资格将撤销其奖项，并生成该组结果的新公布版本。"
        />
      )}
    </>
  );
}

export function StepForms({ c, desk, onDone }: { c: HandlerComplaintView; desk: HandlerDesk; onDone: () => void }) {
  const steps = c.actions.filter((a) => DESK_STEPS[desk].includes(a));
  // A re-judge waiting for its scores: whoever may close the decided complaint (the complaint admin, root) applies them.
  const rejudgePending =
    desk === "manage" && !!c.decision?.rejudge && !c.decision.rejudge.appliedAt && c.actions.includes("close");
  const [reasonStep, setReasonStep] = useState<"refuse" | "return" | null>(null);
  const [busy, setBusy] = useState(false);
  const [reasonForm] = Form.useForm<{ reason: string }>();
  const [opinionForm] = Form.useForm();
  const [decisionForm] = Form.useForm();
  const [arbForm] = Form.useForm();
  const arbOutcome = Form.useWatch("outcome", arbForm);

  if (!steps.length && !rejudgePending) return null;
  const version = c.version;
  const done = async (p: Promise<{ error: number }>) => {
    setBusy(true);
    const reply = await p;
    setBusy(false);
    if (reply.error === 0) onDone();
    return reply.error === 0;
  };
  const simple = (step: "accept" | "close" | "confirm") => void done(handlerStep(desk, c.id, step, { version }));

  return (
    <div data-testid="step-forms">
      <Space wrap style={{ marginBottom: 12 }}>
        {steps.includes("accept") && (
          <Popconfirm title="受理该申诉/投诉？" onConfirm={() => simple("accept")}>
            <Button type="primary" loading={busy} data-testid="step-accept">
              受理
            </Button>
          </Popconfirm>
        )}
        {steps.includes("refuse") && (
          <Button danger onClick={() => setReasonStep("refuse")} data-testid="step-refuse">
            不予受理
          </Button>
        )}
        {rejudgePending && (
          <Popconfirm
            title="所有新评委提交评分后，用新评分替换原评分并重新计算该组结果，确定？"
            onConfirm={() => void done(applyRejudge(c.id, version))}
          >
            <Button type="primary" loading={busy} data-testid="step-rejudge-result">
              以重新评审成绩替换原成绩
            </Button>
          </Popconfirm>
        )}
        {steps.includes("close") && (
          <Popconfirm title="仲裁申请期已过，确认结案？" onConfirm={() => simple("close")}>
            <Button loading={busy} data-testid="step-close">
              结案
            </Button>
          </Popconfirm>
        )}
        {steps.includes("confirm") && (
          <Popconfirm title="确认后仲裁结果立即生效，确定？" onConfirm={() => simple("confirm")}>
            <Button type="primary" loading={busy} data-testid="step-confirm">
              确认仲裁结果
            </Button>
          </Popconfirm>
        )}
        {steps.includes("return") && (
          <Button danger onClick={() => setReasonStep("return")} data-testid="step-return">
            退回仲裁
          </Button>
        )}
      </Space>

      {steps.includes("opinion") && (
        <Form
          form={opinionForm}
          layout="vertical"
          data-testid="opinion-form"
          onFinish={(v) => void done(giveOpinion(c.id, { ...v, text: v.text.trim(), version }))}
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
      )}

      {steps.includes("decide") && (
        <Form
          form={decisionForm}
          layout="vertical"
          data-testid="decision-form"
          initialValues={c.opinion ? { outcome: c.opinion.outcome, action: c.opinion.action } : undefined}
          onFinish={(v) =>
            void done(
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
          <OutcomeFields award />
          <Form.Item label="决定理由" name="text" required rules={[textRule("决定理由")]}>
            <Input.TextArea rows={5} maxLength={TEXT_MAX} showCount data-testid="decision-text" />
          </Form.Item>
          <Popconfirm
            title="决定作出后处理措施立即执行，并通知申诉人和作品第一作者。确定提交？"
            onConfirm={() => decisionForm.submit()}
          >
            <Button type="primary" loading={busy} data-testid="decision-submit">
              提交决定
            </Button>
          </Popconfirm>
        </Form>
      )}

      {steps.includes("arbitrate") && (
        <Form
          form={arbForm}
          layout="vertical"
          data-testid="arbitration-form"
          onFinish={(v) =>
            void done(
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
          {arbOutcome === "revise" && <OutcomeFields prefix="revised" award />}
          <Form.Item label="仲裁理由" name="text" required rules={[textRule("仲裁理由")]}>
            <Input.TextArea rows={5} maxLength={TEXT_MAX} showCount data-testid="arbitration-text" />
          </Form.Item>
          <Typography.Paragraph type="secondary">仲裁裁决为最终结果，经超级管理员确认后生效。</Typography.Paragraph>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="arbitration-submit">
            提交仲裁裁决
          </Button>
        </Form>
      )}

      <Modal
        open={!!reasonStep}
        title={reasonStep ? COMPLAINT_TRANSITIONS[reasonStep].name : ""}
        okText="确定"
        okButtonProps={{ danger: true, loading: busy }}
        onCancel={() => setReasonStep(null)}
        onOk={async () => {
          const { reason } = await reasonForm.validateFields();
          if (await done(handlerStep(desk, c.id, reasonStep!, { reason: reason.trim(), version }))) {
            setReasonStep(null);
            reasonForm.resetFields();
          }
        }}
        destroyOnClose
      >
        <Form form={reasonForm} layout="vertical" preserve={false}>
          <Form.Item
            name="reason"
            label={reasonStep === "refuse" ? "不予受理的理由（将告知申诉人）" : "退回理由"}
            rules={[{ required: true, whitespace: true, message: "请填写理由" }]}
          >
            <Input.TextArea rows={4} maxLength={TEXT_MAX} showCount data-testid="step-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
