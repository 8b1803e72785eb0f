/**
 * One complaint as its filer or the work's party sees it: the work, the text and evidence,
 * the refusal / decision / arbitration, the history, and the steps the server offers this
 * caller (申请仲裁 before the deadline, 撤回). The party's view never names the filer.
 */
import { useState } from "react";
import { Alert, Button, Card, Descriptions, Form, Input, Modal, Space, Typography } from "antd";
import type { FilerComplaintView } from "../../shared/complaint/schema";
import {
  ARBITRATION_OUTCOME_NAMES,
  COMPLAINT_CATEGORY_NAMES,
  DECISION_ACTION_NAMES,
  DECISION_OUTCOME_NAMES,
  TEXT_MAX,
} from "../../shared/complaint/states";
import { fmtTime } from "../format";
import { filerStep } from "./api";
import { textProblem } from "./logic";
import { ComplaintHistory } from "./History";
import { Due, EvidenceLinks, StateTag, TextBlock, TypeTag } from "./parts";

export function FilerComplaint({ c, token, onChanged }: { c: FilerComplaintView; token?: string; onChanged: () => void }) {
  const [step, setStep] = useState<"arbitration" | "withdraw" | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ reason: string }>();

  const run = async () => {
    const { reason } = await form.validateFields();
    setBusy(true);
    const reply = await filerStep(c.id, step!, { reason: reason?.trim() || undefined, version: c.version }, token);
    setBusy(false);
    if (reply.error === 0) {
      setStep(null);
      form.resetFields();
      onChanged();
    }
  };

  return (
    <Card
      size="small"
      data-testid="filer-complaint"
      title={
        <Space wrap>
          <TypeTag type={c.type} />
          <span>编号 {c.id}</span>
          <StateTag state={c.state} />
          {c.relation === "party" && (
            <Typography.Text type="secondary" style={{ fontWeight: "normal" }}>
              （关于您的作品）
            </Typography.Text>
          )}
        </Space>
      }
      extra={
        <Space>
          {c.actions.includes("request_arbitration") && (
            <Button size="small" type="primary" onClick={() => setStep("arbitration")} data-testid="request-arbitration">
              申请仲裁
            </Button>
          )}
          {c.actions.includes("withdraw") && (
            <Button size="small" danger onClick={() => setStep("withdraw")} data-testid="withdraw">
              撤回
            </Button>
          )}
        </Space>
      }
    >
      <Descriptions size="small" column={{ xs: 1, md: 2 }}>
        <Descriptions.Item label="作品">{`${c.workName}（${c.workId}）`}</Descriptions.Item>
        <Descriptions.Item label="学校">{c.schoolName}</Descriptions.Item>
        <Descriptions.Item label="赛事">{c.contestName}</Descriptions.Item>
        <Descriptions.Item label="事由">{COMPLAINT_CATEGORY_NAMES[c.category]}</Descriptions.Item>
        <Descriptions.Item label="提交时间">{fmtTime(c.createdAt)}</Descriptions.Item>
        <Descriptions.Item label="当前环节期限">
          <Due dueAt={c.dueAt} overdue={false} />
        </Descriptions.Item>
        {c.arbitrationDueAt && <Descriptions.Item label="仲裁申请截止">{fmtTime(c.arbitrationDueAt)}</Descriptions.Item>}
      </Descriptions>
      <Typography.Title level={5} style={{ marginTop: 12 }}>
        内容
      </Typography.Title>
      <TextBlock text={c.text} />
      <Typography.Title level={5}>证据材料</Typography.Title>
      <EvidenceLinks files={c.evidence} token={token} />
      {c.refusal && <Alert type="warning" showIcon style={{ marginTop: 12 }} message="不予受理" description={c.refusal} />}
      {c.decision && (
        <Alert
          type="info"
          style={{ marginTop: 12 }}
          data-testid="filer-decision"
          message={`处理决定：${DECISION_OUTCOME_NAMES[c.decision.outcome]} · ${DECISION_ACTION_NAMES[c.decision.action]}${c.decision.award ? `（${c.decision.award.name}）` : ""}`}
          description={
            <>
              <TextBlock text={c.decision.text} />
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {fmtTime(c.decision.at)}
                {c.decision.effect ? ` · ${c.decision.effect}` : ""}
              </Typography.Text>
            </>
          }
        />
      )}
      {c.arbitration && (
        <Alert
          type={c.arbitration.outcome ? "success" : "warning"}
          style={{ marginTop: 12 }}
          message={
            c.arbitration.outcome
              ? `仲裁结论：${ARBITRATION_OUTCOME_NAMES[c.arbitration.outcome]}${c.arbitration.confirmedAt ? "（已确认生效）" : "（待确认）"}`
              : `已于 ${fmtTime(c.arbitration.requestedAt)} 申请仲裁（${c.arbitration.requestedBy}）`
          }
          description={c.arbitration.text ? <TextBlock text={c.arbitration.text} /> : <TextBlock text={c.arbitration.reason} />}
        />
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        处理记录
      </Typography.Title>
      <ComplaintHistory entries={c.history} />
      <Modal
        open={!!step}
        title={step === "arbitration" ? "申请仲裁" : "撤回"}
        okText={step === "arbitration" ? "提交仲裁申请" : "确认撤回"}
        okButtonProps={{ danger: step === "withdraw", loading: busy, ...{ "data-testid": "filer-step-ok" } }}
        onOk={() => void run()}
        onCancel={() => setStep(null)}
        destroyOnClose
      >
        {step === "arbitration" && c.arbitrationDueAt && (
          <Typography.Paragraph type="secondary">
            仲裁申请须在 {fmtTime(c.arbitrationDueAt)} 前提出；仲裁裁决为最终结果。
          </Typography.Paragraph>
        )}
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item
            name="reason"
            label={step === "arbitration" ? "仲裁申请理由" : "撤回说明（选填）"}
            rules={
              step === "arbitration"
                ? [
                    {
                      validator: (_, v) => {
                        const p = textProblem(v, "理由");
                        return p ? Promise.reject(new Error(p)) : Promise.resolve();
                      },
                    },
                  ]
                : []
            }
          >
            <Input.TextArea
              rows={5}
              maxLength={step === "arbitration" ? TEXT_MAX : 500}
              showCount
              data-testid="filer-step-reason"
            />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
