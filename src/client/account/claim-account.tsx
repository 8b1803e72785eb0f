/**
 * Password recovery. Without a token: ask for the account, then set a new password
 * with the 6-digit code from the mail. With ?token=… (the mailed link): just the new
 * password. No react-router or refine here: the light login entry (src/client/login) renders
 * this page for a visitor who opens it, the admin application on in-app navigation.
 */
import { useMemo, useState } from "react";
import { Alert, Button, Form, Input, Result, Steps } from "antd";
import { useAppLocation, useAppNavigate as useNavigate } from "../routing/nav";
import { AuthCard } from "./AuthCard";
import { accountApi } from "./api";
import { PASSWORD_HINT, applyFieldError, codeRules, confirmRules, passwordRules, required } from "./rules";

type Stage = "request" | "confirm" | "done";

function Done() {
  const navigate = useNavigate();
  return (
    <Result
      status="success"
      title="密码已重置"
      subTitle="请使用新密码登录。"
      extra={[
        <Button key="s" type="primary" onClick={() => navigate("/account/StudentLogin")}>
          学生登录
        </Button>,
        <Button key="t" onClick={() => navigate("/account/TeacherLogin")}>
          教师登录
        </Button>,
        <Button key="a" onClick={() => navigate("/account/Login")}>
          管理员登录
        </Button>,
      ]}
    />
  );
}

function NewPasswordItems() {
  return (
    <>
      <Form.Item name="newPassword" label="新密码" rules={passwordRules} extra={PASSWORD_HINT} hasFeedback>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="confirm" label="确认新密码" dependencies={["newPassword"]} rules={confirmRules("newPassword")} hasFeedback>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}

/** ?token=… from the mailed link: only the new password. */
function TokenForm({ token }: { token: string }) {
  const [form] = Form.useForm<{ newPassword: string; confirm: string }>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  if (done) return <Done />;
  return (
    <>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        layout="vertical"
        onFinish={async ({ newPassword }) => {
          setBusy(true);
          setError(undefined);
          const reply = await accountApi.recoveryConfirm({ token, newPassword });
          setBusy(false);
          if (reply.error === 0) setDone(true);
          else if (!applyFieldError(form, reply, ["newPassword"])) setError(reply.info || "重置失败");
        }}
      >
        <NewPasswordItems />
        <Button type="primary" htmlType="submit" block loading={busy}>
          设置新密码
        </Button>
      </Form>
    </>
  );
}

/** Account → mail with link and code → code + new password. */
function CodeFlow() {
  const [stage, setStage] = useState<Stage>("request");
  const [account, setAccount] = useState("");
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [requestForm] = Form.useForm<{ account: string }>();
  const [confirmForm] = Form.useForm<{ account: string; code: string; newPassword: string; confirm: string }>();

  const request = async ({ account }: { account: string }) => {
    setBusy(true);
    setError(undefined);
    const reply = await accountApi.recoveryRequest(account.trim());
    setBusy(false);
    if (reply.error !== 0) {
      if (!applyFieldError(requestForm, reply, ["account"])) setError(reply.info || "发送失败");
      return;
    }
    setAccount(account.trim());
    setNotice(reply.info);
    confirmForm.setFieldsValue({ account: account.trim() });
    setStage("confirm");
  };

  const confirm = async ({ account, code, newPassword }: { account: string; code: string; newPassword: string }) => {
    setBusy(true);
    setError(undefined);
    const reply = await accountApi.recoveryConfirm({ account: account.trim(), code: code.trim(), newPassword });
    setBusy(false);
    if (reply.error === 0) setStage("done");
    else if (!applyFieldError(confirmForm, reply, ["account", "code", "newPassword"])) setError(reply.info || "重置失败");
  };

  return (
    <>
      <Steps
        size="small"
        current={stage === "request" ? 0 : stage === "confirm" ? 1 : 2}
        items={[{ title: "填写账号" }, { title: "验证并设置新密码" }, { title: "完成" }]}
        style={{ marginBottom: 24 }}
      />
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="claim-error" />}
      {stage === "request" && (
        <Form form={requestForm} layout="vertical" onFinish={request} initialValues={{ account }}>
          <Form.Item
            name="account"
            label="用户名或邮箱"
            rules={[required("用户名或邮箱")]}
            extra="我们会向账号绑定的邮箱发送找回链接和 6 位验证码"
          >
            <Input autoComplete="username" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            发送找回邮件
          </Button>
        </Form>
      )}
      {stage === "confirm" && (
        <>
          <Alert
            type="info"
            showIcon
            message={notice}
            description="可以直接点击邮件中的链接，也可以在下方输入邮件中的 6 位验证码。"
            style={{ marginBottom: 16 }}
          />
          <Form form={confirmForm} layout="vertical" onFinish={confirm} initialValues={{ account }}>
            <Form.Item name="account" label="用户名或邮箱" rules={[required("用户名或邮箱")]}>
              <Input />
            </Form.Item>
            <Form.Item name="code" label="验证码" rules={codeRules}>
              <Input maxLength={6} inputMode="numeric" autoComplete="one-time-code" />
            </Form.Item>
            <NewPasswordItems />
            <Button type="primary" htmlType="submit" block loading={busy}>
              设置新密码
            </Button>
            <Button type="link" block onClick={() => setStage("request")} style={{ marginTop: 8 }}>
              重新发送找回邮件
            </Button>
          </Form>
        </>
      )}
      {stage === "done" && <Done />}
    </>
  );
}

export default function ClaimAccountPage() {
  const { search } = useAppLocation();
  const token = useMemo(() => new URLSearchParams(search).get("token"), [search]);
  return (
    <AuthCard title="找回密码" width={520}>
      {token ? <TokenForm token={token} /> : <CodeFlow />}
    </AuthCard>
  );
}
