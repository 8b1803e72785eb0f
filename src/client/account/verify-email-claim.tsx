/** /verify-email-claim: "didn't get the mail? resend" (pure page; in the light login entry too, src/client/login). */
import { useState } from "react";
import { Alert, Button, Form, Input, Result } from "antd";
import { AppLink as Link, useAppNavigate as useNavigate } from "../routing/nav";
import { AuthCard } from "./AuthCard";
import { accountApi } from "./api";
import { applyFieldError, emailRules } from "./rules";

export default function VerifyEmailClaimPage() {
  const [form] = Form.useForm<{ email: string }>();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();

  const onFinish = async ({ email }: { email: string }) => {
    setBusy(true);
    setError(undefined);
    const reply = await accountApi.resendVerification(email.trim());
    setBusy(false);
    if (reply.error === 0) setDone(reply.info);
    else if (!applyFieldError(form, reply, ["email"])) setError(reply.info || "发送失败，请稍后重试");
  };

  return (
    <AuthCard title="重新发送验证邮件" width={520} fullPage>
      {done ? (
        <Result
          status="success"
          title="请查收邮件"
          subTitle={done}
          extra={[
            <Button key="home" type="primary" onClick={() => navigate("/")}>
              返回首页
            </Button>,
            <Button key="again" onClick={() => setDone(undefined)}>
              换一个邮箱
            </Button>,
          ]}
        />
      ) : (
        <>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            message="没有收到验证邮件？填写注册时的邮箱，我们会重新发送验证链接。也请查看垃圾邮件箱。"
          />
          {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
          <Form form={form} layout="vertical" onFinish={onFinish}>
            <Form.Item name="email" label="邮箱" rules={emailRules}>
              <Input autoComplete="email" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy}>
              重新发送
            </Button>
          </Form>
          <div style={{ textAlign: "center", marginTop: 16 }}>
            <Link to="/">返回首页</Link>
          </div>
        </>
      )}
    </AuthCard>
  );
}
