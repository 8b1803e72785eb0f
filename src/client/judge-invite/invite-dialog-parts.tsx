/**
 * Pieces of the invitation dialog (InviteDialog.tsx): the selected pool persons as removable
 * tags, the list of new people (name and email), the answer-by date and message fields, the
 * outcome after sending (who was skipped and why), and the dialog's footer buttons.
 */
import { Alert, Button, DatePicker, Form, Input, Space, Table, Tag, Typography } from "antd";
import { MinusCircleOutlined, PlusOutlined, SafetyOutlined, SendOutlined } from "@ant-design/icons";
import { MAX_INVITEES, MESSAGE_MAX, type ConflictCheck, type InviteOutcome } from "../../shared/judge-invite/schema";
import { bj } from "../format";

/** The pool persons chosen for the invitation (named by the check, else by their record, else by id). */
export function PickedTags({
  picked,
  check,
  names,
  onRemove,
}: {
  picked: number[];
  check: ConflictCheck | undefined;
  names: Map<number, { name: string; schoolName: string | null }>;
  onRemove: (id: number) => void;
}) {
  return (
    <Form.Item label={`评委库中选定的人员（${picked.length} 人）`}>
      <Space wrap data-testid="invite-picked">
        {picked.map((id) => {
          const p = check?.persons.find((x) => x.personId === id) ?? names.get(id);
          return (
            <Tag key={id} closable onClose={() => onRemove(id)}>
              {p ? `${p.name}${p.schoolName ? `（${p.schoolName}）` : ""}` : `编号 ${id}`}
            </Tag>
          );
        })}
      </Space>
    </Form.Item>
  );
}

/** New people (not yet in the pool): name and email per row; at most MAX_INVITEES with the picked ones. */
export function NewPeopleList({ pickedCount }: { pickedCount: number }) {
  return (
    <Form.Item label="新邀请人员（尚未在评委库中的，填写姓名和邮箱）">
      <Form.List name="people">
        {(fields, { add, remove }) => (
          <Space direction="vertical" style={{ width: "100%" }}>
            {fields.map((f) => (
              <Space key={f.key} align="baseline">
                <Form.Item
                  name={[f.name, "name"]}
                  rules={[
                    { required: true, whitespace: true, message: "请填写姓名" },
                    { min: 2, max: 40, message: "姓名 2–40 个字" },
                  ]}
                  style={{ marginBottom: 0 }}
                >
                  <Input placeholder="姓名" style={{ width: 160 }} data-testid="invite-new-name" />
                </Form.Item>
                <Form.Item
                  name={[f.name, "email"]}
                  rules={[
                    { required: true, message: "请填写邮箱" },
                    { type: "email", message: "邮箱格式不正确" },
                  ]}
                  style={{ marginBottom: 0 }}
                >
                  <Input placeholder="邮箱" style={{ width: 280 }} data-testid="invite-new-email" />
                </Form.Item>
                <MinusCircleOutlined onClick={() => remove(f.name)} />
              </Space>
            ))}
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() => add({ name: "", email: "" })}
              disabled={fields.length + pickedCount >= MAX_INVITEES}
              data-testid="invite-add-person"
            >
              添加一人
            </Button>
          </Space>
        )}
      </Form.List>
    </Form.Item>
  );
}

/** The answer-by date (the link expires at its end, Beijing time) and the message sent with the invitation. */
export function AnswerByAndMessage() {
  return (
    <>
      <Space align="start" size={24} style={{ display: "flex" }}>
        <Form.Item name="answerBy" label="答复截止日期" rules={[{ required: true, message: "请选择答复截止日期" }]}>
          <DatePicker
            disabledDate={(d) => d.isBefore(bj().add(1, "day"), "day") || d.isAfter(bj().add(365, "day"))}
            allowClear={false}
            data-testid="invite-answer-by"
          />
        </Form.Item>
        <Typography.Text type="secondary" style={{ display: "block", marginTop: 34 }}>
          链接在该日 24 时（北京时间）失效；截止前 2 天未答复的会收到一次提醒。
        </Typography.Text>
      </Space>
      <Form.Item name="message" label="邀请说明" rules={[{ max: MESSAGE_MAX, message: `不超过 ${MESSAGE_MAX} 字` }]}>
        <Input.TextArea rows={3} placeholder="评审时间、方式、劳务等说明（随邀请邮件发送）" data-testid="invite-message-input" />
      </Form.Item>
    </>
  );
}

/** After sending: the server's summary and the people not invited, with the reason. */
export function SentResult({ info, o }: { info: string; o: InviteOutcome }) {
  return (
    <Space direction="vertical" style={{ width: "100%" }} data-testid="invite-sent">
      <Alert type={o.created.length ? "success" : "warning"} showIcon message={info} />
      {o.skipped.length > 0 && (
        <Table
          size="small"
          pagination={false}
          rowKey={(s) => `${s.name}|${s.email}`}
          dataSource={o.skipped}
          columns={[
            { title: "未邀请", dataIndex: "name" },
            { title: "邮箱", dataIndex: "email" },
            { title: "原因", dataIndex: "reason" },
          ]}
        />
      )}
    </Space>
  );
}

/** The dialog's buttons: 完成 after sending; else 取消, 回避检查 and 发送邀请 (only after a check of the current input). */
export function inviteFooter({
  sent,
  busy,
  canSend,
  onClose,
  onCheck,
  onSend,
}: {
  sent: boolean;
  busy: "check" | "send" | null;
  canSend: boolean;
  onClose: () => void;
  onCheck: () => void;
  onSend: () => void;
}) {
  return sent
    ? [
        <Button key="close" type="primary" onClick={onClose}>
          完成
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button key="check" icon={<SafetyOutlined />} loading={busy === "check"} onClick={onCheck} data-testid="invite-run-check">
          回避检查
        </Button>,
        <Button
          key="send"
          type="primary"
          icon={<SendOutlined />}
          loading={busy === "send"}
          disabled={!canSend}
          onClick={onSend}
          data-testid="invite-send"
        >
          发送邀请
        </Button>,
      ];
}
