/**
 * The three login pages (student, teacher, admin): one form, parametrised by page. No refine and
 * no policy engine here: the light login entry (src/client/login) renders these pages for a
 * visitor who opens them directly; the admin application renders them on in-app navigation.
 * Either provides the LoginHostContext that takes over after a successful login.
 */
import { useContext, useState } from "react";
import { Alert, App, Button, Divider, Form, Input, Space, Typography } from "antd";
import { LockOutlined, UserOutlined } from "@ant-design/icons";
import { AppLink as Link, useAppLocation as useLocation } from "../routing/nav";
import { LOGIN_PAGE_NAMES, type LoginPage } from "../../shared/roles";
import { LOGIN_PAGE_PATHS as LOGIN_PATHS, afterLoginTarget } from "../routing/redirects";
import { LoginHostContext, requestLogin, type LoginParams } from "../providers/login-request";
import { AuthCard } from "./AuthCard";
import { required } from "./required-rule";

const ORDER: LoginPage[] = ["student", "teacher", "admin"];

function LoginForm({ page }: { page: LoginPage }) {
  const { search } = useLocation();
  const [form] = Form.useForm<Omit<LoginParams, "page">>();
  const [error, setError] = useState<string>();
  const [isPending, setPending] = useState(false);
  const host = useContext(LoginHostContext);
  const { notification } = App.useApp();

  const onFinish = async (values: Omit<LoginParams, "page">) => {
    setError(undefined);
    setPending(true);
    try {
      const res = await requestLogin({ ...values, page });
      if (!res.ok) {
        // A refusal (wrong password, wrong login page for this role…): the server's reason on the form and as a notice.
        setError(res.reason);
        notification.error({ key: "login-error", message: "登录失败", description: res.reason });
        return;
      }
      notification.destroy("login-error");
      // Back to the page that sent the visitor here (?to=, checked to stay on this site), else the user centre.
      await host?.afterLogin(res.user, res.info, afterLoginTarget(search));
    } finally {
      setPending(false);
    }
  };

  return (
    <AuthCard title={LOGIN_PAGE_NAMES[page]}>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="login-error" />}
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} autoComplete="on">
        <Form.Item name="username" label="用户名或邮箱" rules={[required("用户名或邮箱")]}>
          <Input prefix={<UserOutlined />} autoComplete="username" placeholder="用户名或邮箱" size="large" />
        </Form.Item>
        <Form.Item name="password" label="密码" rules={[{ required: true, message: "请输入密码" }]}>
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" placeholder="密码" size="large" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={isPending}>
            登录
          </Button>
        </Form.Item>
      </Form>
      <Space style={{ width: "100%", justifyContent: "space-between" }} wrap>
        {page !== "admin" ? <Link to="/account/Register">注册账号</Link> : <span />}
        <Link to="/account/claim-account">忘记密码？</Link>
      </Space>
      <Divider plain>其他登录方式</Divider>
      <Space style={{ width: "100%", justifyContent: "center" }} split={<Divider type="vertical" />}>
        {ORDER.filter((p) => p !== page).map((p) => (
          <Link key={p} to={`${LOGIN_PATHS[p]}${search}`}>
            {LOGIN_PAGE_NAMES[p]}
          </Link>
        ))}
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0, textAlign: "center", fontSize: 12 }}>
        没有收到验证邮件？<Link to="/verify-email-claim">重新发送</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}

export const StudentLogin = () => <LoginForm page="student" />;
export const TeacherLogin = () => <LoginForm page="teacher" />;
export const AdminLogin = () => <LoginForm page="admin" />;
