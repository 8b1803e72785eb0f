/**
 * A contest's invitations for its admin: the dashboard (per 大类: sent, opened, pending,
 * accepted, declined, expired, withdrawn, and the coverage — the contest's judges against what
 * N reviews of the current works need) and the list with withdraw and resend (its columns:
 * invitation-columns.tsx).
 */
import { useState } from "react";
import type { Dayjs } from "dayjs";
import {
  App,
  Button,
  Card,
  DatePicker,
  Input,
  Modal,
  Progress,
  Select,
  Space,
  Statistic,
  Table,
  Tooltip,
  Typography,
  type ButtonProps,
} from "antd";
import { ReloadOutlined } from "@ant-design/icons";
import {
  INVITATION_STATES,
  INVITATION_STATE_NAMES,
  type InvitationFilters,
  type InvitationState,
  type InvitationView,
  type StateCounts,
} from "../../shared/judge-invite/schema";
import { bjTime, inviteApi, useDashboard, useInvitations, useInviteContest, useInviteRefresh } from "./api";
import { bj, bjDate } from "../format";
import { invitationColumns } from "./invitation-columns";

const COUNT_COLUMNS: { key: keyof StateCounts; title: string }[] = [
  { key: "sent", title: "已发出" },
  { key: "opened", title: "已打开" },
  { key: "pending", title: "待答复" },
  { key: "accepted", title: "已接受" },
  { key: "declined", title: "已谢绝" },
  { key: "expired", title: "已过期" },
  { key: "withdrawn", title: "已撤回" },
];

export function InviteDashboardCard({ contestId }: { contestId: number }) {
  const d = useDashboard(contestId);
  if (d.isError) return <Typography.Text type="danger">{d.error.message}</Typography.Text>;
  const data = d.data;
  return (
    <Card size="small" title="邀请统计与评委覆盖" loading={d.isLoading} data-testid="invite-dashboard">
      {data && (
        <Space direction="vertical" style={{ width: "100%" }} size={12}>
          <Space size={32} wrap data-testid="invite-totals">
            {COUNT_COLUMNS.map((c) => (
              <Statistic key={c.key} title={c.title} value={data.totals[c.key]} />
            ))}
          </Space>
          <Table
            size="small"
            pagination={false}
            rowKey="categoryId"
            dataSource={data.categories.filter((c) => c.works > 0 || c.counts.sent > 0)}
            data-testid="invite-coverage"
            columns={[
              { title: "大类", dataIndex: "name", fixed: "left" },
              ...COUNT_COLUMNS.map((c) => ({
                title: c.title,
                key: c.key,
                width: 64,
                render: (_: unknown, r: (typeof data.categories)[number]) => r.counts[c.key] || "",
              })),
              { title: "作品", dataIndex: "works", width: 64 },
              {
                title: (
                  <Tooltip
                    title={`每件作品 ${data.reviewsPerWork} 次评审${data.judgeCapacity ? `，每位评委至多 ${data.judgeCapacity} 件：所需评委 = max(${data.reviewsPerWork}, ⌈作品 × ${data.reviewsPerWork} ÷ ${data.judgeCapacity}⌉)` : "，评委不限量：至少需要 " + data.reviewsPerWork + " 位不同的评委"}`}
                  >
                    评委 / 所需
                  </Tooltip>
                ),
                key: "judges",
                width: 110,
                render: (_: unknown, r) => (
                  <span data-testid={`coverage-${r.categoryId}`}>
                    {r.judges} / {r.judgesNeeded}
                  </span>
                ),
              },
              {
                title: "覆盖",
                key: "coverage",
                width: 160,
                render: (_: unknown, r) =>
                  r.works ? (
                    <Progress
                      aria-label="覆盖率"
                      percent={Math.min(100, Math.round(r.coverage * 100))}
                      size="small"
                      status={r.covered ? "success" : "exception"}
                      format={() => `${Math.round(r.coverage * 100)}%`}
                    />
                  ) : (
                    <Typography.Text type="secondary">暂无作品</Typography.Text>
                  ),
              },
            ]}
            scroll={{ x: 1000 }}
          />
          <Typography.Text type="secondary">
            只列出有作品或有邀请的大类。评委按其所在评审组、接受邀请的类别和评委库中的可评审类别计入大类
            {data.judgesWithoutCategory ? `；另有 ${data.judgesWithoutCategory} 位本赛事评委未指定类别，未计入` : ""}
            。评审次数需求 = 作品数 × {data.reviewsPerWork}。
          </Typography.Text>
        </Space>
      )}
    </Card>
  );
}

