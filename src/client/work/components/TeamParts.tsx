/**
 * Parts of the team editor (TeamEditor.tsx): adding a person (by username, or an email
 * invitation for someone without an account) and the list of invitations waiting for
 * registration, each with 撤回.
 */
import { useState } from "react";
import { Button, Form, Input, List, Modal, Popconfirm, Space, Tag, Typography } from "antd";
import { MailOutlined, UserAddOutlined } from "@ant-design/icons";
import type { PeopleRole } from "../../../shared/work/people";
import { TEAM_INVITE_DAYS, type TeamInviteView } from "../../../shared/work/invite";
import { fmtTime } from "../../format";
import { PeoplePicker } from "./PeoplePicker";

export /** Find a person of the work's school and add them; or invite someone without an account by email. */
function AddPerson({
  role,
  workId,
  button,
  testId,
  onAdd,
  onInvite,
  canInvite,
}: {
  role: PeopleRole;
  workId: number;
  button: string;
  testId: string;
  onAdd: (username: string) => Promise<boolean>;
  onInvite: (email: string, name: string) => Promise<boolean>;
  canInvite: boolean;
}) {
  const [value, setValue] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [inviting, setInviting] = useState(false);
  const [form] = Form.useForm<{ name: string; email: string }>();
  const add = async () => {
    if (!value) return;
    setBusy(true);
    if (await onAdd(value)) setValue(undefined);
    setBusy(false);
  };
  const invite = async (v: { name: string; email: string }) => {
    setBusy(true);
    const ok = await onInvite(v.email.trim(), v.name.trim());
    setBusy(false);
    if (ok) {
      setInviting(false);
      form.resetFields();
    }
  };
  return (
    <>
      <Space wrap>
        <Space.Compact style={{ width: 460, maxWidth: "100%" }}>
          <PeoplePicker
            role={role}
            workId={workId}
            value={value}
            onChange={(v: string | undefined) => setValue(v)}
            testId={`${testId}-search`}
          />
          <Button
            type="primary"
            icon={<UserAddOutlined />}
            loading={busy}
            disabled={!value}
            onClick={add}
            data-testid={`${testId}-add`}
          >
            {button}
          </Button>
        </Space.Compact>
        {canInvite && (
          <Button icon={<MailOutlined />} onClick={() => setInviting(true)} data-testid={`${testId}-invite`}>
            对方还没有账号？邮件邀请
          </Button>
        )}
      </Space>
      <Modal
        open={inviting}
        title={role === "author" ? "邮件邀请合作作者" : "邮件邀请指导教师"}
        okText="发送邀请"
        onOk={() => form.submit()}
        confirmLoading={busy}
        onCancel={() => setInviting(false)}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">
          对方会收到一封带链接的邮件，用链接注册{role === "author" ? "本校学生" : "本校教师"}账号后即加入团队
          {role === "author" ? "，并须登录确认参赛" : ""}。链接 {TEAM_INVITE_DAYS}{" "}
          天内有效；等待注册期间占用一个团队名额，作品提交前须注册或撤回。
        </Typography.Paragraph>
        <Form form={form} layout="vertical" onFinish={invite} preserve={false}>
          <Form.Item
            name="name"
            label="姓名"
            rules={[
              { required: true, whitespace: true, message: "请填写对方的姓名" },
              { min: 2, max: 40, message: "姓名为 2–40 个字" },
            ]}
          >
            <Input data-testid={`${testId}-invite-name`} />
          </Form.Item>
          <Form.Item
            name="email"
            label="邮箱"
            rules={[{ required: true, type: "email", message: "请填写正确的邮箱" }, { max: 254 }]}
          >
            <Input data-testid={`${testId}-invite-email`} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/** The invitations of one role waiting for the invitee to register (nothing when there are none). */
export function PendingInvites({
  rows,
  testId,
  onWithdraw,
}: {
  rows: TeamInviteView[];
  testId: string;
  onWithdraw: (i: TeamInviteView) => unknown;
}) {
  if (!rows.length) return null;
  return (
    <List
      size="small"
      style={{ marginTop: 8 }}
      header={<Typography.Text type="secondary">等待对方通过邮件链接注册</Typography.Text>}
      bordered
      dataSource={rows}
      data-testid={testId}
      renderItem={(i) => (
        <List.Item
          actions={[
            <Popconfirm
              key="w"
              title={`撤回对 ${i.name} 的邀请？`}
              description="撤回后邮件中的链接失效。"
              okText="撤回"
              okButtonProps={{ danger: true }}
              onConfirm={() => onWithdraw(i)}
            >
              <Button size="small" type="text" danger>
                撤回
              </Button>
            </Popconfirm>,
          ]}
        >
          <Space wrap>
            <Typography.Text>
              {i.name}（{i.email}）
            </Typography.Text>
            <Tag color="processing">待注册</Tag>
            <Typography.Text type="secondary">链接有效至 {fmtTime(i.expiresAt)}</Typography.Text>
          </Space>
        </List.Item>
      )}
    />
  );
}

/** 退出该作品, for a co-author, behind a confirmation. */
export function LeaveWork({ onConfirm }: { onConfirm: () => unknown }) {
  return (
    <Popconfirm
      title="退出该作品？"
      description="退出后您不再是该作品的作者，需由第一作者重新添加。"
      okText="退出"
      okButtonProps={{ danger: true }}
      onConfirm={onConfirm}
    >
      <Button danger data-testid="team-leave">
        退出该作品
      </Button>
    </Popconfirm>
  );
}
