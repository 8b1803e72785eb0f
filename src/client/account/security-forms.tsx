/** The change-password and change-email forms of the account security page. */
import { useState } from "react";
import { Alert, Button, Card, Form, Input } from "antd";
import { accountApi } from "./api";
import { PASSWORD_HINT, applyFieldError, confirmRules, emailRules, passwordRules } from "./rules";

export function PasswordCard({ onChanged }: { onChanged: () => void }) {
  const [form] = Form.useForm<{ oldPassword: string; newPassword: string; confirm: string }>();
  const [busy, setBusy] = useState(false);
  return (
    <Card title="修改密码" data-testid="password-card">
      <Form
        form={form}
        layout="vertical"
        style={{ maxWidth: 420 }}
        onFinish={async ({ oldPassword, newPassword }) => {
          setBusy(true);
          const reply = await accountApi.changePassword(oldPassword, newPassword);
          setBusy(false);
          if (reply.error === 0) {
            form.resetFields();
            onChanged();
          } else applyFieldError(form, reply, ["oldPassword", "newPassword"]);
        }}
      >
        <Form.Item name="oldPassword" label="原密码" rules={[{ required: true, message: "请输入原密码" }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label="新密码"
          rules={passwordRules}
          extra={`${PASSWORD_HINT}；修改后其他设备上的登录会退出`}
          hasFeedback
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label="确认新密码"
          dependencies={["newPassword"]}
          rules={confirmRules("newPassword")}
          hasFeedback
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          修改密码
        </Button>
      </Form>
    </Card>
  );
}

export function EmailCard({
  email,
  emailVerified,
  pendingEmail,
  onChanged,
}: {
  email: string | null;
  emailVerified: boolean;
  pendingEmail: string | null;
  onChanged: () => void;
}) {
  const [form] = Form.useForm<{ email: string; password: string }>();
  const [busy, setBusy] = useState(false);
  return (
    <Card title="修改邮箱" data-testid="email-card">
      {pendingEmail && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="pending-email"
          message={`新邮箱 ${pendingEmail} 等待验证`}
          description="请点击发送到新邮箱的验证链接；验证之前，账号仍使用原邮箱。"
        />
      )}
      {email && !emailVerified && !pendingEmail && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={`邮箱 ${email} 尚未验证`} />
      )}
      <Form
        form={form}
        layout="vertical"
        style={{ maxWidth: 420 }}
        onFinish={async ({ email, password }) => {
          setBusy(true);
          const reply = await accountApi.changeEmail(password, email.trim());
          setBusy(false);
          if (reply.error === 0) {
            form.resetFields();
            onChanged();
          } else applyFieldError(form, reply, ["email", "password"]);
        }}
      >
        <Form.Item name="email" label="新邮箱" rules={emailRules}>
          <Input autoComplete="email" />
        </Form.Item>
        <Form.Item name="password" label="当前密码" rules={[{ required: true, message: "请输入当前密码" }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          发送验证邮件
        </Button>
      </Form>
    </Card>
  );
}
