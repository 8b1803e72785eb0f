/**
 * /workInvite/:code (no layout, hidden): an email invitation into a work's team. Shows the
 * work, its school, the role and who invited; the invitee creates a student or teacher
 * account of that school from the link (the email verified by it; 用户名/密码 fields as the
 * registration) and lands in the team — a co-author then confirms on 我的作品. A used,
 * expired, withdrawn or unknown link, or a work that can no longer take members, gets a
 * clear page and changes nothing. No react-router, refine or policy engine here: the light login
 * entry (src/client/login) renders this page for a visitor who opens the link, and hands over to
 * the admin application once the account is created (LoginHostContext, as after logging in).
 */
import { useContext, useState, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Descriptions, Form, Input, Result, Skeleton, Space, Typography } from "antd";
import { TEAM_CODE_PATTERN, type PublicTeamInvite } from "../../shared/work/invite";
import type { CurrentUser } from "../../shared/account/schema";
import { routeParams, type PageProps } from "../routing/model";
import { Logo } from "../components/Logo";
import { currentUserQuery, isLoggedIn } from "../providers/session";
import { useAppLocation } from "../routing/nav";
import { LoginHostContext } from "../providers/login-request";
import { applyFieldError, nameRules, phoneRules } from "../account/rules";
import { CredentialFields } from "../account/CredentialFields";
import { fmtTimeLabelled } from "../format";
import { useTeamLink, workApi } from "./api";

const ROLE_TEXT = { author: "合作作者", teacher: "指导教师" } as const;

function Screen({ children }: { children: ReactNode }) {
  return (
    <div style={{ minHeight: "100vh", background: "#f5f5f5", padding: "32px 16px" }}>
      <div style={{ maxWidth: 680, margin: "0 auto" }}>
        <Space align="center" style={{ marginBottom: 16 }}>
          <Logo style={{ height: 36, width: 36 }} />
          <Typography.Title level={4} style={{ margin: 0 }}>
            赛务平台 · 作品团队邀请
          </Typography.Title>
        </Space>
        {children}
      </div>
    </div>
  );
}

type Values = { name: string; memberNo: string; username: string; password: string; confirm: string; phone?: string };

function RegisterForm({ code, v }: { code: string; v: PublicTeamInvite }) {
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const host = useContext(LoginHostContext);
  const onFinish = async ({ confirm: _c, ...values }: Values) => {
    setError(undefined);
    setSending(true);
    const reply = await workApi.registerFromLink(code, {
      ...values,
      name: values.name.trim(),
      memberNo: values.memberNo.trim(),
      phone: values.phone?.trim() || undefined,
    });
    setSending(false);
    if (reply.error === 0 && reply.data) {
      const user: CurrentUser = reply.data;
      // Signed in: to 我的作品 (no greeting), as the host does after logging in.
      await host?.afterLogin(user, null, v.role === "teacher" ? "/teacher/WorkManagement" : "/author/work-management");
      return;
    }
    if (!applyFieldError(form, reply, ["username", "password", "name", "phone", "memberNo"]))
      setError(reply.info || "创建账号失败，请稍后重试");
  };
  const number = v.role === "teacher" ? "工号" : "学号";
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={onFinish}
      initialValues={{ name: v.name ?? "" }}
      requiredMark="optional"
      data-testid="team-invite-register"
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={`账号的邮箱为受邀邮箱 ${v.email}，已由本链接验证；学校为${v.schoolName}。`}
      />
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="team-invite-error" />}
      <Form.Item name="name" label="姓名" rules={nameRules}>
        <Input autoComplete="name" />
      </Form.Item>
      <Form.Item
        name="memberNo"
        label={number}
        rules={[
          { required: true, whitespace: true, message: `请填写${number}` },
          { pattern: /^[A-Za-z0-9-]{1,40}$/, message: `${number}为字母、数字或 -，最多 40 位` },
        ]}
      >
        <Input />
      </Form.Item>
      <CredentialFields />
      <Form.Item name="phone" label="手机号" rules={phoneRules}>
        <Input autoComplete="tel" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={sending} data-testid="team-invite-submit">
        创建账号并加入团队
      </Button>
    </Form>
  );
}

export default function TeamInvitePage({ route }: PageProps) {
  // The :code of the route's path (/workInvite/:code), in either application.
  const code = routeParams(route.path, useAppLocation().pathname).code ?? "";
  const valid = new RegExp(TEAM_CODE_PATTERN).test(code);
  const link = useTeamLink(valid ? code : "");
  const loggedIn = isLoggedIn(useQuery(currentUserQuery).data);
  if (!valid)
    return (
      <Screen>
        <Result status="warning" title="邀请链接无效" subTitle="请检查链接是否完整（邮件中的链接可能被换行截断）。" />
      </Screen>
    );
  if (link.isLoading)
    return (
      <Screen>
        <Card>
          <Skeleton active />
        </Card>
      </Screen>
    );
  if (link.isError || !link.data)
    return (
      <Screen>
        <Result status="error" title="无法打开邀请" subTitle={link.error?.message} />
      </Screen>
    );
  const v = link.data;
  if (v.state !== "open") {
    const text = {
      used: "该邀请已使用，链接已失效。请直接登录您的账号。",
      expired: `该邀请已于 ${v.expiresAt ? fmtTimeLabelled(v.expiresAt) : ""} 过期，请联系邀请您的同学重新邀请。`,
      closed: "该作品已提交或已结束报名，不能再加入团队。请联系邀请您的同学。",
      invalid: "邀请链接无效或已被撤回，请向邀请您的同学确认。",
      open: "",
    }[v.state];
    return (
      <Screen>
        <div data-testid={`team-invite-${v.state}`}>
          <Result
            status="warning"
            title={v.state === "used" ? "邀请已使用" : v.state === "expired" ? "邀请已过期" : "邀请不可用"}
            subTitle={text}
            extra={<Button href="/account/StudentLogin">去登录</Button>}
          />
        </div>
      </Screen>
    );
  }
  return (
    <Screen>
      <Card data-testid="team-invite">
        <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
          <Descriptions.Item label="作品">《{v.workName}》</Descriptions.Item>
          <Descriptions.Item label="赛事">{v.contestName}</Descriptions.Item>
          <Descriptions.Item label="学校">{v.schoolName}</Descriptions.Item>
          <Descriptions.Item label="邀请您担任">{v.role ? ROLE_TEXT[v.role] : ""}</Descriptions.Item>
          <Descriptions.Item label="邀请人">{v.invitedBy}</Descriptions.Item>
          <Descriptions.Item label="链接有效至">{v.expiresAt ? fmtTimeLabelled(v.expiresAt) : ""}</Descriptions.Item>
        </Descriptions>
        {loggedIn ? (
          <Alert
            type="warning"
            showIcon
            message="您已登录其他账号"
            description="邀请链接用于没有账号的人创建账号。请先退出当前账号再打开本链接；已有账号的，请让邀请人按姓名或学号/工号直接添加您。"
          />
        ) : (
          <RegisterForm code={code} v={v} />
        )}
      </Card>
    </Screen>
  );
}
