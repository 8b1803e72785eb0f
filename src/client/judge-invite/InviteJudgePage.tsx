/**
 * /inviteJudge/:code (no layout, hidden): the invitation link. Shows the contest, the invited
 * categories, the dates and the message; the invitee logs in (an existing account with the
 * invited email) or creates a judge account from the link (the email is verified by it), then
 * confirms school and expertise, declares conflicts and accepts — or declines with an optional
 * reason (no account needed for that). An expired, used, withdrawn or unknown link and a wrong
 * account each get a clear page; none of them changes anything.
 */
import { useState, type ReactNode } from "react";
import { useParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  Modal,
  Result,
  Skeleton,
  Space,
  Tabs,
  Tag,
  Typography,
  type ButtonProps,
} from "antd";
import { LockOutlined, LogoutOutlined, UserOutlined } from "@ant-design/icons";
import { CODE_PATTERN, type AnswerOutcome, type PublicInvitation } from "../../shared/judge-invite/schema";
import type { CurrentUser } from "../../shared/account/schema";
import type { PageProps } from "../routing/model";
import { Logo } from "../components/Logo";
import { post } from "../request";
import { permissionsQuery } from "../providers/access-control";
import { ANONYMOUS, queryClient, setCurrentUser } from "../providers/session";
import { applyFieldError, nameRules, phoneRules } from "../account/rules";
import { CredentialFields } from "../account/CredentialFields";
import { AcceptForm } from "./AcceptForm";
import { bjTime, inviteApi, inviteKeys, useLink } from "./api";

const LEVEL: Record<string, string> = { national: "国赛", provincial: "省级赛", school: "校级赛" };

function Screen({ children }: { children: ReactNode }) {
  return (
    <div style={{ minHeight: "100vh", background: "#f5f5f5", padding: "32px 16px" }}>
      <div style={{ maxWidth: 760, margin: "0 auto" }}>
        <Space align="center" style={{ marginBottom: 16 }}>
          <Logo style={{ height: 36, width: 36 }} />
          <Typography.Title level={4} style={{ margin: 0 }}>
            赛务平台 · 评委邀请
          </Typography.Title>
        </Space>
        {children}
      </div>
    </div>
  );
}

/** After logging in, out or creating the account: who we are now, and the link read again. */
async function becomes(user: CurrentUser) {
  await queryClient.fetchQuery(permissionsQuery(user));
  await setCurrentUser(user);
}

function LoginForm() {
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const onFinish = async (v: { username: string; password: string }) => {
    setError(undefined);
    setSending(true);
    const reply = await post<CurrentUser>("/Backend/Common/account/login", { ...v, page: "admin" }, { notify: false });
    setSending(false);
    if (reply.error !== 0 || !reply.data) return setError(reply.info || "登录失败，请稍后重试");
    await becomes(reply.data);
  };
  return (
    <Form layout="vertical" onFinish={onFinish} requiredMark={false} data-testid="invite-login">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="invite-login-error" />}
      <Form.Item
        name="username"
        label="用户名或邮箱"
        rules={[{ required: true, whitespace: true, message: "请输入用户名或邮箱" }]}
      >
        <Input prefix={<UserOutlined />} autoComplete="username" placeholder="用户名或邮箱" />
      </Form.Item>
      <Form.Item name="password" label="密码" rules={[{ required: true, message: "请输入密码" }]}>
        <Input.Password prefix={<LockOutlined />} autoComplete="current-password" placeholder="密码" />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={sending}>
          登录
        </Button>
        <a href="/account/claim-account">忘记密码？</a>
      </Space>
    </Form>
  );
}

type RegisterValues = { username: string; password: string; confirm: string; name: string; phone?: string };

