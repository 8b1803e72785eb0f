/**
 * A visitor proves an email: the one-time code is mailed to it, the code buys a token (for
 * filing, uploading and looking up) that lives a couple of hours in this page only.
 */
import { useEffect, useState } from "react";
import { Alert, Button, Form, Input, Space, Typography } from "antd";
import { MailOutlined, SafetyOutlined } from "@ant-design/icons";
import { CODE_LENGTH, CODE_MINUTES } from "../../shared/complaint/states";
import { fmtTime } from "../format";
import { sendCode, verifyCode } from "./api";

export interface Visitor {
  token: string;
  email: string;
  expiresAt: string;
}

const RESEND_SECONDS = 60;

export function VisitorVerify({
  visitor,
  onVerified,
  onForget,
}: {
  visitor: Visitor | null;
  onVerified: (v: Visitor) => void;
  onForget: () => void;
}) {
  const [form] = Form.useForm<{ email: string; code: string }>();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [wait, setWait] = useState(0);
  const [busy, setBusy] = useState<"send" | "verify" | null>(null);

  useEffect(() => {
    if (wait <= 0) return;
    const t = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);

  if (visitor)
    return (
      <Alert
        type="success"
        showIcon
        data-testid="visitor-verified"
        message={`已验证邮箱 ${visitor.email}`}
        description={`验证有效期至 ${fmtTime(visitor.expiresAt)}，可以提交投诉和查询您的投诉。`}
        action={
          <Button size="small" onClick={onForget}>
            更换邮箱
          </Button>
        }
      />
    );

  const send = async () => {
    const { email } = await form.validateFields(["email"]);
    setBusy("send");
    const reply = await sendCode(email.trim());
    setBusy(null);
    if (reply.error === 0) {
      setSentTo(email.trim());
      setWait(RESEND_SECONDS);
    }
  };
  const verify = async () => {
    const { email, code } = await form.validateFields();
    setBusy("verify");
    const reply = await verifyCode(email.trim(), code.trim());
    setBusy(null);
    if (reply.error === 0 && reply.data) onVerified(reply.data);
  };

  return (
    <Form form={form} layout="vertical" style={{ maxWidth: 480 }} data-testid="visitor-verify">
      <Typography.Paragraph type="secondary">
        未登录的投诉人需先验证邮箱：我们会向该邮箱发送 {CODE_LENGTH} 位验证码（{CODE_MINUTES}{" "}
        分钟内有效）。处理结果也将发送到这个邮箱。
      </Typography.Paragraph>
      <Form.Item
        label="邮箱"
        name="email"
        rules={[
          { required: true, message: "请输入邮箱" },
          { type: "email", message: "邮箱格式不正确" },
        ]}
      >
        <Input prefix={<MailOutlined />} placeholder="name@example.com" autoComplete="email" />
      </Form.Item>
      <Form.Item label="验证码" required>
        <Space.Compact style={{ width: "100%" }}>
          <Form.Item
            name="code"
            noStyle
            rules={[
              { required: true, message: "请输入验证码" },
              { pattern: new RegExp(`^[0-9]{${CODE_LENGTH}}$`), message: `验证码为 ${CODE_LENGTH} 位数字` },
            ]}
          >
            <Input
              prefix={<SafetyOutlined />}
              placeholder={`${CODE_LENGTH} 位数字`}
              maxLength={CODE_LENGTH}
              inputMode="numeric"
            />
          </Form.Item>
          <Button onClick={() => void send()} loading={busy === "send"} disabled={wait > 0} data-testid="send-code">
            {wait > 0 ? `${wait} 秒后可重发` : sentTo ? "重新发送" : "发送验证码"}
          </Button>
        </Space.Compact>
      </Form.Item>
      {sentTo && (
        <Alert
          type="info"
          showIcon
          data-testid="code-sent"
          style={{ marginBottom: 16 }}
          message={`验证码已发送至 ${sentTo}，请查收邮件（也请检查垃圾邮件箱）。`}
        />
      )}
      <Button type="primary" onClick={() => void verify()} loading={busy === "verify"} data-testid="verify-code">
        验证邮箱
      </Button>
    </Form>
  );
}
