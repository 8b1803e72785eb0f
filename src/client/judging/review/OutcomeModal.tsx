/**
 * The modal of a format review outcome that needs reasons: 退回修改 (reason codes from the
 * catalogue, a text for the authors, a correction deadline) and 判定不符合要求 (a text, codes
 * optional). Keyboard-friendly: the number keys 1–6 toggle the reason codes while the
 * text box does not have the focus, Ctrl+Enter (or ⌘+Enter) submits, Esc closes. The
 * server's refusal is put under the field it names.
 */
import { useEffect, useRef, useState } from "react";
import { Alert, Button, Checkbox, DatePicker, Form, Input, Modal, Space, Tag, Typography, type FormInstance } from "antd";
import type { TextAreaRef } from "antd/es/input/TextArea";
import type { Dayjs } from "dayjs";
import { CORRECTION_DEADLINE } from "../../../shared/review/reasons";
import type { OutcomeResult } from "../../../shared/review/schema";
import { fieldOf } from "../../request";
import { giveOutcome, useReasons, type Reason } from "./api";
import { bj, pickerIso } from "../../format";

export type ReasonOutcome = "format_return" | "format_reject";

export interface OutcomeTarget {
  id: number;
  name: string;
  version?: number;
  status?: string;
}

const TITLES: Record<ReasonOutcome, string> = { format_return: "退回修改", format_reject: "判定不符合要求" };
const HINTS: Record<ReasonOutcome, string> = {
  format_return: "作者将看到问题类型和说明，须在截止时间前修改并重新提交形式审查。",
  format_reject: "作品将不进入评审。请写明不符合要求的原因，作者和学校将看到。",
};

interface Values {
  reasonCodes: string[];
  reason: string;
  deadline?: Dayjs;
}

const defaultDeadline = () => bj().add(7, "day").hour(23).minute(59).second(0).millisecond(0);
const isTyping = (el: Element | null) =>
  !!el && (el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && (el as HTMLInputElement).type !== "checkbox"));

/**
 * While open: number keys toggle codes (outside the text box), Ctrl/⌘+Enter submits —
 * wherever the focus is, also before it has moved into the dialog.
 */
function useReasonKeys(open: boolean, form: FormInstance<Values>, reasons: Reason[]) {
  const onKey = useRef<(e: KeyboardEvent) => void>(() => undefined);
  onKey.current = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter") {
      e.preventDefault();
      form.submit();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey || isTyping(document.activeElement)) return;
    const n = Number(e.key);
    if (n >= 1 && n <= reasons.length) {
      e.preventDefault();
      const code = reasons[n - 1].code;
      const now: string[] = form.getFieldValue("reasonCodes") ?? [];
      form.setFieldValue("reasonCodes", now.includes(code) ? now.filter((c) => c !== code) : [...now, code]);
      void form.validateFields(["reasonCodes"]).catch(() => undefined);
    }
  };
  useEffect(() => {
    if (!open) return;
    const on = (e: KeyboardEvent) => onKey.current(e);
    window.addEventListener("keydown", on);
    return () => window.removeEventListener("keydown", on);
  }, [open]);
}

