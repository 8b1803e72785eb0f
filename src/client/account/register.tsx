/**
 * Registration for students and teachers; a verification email follows. No react-router or refine
 * here: the light login entry (src/client/login) renders this page for a visitor who opens it, the
 * admin application on in-app navigation (links and navigation through routing/nav.tsx).
 */
import { useState } from "react";
import { Alert, Button, Form, Input, Radio, Result } from "antd";
import { AppLink as Link, useAppNavigate as useNavigate } from "../routing/nav";
import type { RegisterBody } from "../../shared/account/schema";
import { ROLE } from "../../shared/roles";
import { AuthCard } from "./AuthCard";
import { SchoolPicker } from "./SchoolPicker";
import { accountApi } from "./api";
import { applyFieldError, emailRules, memberNoRules, nameRules, phoneRules } from "./rules";
import { CredentialFields } from "./CredentialFields";
import { RadioGroupField } from "../components/RadioGroupField";

type Values = RegisterBody & { confirm: string };
const FIELDS = ["role", "username", "password", "name", "email", "schoolId", "memberNo", "phone"];

export default function RegisterPage() {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const role = Form.useWatch("role", form) ?? ROLE.author;
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState<{ email: string; info: string; role: number }>();

  const onFinish = async ({ confirm: _confirm, ...values }: Values) => {
    setError(undefined);
    setSending(true);
    const body: RegisterBody = {
      ...values,
      memberNo: values.memberNo?.trim() || undefined,
      phone: values.phone?.trim() || undefined,
    };
    const reply = await accountApi.register(body);
    setSending(false);
    if (reply.error === 0 && reply.data) {
      setDone({ email: reply.data.email, info: reply.info, role: values.role });
      return;
    }
    if (!applyFieldError(form, reply, FIELDS)) setError(reply.info || "注册失败，请稍后重试");
  };

  if (done) {
    return (
      <AuthCard title="注册成功" width={560}>
        <Result
          status="success"
          title="请查收验证邮件"
          subTitle={`${done.info || `验证邮件已发送至 ${done.email}`}。点击邮件中的链接完成验证后即可登录。`}
          extra={[
            <Button
              key="login"
              type="primary"
              onClick={() => navigate(done.role === ROLE.teacher ? "/account/TeacherLogin" : "/account/StudentLogin")}
            >
              去登录
            </Button>,
            <Button key="resend" onClick={() => navigate("/verify-email-claim")}>
              没有收到邮件？
            </Button>,
          ]}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard title="注册账号" width={560}>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="register-error" />}
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        initialValues={{ role: ROLE.author }}
        requiredMark="optional"
        scrollToFirstError
      >
        <Form.Item name="role" label="身份" rules={[{ required: true, message: "请选择身份" }]}>
          <RadioGroupField label="身份" optionType="button" buttonStyle="solid">
            <Radio value={ROLE.author}>学生</Radio>
            <Radio value={ROLE.teacher}>教师</Radio>
          </RadioGroupField>
        </Form.Item>
        <Form.Item name="schoolId" label="学校" rules={[{ required: true, message: "请选择学校" }]}>
          <SchoolPicker />
        </Form.Item>
        <CredentialFields />
        <Form.Item name="name" label="姓名" rules={nameRules}>
          <Input autoComplete="name" />
        </Form.Item>
        <Form.Item name="email" label="邮箱" rules={emailRules} extra="用于验证账号和找回密码">
          <Input autoComplete="email" />
        </Form.Item>
        <Form.Item name="memberNo" label={role === ROLE.teacher ? "工号" : "学号"} rules={memberNoRules}>
          <Input />
        </Form.Item>
        <Form.Item name="phone" label="手机号" rules={phoneRules}>
          <Input autoComplete="tel" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={sending}>
            注册
          </Button>
        </Form.Item>
      </Form>
      <div style={{ textAlign: "center" }}>
        已有账号？<Link to="/account/StudentLogin">学生登录</Link> · <Link to="/account/TeacherLogin">教师登录</Link>
      </div>
    </AuthCard>
  );
}
