/**
 * The decisions on one work in a list: those needing a reason (退回修改, 退回学校, 取消资格)
 * open a modal where the reason is required; the others ask for a confirmation. The
 * server has the last word (stage windows, quotas, scope) and its message is shown.
 */
import { useState } from "react";
import { Button, Form, Input, Modal, Typography } from "antd";
import type { WorkListItem } from "../../../shared/work/schema";
import { TRANSITIONS, type WorkAction } from "../../../shared/work/states";
import { decide, rowActions, type Side } from "../api";
import { OnDemand } from "../../components/on-demand";
import { Inline } from "../../components/light";

const REASON_HINT: Partial<Record<WorkAction, string>> = {
  return: "作者将看到此原因，修改后可重新提交。",
  reject: "学校将看到此原因，作品回到“学校已审核”。",
  disqualify: "取消资格的原因将公开，并随作品名称、作者、指导教师和学校一起公示。",
};

const CONFIRM: Partial<Record<WorkAction, string>> = {
  approve: "确认审核通过该作品？",
  withdraw_approval: "撤销审核后作品回到“已提交”，确认？",
  recommend: "推荐至省赛将占用一个推荐名额，确认？",
  unrecommend: "撤回推荐将释放名额，作品回到“学校已审核”，确认？",
  accept: "确认接收该作品？",
};

type Work = Pick<WorkListItem, "id" | "name" | "status" | "version">;

export function ReasonModal({
  side,
  work,
  action,
  onClose,
  onDone,
}: {
  side: Side;
  work: Work | null;
  action: WorkAction | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const open = !!work && !!action;
  const name = action ? TRANSITIONS[action].name : "";
  const submit = async ({ reason }: { reason: string }) => {
    if (!work || !action) return;
    setBusy(true);
    const reply = await decide(side, work.id, action, { reason: reason.trim(), version: work.version });
    setBusy(false);
    if (reply.error === 0) {
      onClose();
      onDone();
    }
  };
  return (
    <Modal
      open={open}
      title={`${name}：《${work?.name ?? ""}》`}
      okText={name}
      okButtonProps={{ danger: action === "disqualify", loading: busy }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {action && <Typography.Paragraph type="secondary">{REASON_HINT[action]}</Typography.Paragraph>}
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Form.Item
          name="reason"
          label={action === "disqualify" ? "公开原因" : "原因"}
          rules={[
            { required: true, whitespace: true, message: `请填写「${name}」的原因` },
            { max: 500, message: "原因最多 500 字" },
          ]}
        >
          <Input.TextArea rows={4} maxLength={500} showCount data-testid="reason-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The buttons of one row; reason actions are reported to the page, which owns the modal. */
export function WorkActions({
  side,
  work,
  onDone,
  onReason,
}: {
  side: Side;
  work: Work;
  onDone: () => void;
  onReason: (work: Work, action: WorkAction) => void;
}) {
  const [busy, setBusy] = useState<WorkAction | null>(null);
  const run = async (action: WorkAction) => {
    setBusy(action);
    const reply = await decide(side, work.id, action, { version: work.version });
    setBusy(null);
    if (reply.error === 0) onDone();
  };
  const actions = rowActions(side, work.status);
  if (!actions.length) return null;
  return (
    <Inline gap={4}>
      {actions.map((a) =>
        TRANSITIONS[a].reason ? (
          <Button key={a} size="small" danger={a === "disqualify"} onClick={() => onReason(work, a)} data-testid={`action-${a}`}>
            {TRANSITIONS[a].name}
          </Button>
        ) : (
          <OnDemand
            key={a}
            confirm={{
              title: CONFIRM[a] ?? `确认${TRANSITIONS[a].name}？`,
              okText: "确认",
              cancelText: "取消",
              onConfirm: () => run(a),
            }}
          >
            <Button
              size="small"
              type={a === "approve" || a === "recommend" || a === "accept" ? "primary" : "default"}
              loading={busy === a}
              data-testid={`action-${a}`}
            >
              {TRANSITIONS[a].name}
            </Button>
          </OnDemand>
        ),
      )}
    </Inline>
  );
}
