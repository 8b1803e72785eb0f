/** The three login pages (student, teacher, admin): one form, parametrised by page. */
import { useState } from "react";
import { Alert, Button, Divider, Form, Input, Space, Typography } from "antd";
import { LockOutlined, UserOutlined } from "@ant-design/icons";
import { Link, useLocation } from "react-router";
import { useLogin } from "@refinedev/core";
import { LOGIN_PAGE_NAMES, type LoginPage } from "../../shared/roles";
import { LOGIN_PATHS, LoginError, type LoginParams } from "../providers/auth";
import { AuthCard } from "./AuthCard";
import { required } from "./rules";

const ORDER: LoginPage[] = ["student", "teacher", "admin"];

function LoginForm({ page }: { page: LoginPage }) {
  const { search } = useLocation();
  const [form] = Form.useForm<Omit<LoginParams, "page">>();
  const [error, setError] = useState<string>();
  const { mutate: login, isPending } = useLogin<LoginParams>();

  const onFinish = (values: Omit<LoginParams, "page">) => {
    setError(undefined);
    login(
      { ...values, page },
      { onSuccess: (res) => (!res.success ? setError(res.error instanceof LoginError ? res.error.reason : res.error?.message ?? "登录失败") : undefined) },
    );
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