function RegisterForm({ code, v }: { code: string; v: PublicInvitation }) {
  const [form] = Form.useForm<RegisterValues>();
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const onFinish = async ({ confirm: _c, ...values }: RegisterValues) => {
    setError(undefined);
    setSending(true);
    const reply = await inviteApi.register(code, {
      ...values,
      name: values.name.trim(),
      phone: values.phone?.trim() || undefined,
    });
    setSending(false);
    if (reply.error === 0 && reply.data) return becomes(reply.data);
    if (!applyFieldError(form, reply, ["username", "password", "name", "phone"]))
      setError(reply.info || "创建账号失败，请稍后重试");
  };
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={onFinish}
      initialValues={{ name: v.name ?? "" }}
      requiredMark="optional"
      data-testid="invite-register"
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={`账号的邮箱为受邀邮箱 ${v.email}，已由本链接验证，无需再次验证。`}
      />
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="invite-register-error" />}
      <Form.Item name="name" label="姓名" rules={nameRules}>
        <Input autoComplete="name" />
      </Form.Item>
      <CredentialFields />
      <Form.Item name="phone" label="手机号" rules={phoneRules}>
        <Input autoComplete="tel" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={sending} data-testid="invite-register-submit">
        创建评委账号
      </Button>
    </Form>
  );
}

/** Decline with an optional reason, after a confirmation. */
export function DeclineButton({ onDecline }: { onDecline: (reason?: string) => Promise<{ error: number; info: string }> }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const submit = async () => {
    setSending(true);
    const r = await onDecline(reason.trim() || undefined);
    setSending(false);
    if (r.error !== 0) return setError(r.info || "操作失败，请稍后重试");
    setOpen(false);
  };
  return (
    <>
      <Button danger onClick={() => setOpen(true)} data-testid="decline-open">
        谢绝邀请
      </Button>
      <Modal
        open={open}
        title="谢绝邀请"
        okText="确认谢绝"
        okButtonProps={{ danger: true, loading: sending, "data-testid": "decline-confirm" } as ButtonProps}
        cancelText="取消"
        onOk={submit}
        onCancel={() => setOpen(false)}
        destroyOnClose
      >
        <Typography.Paragraph>谢绝后链接即失效。如方便，请告诉我们原因（选填）：</Typography.Paragraph>
        <Input.TextArea
          rows={3}
          maxLength={500}
          showCount
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          placeholder="如：评审期间另有安排"
          data-testid="decline-reason"
        />
        {error && <Alert type="error" showIcon message={error} style={{ marginTop: 12 }} />}
      </Modal>
    </>
  );
}

function Done({ outcome, viewerMatches }: { outcome: AnswerOutcome; viewerMatches: boolean }) {
  if (outcome.state === "declined") {
    return (
      <div data-testid="invite-done">
        <Result
          status="info"
          title="您已谢绝本次邀请"
          subTitle={`感谢您的答复。如改变主意，请联系「${outcome.contest.name}」的赛事管理员。`}
        />
      </div>
    );
  }
  return (
    <div data-testid="invite-done">
      <Result
        status="success"
        title={`您已成为「${outcome.contest.name}」的评委`}
        subTitle={`${outcome.conflicts ? `已记录您申报的 ${outcome.conflicts} 项回避，评审分配将避开这些作品。` : ""}评审开始后，请登录平台在「评审赛事」中进行网络评审；您的评委信息和邀请可在「评委库」中查看。`}
        extra={
          viewerMatches
            ? [
                <Button key="pool" type="primary" href="/judgePool" data-testid="invite-to-pool">
                  前往评委库
                </Button>,
                <Button key="home" href="/index">
                  进入用户中心
                </Button>,
              ]
            : []
        }
      />
    </div>
  );
}