function ResendModal({ v, onClose }: { v: InvitationView; onClose: (changed: boolean) => void }) {
  const expired = v.state === "expired";
  const [date, setDate] = useState<Dayjs | null>(expired ? bj().add(7, "day") : null);
  const [busy, setBusy] = useState(false);
  const { message } = App.useApp();
  const ok = async () => {
    setBusy(true);
    const r = await inviteApi.resend(v.id, date ? bjDate(date) : undefined);
    setBusy(false);
    if (r.error !== 0) return void message.error(r.info || "发送失败");
    message.success(r.info);
    onClose(true);
  };
  return (
    <Modal
      open
      title={`重新发送给「${v.name}」`}
      okText="重新发送"
      okButtonProps={{ loading: busy, disabled: expired && !date, "data-testid": "resend-confirm" } as ButtonProps}
      onOk={ok}
      onCancel={() => onClose(false)}
    >
      <Typography.Paragraph>将生成新的链接发送至 {v.email}，原链接随即失效。</Typography.Paragraph>
      <Space>
        <span>{expired ? "新的答复截止日期：" : "答复截止日期（不改可不填）："}</span>
        <DatePicker
          value={date}
          onChange={setDate}
          disabledDate={(d) => d.isBefore(bj().add(1, "day"), "day") || d.isAfter(bj().add(365, "day"))}
          placeholder={bjTime(v.answerBy).slice(0, 10)}
        />
      </Space>
    </Modal>
  );
}

function WithdrawModal({ v, onClose }: { v: InvitationView; onClose: (changed: boolean) => void }) {
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const { message } = App.useApp();
  const ok = async () => {
    setBusy(true);
    const r = await inviteApi.withdraw(v.id, reason.trim() || undefined);
    setBusy(false);
    if (r.error !== 0) return void message.error(r.info || "撤回失败");
    message.success(r.info);
    onClose(true);
  };
  return (
    <Modal
      open
      title={`撤回对「${v.name}」的邀请`}
      okText="撤回"
      okButtonProps={{ danger: true, loading: busy, "data-testid": "withdraw-confirm" } as ButtonProps}
      onOk={ok}
      onCancel={() => onClose(false)}
    >
      <Typography.Paragraph>撤回后链接立即失效（打开时显示“链接无效或已被撤回”）。</Typography.Paragraph>
      <Input
        maxLength={200}
        placeholder="撤回原因（选填，仅管理员可见）"
        aria-label="撤回原因（选填，仅管理员可见）"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
    </Modal>
  );
}

export function InvitationsTable({ contestId }: { contestId: number }) {
  const [f, setF] = useState<InvitationFilters>({ current: 1, pageSize: 20 });
  const list = useInvitations(contestId, f);
  const contest = useInviteContest(contestId);
  const refresh = useInviteRefresh();
  const [acting, setActing] = useState<{ kind: "resend" | "withdraw"; v: InvitationView } | null>(null);
  const close = (changed: boolean) => {
    setActing(null);
    if (changed) refresh();
  };
  return (
    <Card
      size="small"
      title="邀请列表"
      extra={
        <Button icon={<ReloadOutlined />} onClick={refresh}>
          刷新
        </Button>
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Select<InvitationState>
          allowClear
          placeholder="全部状态"
          style={{ width: 140 }}
          value={f.state}
          options={INVITATION_STATES.map((s) => ({ value: s, label: INVITATION_STATE_NAMES[s] }))}
          onChange={(state) => setF({ ...f, state, current: 1 })}
          data-testid="invite-filter-state"
        />
        <Select<number>
          allowClear
          placeholder="全部大类"
          style={{ width: 200 }}
          value={f.categoryId}
          options={(contest.data?.categories ?? []).map((c) => ({ value: c.id, label: c.name }))}
          onChange={(categoryId) => setF({ ...f, categoryId, current: 1 })}
        />
        <Input.Search
          allowClear
          placeholder="姓名或邮箱"
          aria-label="姓名或邮箱"
          style={{ width: 220 }}
          onSearch={(keyword) => setF({ ...f, keyword: keyword.trim() || undefined, current: 1 })}
        />
      </Space>
      {list.isError && <Typography.Text type="danger">{list.error.message}</Typography.Text>}
      <Table<InvitationView>
        size="small"
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.list}
        data-testid="invite-list"
        pagination={{
          current: f.current,
          pageSize: f.pageSize,
          total: list.data?.total ?? 0,
          showTotal: (n) => `共 ${n} 份`,
          onChange: (current, pageSize) => setF({ ...f, current, pageSize }),
        }}
        scroll={{ x: 1340 }}
        columns={invitationColumns((kind, v) => setActing({ kind, v }))}
      />
      {acting?.kind === "resend" && <ResendModal v={acting.v} onClose={close} />}
      {acting?.kind === "withdraw" && <WithdrawModal v={acting.v} onClose={close} />}
    </Card>
  );
}
