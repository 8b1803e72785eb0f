/**
 * The columns of a contest's invitation list (InvitationsPanel.tsx): name (marked 新 when not
 * yet in the pool), email, categories, state, sent/opened/answer-by times, the answer, and the
 * resend/withdraw actions of a pending or expired invitation; and the state tag colours.
 */
import { Button, Space, Tag, Tooltip, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import { RollbackOutlined, SendOutlined } from "@ant-design/icons";
import { INVITATION_STATE_NAMES, type InvitationState, type InvitationView } from "../../shared/judge-invite/schema";
import { bjTime } from "./api";

export const STATE_COLORS: Record<InvitationState, string> = {
  sent: "processing",
  accepted: "success",
  declined: "default",
  withdrawn: "default",
  expired: "warning",
};

export function invitationColumns(act: (kind: "resend" | "withdraw", v: InvitationView) => void): ColumnsType<InvitationView> {
  return [
    {
      title: "姓名",
      dataIndex: "name",
      width: 100,
      render: (n: string, v) => (
        <Space size={4}>
          {n}
          {v.personId ? null : (
            <Tooltip title="评委库中尚无此人，接受邀请后自动加入">
              <Tag color="blue">新</Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    { title: "邮箱", dataIndex: "email", width: 200 },
    {
      title: "类别",
      key: "cat",
      width: 240,
      render: (_, v) => (
        <Space size={[0, 4]} wrap>
          {v.categories.map((c) => (
            <Tag key={c.id}>{c.name}</Tag>
          ))}
        </Space>
      ),
    },
    {
      title: "状态",
      key: "state",
      width: 90,
      render: (_, v) => (
        <Tag color={STATE_COLORS[v.state]} data-testid={`invite-state-${v.id}`}>
          {INVITATION_STATE_NAMES[v.state]}
        </Tag>
      ),
    },
    { title: "发出", dataIndex: "sentAt", width: 140, render: bjTime },
    {
      title: "打开",
      dataIndex: "openedAt",
      width: 140,
      render: (x: string | null) => (x ? bjTime(x) : <Typography.Text type="secondary">未打开</Typography.Text>),
    },
    { title: "答复截止", dataIndex: "answerBy", width: 140, render: bjTime },
    {
      title: "答复",
      key: "answer",
      width: 180,
      render: (_, v) =>
        v.answeredAt ? (
          <Space direction="vertical" size={0}>
            <span>{bjTime(v.answeredAt)}</span>
            {v.acceptedUser && <Typography.Text type="secondary">账号 {v.acceptedUser.username}</Typography.Text>}
            {v.statusReason && <Typography.Text type="secondary">原因：{v.statusReason}</Typography.Text>}
          </Space>
        ) : v.remindedAt ? (
          <Typography.Text type="secondary">已于 {bjTime(v.remindedAt)} 提醒</Typography.Text>
        ) : null,
    },
    {
      title: "操作",
      key: "ops",
      width: 170,
      fixed: "right",
      render: (_, v) =>
        v.state === "sent" || v.state === "expired" ? (
          <Space>
            <Button size="small" icon={<SendOutlined />} onClick={() => act("resend", v)} data-testid={`invite-resend-${v.id}`}>
              重发
            </Button>
            <Button
              size="small"
              danger
              icon={<RollbackOutlined />}
              onClick={() => act("withdraw", v)}
              data-testid={`invite-withdraw-${v.id}`}
            >
              撤回
            </Button>
          </Space>
        ) : null,
    },
  ];
}