export function OutcomeModal({
  target,
  outcome,
  onClose,
  onDone,
}: {
  target: OutcomeTarget | null;
  outcome: ReasonOutcome | null;
  onClose: () => void;
  onDone: (r: OutcomeResult) => void;
}) {
  const [form] = Form.useForm<Values>();
  const reasons = useReasons();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const text = useRef<TextAreaRef>(null);
  const box = useRef<HTMLDivElement>(null);
  const open = !!target && !!outcome;

  useEffect(() => {
    if (!open) return;
    setError(null);
    form.setFieldsValue({ reasonCodes: [], reason: "", deadline: outcome === "format_return" ? defaultDeadline() : undefined });
  }, [open, outcome, form]);

  const submit = async (v: Values) => {
    if (!target || !outcome) return;
    setBusy(true);
    setError(null);
    const reply = await giveOutcome(target.id, outcome, {
      reason: v.reason.trim(),
      reasonCodes: v.reasonCodes?.length ? (v.reasonCodes as never) : undefined,
      deadline: outcome === "format_return" ? (v.deadline ? pickerIso(v.deadline) : undefined) : undefined,
      version: target.version,
    });
    setBusy(false);
    if (reply.error === 0 && reply.data) {
      onClose();
      onDone(reply.data);
      return;
    }
    const field = fieldOf(reply);
    if (field && ["reason", "reasonCodes", "deadline"].includes(field))
      form.setFields([{ name: field as keyof Values, errors: [reply.info] }]);
    else setError(reply.info || "操作失败");
  };

  useReasonKeys(open, form, reasons.data ?? []);

  const name = outcome ? TITLES[outcome] : "";
  return (
    <Modal
      open={open}
      title={`${name}：《${target?.name ?? ""}》`}
      onCancel={onClose}
      destroyOnHidden
      width={620}
      afterOpenChange={(o) => {
        if (!o) return;
        // A return starts at the reason codes (number keys), a rejection at its text.
        const first = box.current?.querySelector<HTMLInputElement>("input[type=checkbox]");
        if (outcome === "format_return" && first) first.focus();
        else text.current?.focus();
      }}
      footer={
        <Space>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            数字键 1–{reasons.data?.length ?? 6} 勾选问题类型（文本框外），Ctrl+Enter 提交，Esc 取消
          </Typography.Text>
          <Button onClick={onClose}>取消</Button>
          <Button
            type="primary"
            danger={outcome === "format_reject"}
            loading={busy}
            onClick={() => form.submit()}
            data-testid="outcome-submit"
          >
            {name}
          </Button>
        </Space>
      }
    >
      <div ref={box} data-testid="outcome-modal">
        <Typography.Paragraph type="secondary">{outcome ? HINTS[outcome] : ""}</Typography.Paragraph>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="outcome-error" />}
        <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
          <ReasonCodesItem outcome={outcome} reasons={reasons.data ?? []} />
          <Form.Item
            name="reason"
            label={outcome === "format_return" ? "给作者的说明" : "不符合要求的原因"}
            rules={[
              {
                required: true,
                whitespace: true,
                message: outcome === "format_return" ? "请填写给作者的说明" : "请填写不符合要求的原因",
              },
              { max: 500, message: "最多 500 字" },
            ]}
          >
            <Input.TextArea
              ref={text}
              rows={3}
              maxLength={500}
              showCount
              placeholder={
                outcome === "format_return"
                  ? "例如：请补充上传作品演示视频，并删除设计文档封面上的学校名称"
                  : "例如：逾期未补交演示视频"
              }
              data-testid="outcome-reason"
            />
          </Form.Item>
          {outcome === "format_return" && (
            <Form.Item
              name="deadline"
              label="修改截止时间"
              rules={[{ required: true, message: "请设置修改截止时间" }]}
              extra={`至少 ${CORRECTION_DEADLINE.minHours} 小时之后，最多 ${CORRECTION_DEADLINE.maxDays} 天之内`}
            >
              <DatePicker
                showTime={{ format: "HH:mm" }}
                format="YYYY-MM-DD HH:mm"
                allowClear={false}
                disabledDate={(d) => d.isBefore(bj().startOf("day")) || d.isAfter(bj().add(CORRECTION_DEADLINE.maxDays, "day"))}
                presets={[3, 7, 14].map((n) => ({ label: `${n} 天后`, value: bj().add(n, "day").hour(23).minute(59).second(0) }))}
                data-testid="outcome-deadline"
              />
            </Form.Item>
          )}
        </Form>
      </div>
    </Modal>
  );
}

/** 问题类型: the reason codes of the catalogue, numbered for the number keys (required for a return). */
function ReasonCodesItem({ outcome, reasons }: { outcome: ReasonOutcome | null; reasons: Reason[] }) {
  return (
    <Form.Item
      name="reasonCodes"
      label="问题类型"
      rules={outcome === "format_return" ? [{ required: true, type: "array", min: 1, message: "请至少选择一个问题类型" }] : []}
    >
      <Checkbox.Group style={{ width: "100%" }}>
        <Space direction="vertical" size={4}>
          {reasons.map((r, i) => (
            <Checkbox key={r.code} value={r.code} data-testid={`reason-${r.code}`}>
              <Tag style={{ marginInlineEnd: 6 }}>{i + 1}</Tag>
              {r.name}
              <Typography.Text type="secondary" style={{ fontSize: 12, marginInlineStart: 8 }}>
                {r.hint}
              </Typography.Text>
            </Checkbox>
          ))}
        </Space>
      </Checkbox.Group>
    </Form.Item>
  );
}