function Closed({ v }: { v: PublicInvitation }) {
  const contest = v.contest ? `「${v.contest.name}」` : "";
  if (v.state === "expired") {
    return (
      <div data-testid="invite-expired">
        <Result
          status="warning"
          title="邀请已过期"
          subTitle={`${contest}评委邀请的答复截止时间为 ${bjTime(v.answerBy)}，链接已失效。如仍愿意担任评委，请联系赛事管理员重新发送邀请。`}
        />
      </div>
    );
  }
  if (v.state === "accepted") {
    return (
      <div data-testid="invite-used">
        <Result
          status="success"
          title="该邀请已接受"
          subTitle={`${contest}的评委邀请已经接受，链接已失效（每个邀请链接只能使用一次）。${v.viewer?.matches ? "您已是该赛事的评委。" : "请登录评委账号查看评审任务。"}`}
          extra={
            v.viewer?.matches ? (
              <Button type="primary" href="/judgePool">
                前往评委库
              </Button>
            ) : (
              <Button type="primary" href="/account/Login">
                登录
              </Button>
            )
          }
        />
      </div>
    );
  }
  if (v.state === "declined")
    return (
      <div data-testid="invite-used">
        <Result
          status="info"
          title="该邀请已谢绝"
          subTitle={`${contest}的评委邀请已经谢绝，链接已失效。如改变主意，请联系赛事管理员重新邀请。`}
        />
      </div>
    );
  return (
    <div data-testid="invite-invalid">
      <Result
        status="404"
        title="邀请链接无效或已被撤回"
        subTitle="请确认链接完整无误；邀请被撤回或重新发送后，原链接即失效。如有疑问，请联系赛事管理员。"
        extra={<Button href="/">返回首页</Button>}
      />
    </div>
  );
}

/** What the invitee is asked (the invitation's contest, categories, dates and message). */
function InvitationFacts({ v }: { v: PublicInvitation }) {
  return (
    <Card title={`${v.name ?? ""}，您好：诚邀您担任评委`}>
      <Descriptions bordered size="small" column={1}>
        <Descriptions.Item label="赛事">
          <span data-testid="invite-contest">{v.contest!.name}</span>（{v.contest!.year} 年{LEVEL[v.contest!.level] ?? ""}）
        </Descriptions.Item>
        <Descriptions.Item label="评审类别">
          {v.categories.map((c) => (
            <Tag key={c} color="blue">
              {c}
            </Tag>
          ))}
        </Descriptions.Item>
        <Descriptions.Item label="邀请人">{v.invitedBy}</Descriptions.Item>
        <Descriptions.Item label="发出时间">{bjTime(v.sentAt)}</Descriptions.Item>
        <Descriptions.Item label="答复截止">
          <b>{bjTime(v.answerBy)}</b>（北京时间）
        </Descriptions.Item>
        <Descriptions.Item label="受邀邮箱">{v.email}</Descriptions.Item>
      </Descriptions>
      {v.message && (
        <Alert
          style={{ marginTop: 16 }}
          type="info"
          message="邀请说明"
          description={<span style={{ whiteSpace: "pre-wrap" }}>{v.message}</span>}
          data-testid="invite-message"
        />
      )}
    </Card>
  );
}

/**
 * The answer part of the page, by who is looking: nobody (create a judge account or log in),
 * another account (log out), an account that is not a judge's, or the invited judge (the accept form).
 */
