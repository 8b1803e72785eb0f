/**
 * The handlers' step forms, shown for the steps the server lists in the view's `actions`
 * (its state machine and the caller's role decide): 受理 / 不予受理 / 结案 / 确认 / 退回
 * (a reason where the step needs one), the reviewer's opinion, the complaint admin's
 * decision with its action, the arbitrator's ruling. Each carries the view's version.
 * The written forms are in step-forms.tsx, the outcome/action pickers in OutcomeFields.tsx.
 */
import { useState } from "react";
import { Button, Form, Input, Modal, Popconfirm, Space } from "antd";
import type { HandlerComplaintView } from "../../shared/complaint/schema";
import { COMPLAINT_TRANSITIONS, TEXT_MAX, type ComplaintAction } from "../../shared/complaint/states";
import { applyRejudge, handlerStep, type HandlerDesk } from "./api";
import { ArbitrationForm, DecisionForm, OpinionForm } from "./step-forms";
import { filerWord } from "../../shared/complaint/labels";

/** Which steps each screen offers. */
export const DESK_STEPS: Record<HandlerDesk, readonly ComplaintAction[]> = {
  manage: ["accept", "refuse", "opinion", "decide", "close"],
  arbitrate: ["arbitrate"],
  review: ["confirm", "return"],
};

export function StepForms({ c, desk, onDone }: { c: HandlerComplaintView; desk: HandlerDesk; onDone: () => void }) {
  const steps = c.actions.filter((a) => DESK_STEPS[desk].includes(a));
  // A re-judge waiting for its scores: whoever may close the decided complaint (the complaint admin, root) applies them.
  const rejudgePending =
    desk === "manage" && !!c.decision?.rejudge && !c.decision.rejudge.appliedAt && c.actions.includes("close");
  const [reasonStep, setReasonStep] = useState<"refuse" | "return" | null>(null);
  const [busy, setBusy] = useState(false);
  const [reasonForm] = Form.useForm<{ reason: string }>();

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

      {steps.includes("opinion") && <OpinionForm c={c} busy={busy} onSubmit={done} />}
      {steps.includes("decide") && <DecisionForm c={c} busy={busy} onSubmit={done} />}
      {steps.includes("arbitrate") && <ArbitrationForm c={c} busy={busy} onSubmit={done} />}

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
            label={reasonStep === "refuse" ? `不予受理的理由（将告知${filerWord(c.type)}）` : "退回理由"}
            rules={[{ required: true, whitespace: true, message: "请填写理由" }]}
          >
            <Input.TextArea rows={4} maxLength={TEXT_MAX} showCount data-testid="step-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
