/**
 * 「我的邀请」 for a judge on /judgePool: the invitations to the account's email, pending ones
 * first; accept (the same confirmation and conflict declaration as the link's page, prefilled
 * from the judge's pool record) or decline with an optional reason.
 */
import { useState } from "react";
import { App, Button, Card, Empty, List, Modal, Space, Tag, Typography } from "antd";
import { INVITATION_STATE_NAMES, type MyInvitation } from "../../shared/judge-invite/schema";
import { AcceptForm } from "./AcceptForm";
import { DeclineButton } from "./InviteJudgePage";
import { STATE_COLORS } from "./invitation-columns";
import { bjTime, inviteApi, useInviteRefresh, useMyInvitations } from "./api";

export function MyInvitations() {
  const q = useMyInvitations();
  const refresh = useInviteRefresh();
  const { message } = App.useApp();
  const [accepting, setAccepting] = useState<MyInvitation | null>(null);
  const done = (r: { error: number; info: string }) => {
    if (r.error === 0) {
      message.success(r.info);
      setAccepting(null);
      refresh();
    }
    return r;
  };
  return (
    <Card title="我的邀请" size="small" loading={q.isLoading} data-testid="my-invitations">
      {q.isError && <Typography.Text type="danger">{q.error.message}</Typography.Text>}
      <List
        dataSource={q.data?.invitations ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无评委邀请" /> }}
        renderItem={(v) => (
          <List.Item
            data-testid={`my-invitation-${v.id}`}
            actions={
              v.state === "sent"
                ? [
                    <Button key="a" type="primary" size="small" onClick={() => setAccepting(v)} data-testid="my-accept">
                      接受
                    </Button>,
                    <DeclineButton key="d" onDecline={async (reason) => done(await inviteApi.declineMine(v.id, reason))} />,
                  ]
                : []
            }
          >
            <List.Item.Meta
              title={
                <Space>
                  {v.contest.name}
                  <Tag color={STATE_COLORS[v.state]}>{INVITATION_STATE_NAMES[v.state]}</Tag>
                </Space>
              }
              description={
                <Space direction="vertical" size={2}>
                  <span>评审类别：{v.categories.map((c) => c.name).join("、")}</span>
                  <span>
                    {v.invitedBy} 于 {bjTime(v.sentAt)} 发出，
                    {v.state === "sent"
                      ? `请在 ${bjTime(v.answerBy)} 前答复`
                      : v.answeredAt
                        ? `${bjTime(v.answeredAt)} 答复`
                        : `答复截止 ${bjTime(v.answerBy)}`}
                  </span>
                  {v.message && (
                    <Typography.Text type="secondary" style={{ whiteSpace: "pre-wrap" }}>
                      {v.message}
                    </Typography.Text>
                  )}
                </Space>
              }
            />
          </List.Item>
        )}
      />
      <Modal
        open={!!accepting}
        width={720}
        footer={null}
        title={accepting ? `接受邀请 · ${accepting.contest.name}` : ""}
        onCancel={() => setAccepting(null)}
        destroyOnClose
      >
        {accepting && (
          <AcceptForm
            prefill={q.data?.prefill ?? null}
            categories={accepting.categoryOptions}
            invited={accepting.categories.map((c) => c.id)}
            onSubmit={async (body) => done(await inviteApi.acceptMine(accepting.id, body))}
          />
        )}
      </Modal>
    </Card>
  );
}