function AnswerAction({
  v,
  code,
  answered,
  logout,
}: {
  v: PublicInvitation;
  code: string;
  answered: <R extends { error: number; data?: AnswerOutcome }>(r: R) => R;
  logout: () => Promise<void>;
}) {
  let action: ReactNode;
  if (!v.viewer) {
    action = (
      <Tabs
        defaultActiveKey={v.accountExists ? "login" : "register"}
        items={[
          ...(v.accountExists ? [] : [{ key: "register", label: "创建评委账号", children: <RegisterForm code={code} v={v} /> }]),
          {
            key: "login",
            label: v.accountExists ? "登录已有账号" : "已有账号？登录",
            children: (
              <>
                <Typography.Paragraph type="secondary">
                  {v.accountExists
                    ? `受邀邮箱 ${v.email} 已有平台账号，请登录该账号后答复。`
                    : `请登录邮箱为 ${v.email} 的账号；其他账号不能接受本邀请。`}
                </Typography.Paragraph>
                <LoginForm />
              </>
            ),
          },
        ]}
        data-testid="invite-auth"
      />
    );
  } else if (!v.viewer.matches) {
    action = (
      <Alert
        type="error"
        showIcon
        message="当前登录的账号不能答复此邀请"
        description={
          <Space direction="vertical">
            <span>
              此邀请发给 {v.email}，您当前登录的账号「{v.viewer.username}
              」的邮箱与之不符。请退出当前账号，用受邀邮箱对应的账号登录，或在退出后用受邀邮箱创建评委账号。
            </span>
            <Button icon={<LogoutOutlined />} onClick={() => void logout()} data-testid="invite-logout">
              退出当前账号
            </Button>
          </Space>
        }
        data-testid="invite-wrong-account"
      />
    );
  } else if (!v.viewer.isJudge) {
    action = (
      <Alert
        type="error"
        showIcon
        message="评委邀请须由评委账号接受"
        description="您当前登录的账号不是评委账号，不能接受此邀请。请联系赛事管理员。"
        data-testid="invite-not-judge"
      />
    );
  } else {
    action = (
      <>
        <Alert
          type="success"
          showIcon
          style={{ marginBottom: 16 }}
          message={`您好，${v.viewer.name}。请确认以下信息并申报回避，然后接受邀请。`}
        />
        <AcceptForm
          prefill={v.prefill}
          categories={v.categoryOptions}
          invited={[]}
          onSubmit={async (body) => answered(await inviteApi.accept(code, body))}
        />
      </>
    );
  }

  return action;
}

export default function InviteJudgePage(_: PageProps) {
  const { code = "" } = useParams();
  const valid = new RegExp(CODE_PATTERN).test(code);
  const q = useLink(valid ? code : "");
  const qc = useQueryClient();
  const [done, setDone] = useState<AnswerOutcome | null>(null);

  if (!valid)
    return (
      <Screen>
        <Card>
          <Closed v={{ state: "invalid" } as PublicInvitation} />
        </Card>
      </Screen>
    );
  if (q.isLoading)
    return (
      <Screen>
        <Card>
          <Skeleton active />
        </Card>
      </Screen>
    );
  if (q.error || !q.data)
    return (
      <Screen>
        <Card>
          <Result
            status="error"
            title="无法打开邀请"
            subTitle={q.error?.message ?? "请稍后重试"}
            extra={<Button onClick={() => void q.refetch()}>重试</Button>}
          />
        </Card>
      </Screen>
    );
  const v = q.data;
  if (done)
    return (
      <Screen>
        <Card>
          <Done outcome={done} viewerMatches={!!v.viewer?.matches} />
        </Card>
      </Screen>
    );
  if (v.state !== "open")
    return (
      <Screen>
        <Card>
          <Closed v={v} />
        </Card>
      </Screen>
    );

  const answered = <R extends { error: number; data?: AnswerOutcome }>(r: R): R => {
    if (r.error === 0 && r.data) setDone(r.data);
    return r;
  };
  const decline = async (reason?: string) => answered(await inviteApi.decline(code, reason));
  const logout = async () => {
    await post("/Backend/Common/account/logout", undefined, { notify: false });
    await becomes(ANONYMOUS);
    await qc.invalidateQueries({ queryKey: inviteKeys.link(code) });
  };

  return (
    <Screen>
      <Space direction="vertical" size={16} style={{ display: "flex" }} data-testid="invite-page">
        <InvitationFacts v={v} />
        <Card title="答复邀请" extra={<DeclineButton onDecline={decline} />}>
          <AnswerAction v={v} code={code} answered={answered} logout={logout} />
        </Card>
      </Space>
    </Screen>
  );
}
