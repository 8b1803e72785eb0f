/** The logged-in sessions of the account: the current one marked, end one or all others. */
import { Button, Card, Popconfirm, Table, Tag, Tooltip, Typography } from "antd";
import type { SessionView } from "../../shared/account/schema";
import { accountApi } from "./api";
import { fmtTime } from "../format";

/** A short device description from the user agent. */
export function deviceOf(ua: string | null): string {
  if (!ua) return "未知设备";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : "浏览器";
  const os = /Windows/.test(ua)
    ? "Windows"
    : /Android/.test(ua)
      ? "Android"
      : /iPhone|iPad/.test(ua)
        ? "iOS"
        : /Mac OS X/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  return os ? `${browser}（${os}）` : browser;
}

export function SessionsCard({ sessions, onChanged }: { sessions: SessionView[]; onChanged: () => void }) {
  const others = sessions.filter((s) => !s.current).length;
  return (
    <Card
      title="登录会话"
      data-testid="sessions-card"
      extra={
        <Popconfirm
          title="结束除当前会话外的所有会话？"
          okText="结束"
          cancelText="取消"
          disabled={!others}
          onConfirm={async () => {
            const reply = await accountApi.endOtherSessions();
            if (reply.error === 0) onChanged();
          }}
        >
          <Button danger disabled={!others}>
            结束其他所有会话
          </Button>
        </Popconfirm>
      }
    >
      <Table<SessionView>
        rowKey="id"
        size="middle"
        pagination={false}
        dataSource={sessions}
        scroll={{ x: 720 }}
        columns={[
          {
            title: "设备",
            dataIndex: "userAgent",
            render: (ua: string | null, s) => (
              <span>
                <Tooltip title={ua ?? ""}>
                  <Typography.Text>{deviceOf(ua)}</Typography.Text>
                </Tooltip>
                {s.current && (
                  <Tag color="green" style={{ marginLeft: 8 }} data-testid="current-session">
                    当前会话
                  </Tag>
                )}
              </span>
            ),
          },
          { title: "IP 地址", dataIndex: "ip", render: (ip: string | null) => ip ?? "—" },
          { title: "登录时间", dataIndex: "createdAt", render: fmtTime },
          { title: "最近活动", dataIndex: "lastSeenAt", render: fmtTime },
          { title: "到期时间", dataIndex: "expiresAt", render: fmtTime },
          {
            title: "操作",
            key: "action",
            render: (_v, s) =>
              s.current ? (
                <Typography.Text type="secondary">—</Typography.Text>
              ) : (
                <Popconfirm
                  title="结束这个会话？该设备需要重新登录。"
                  okText="结束"
                  cancelText="取消"
                  onConfirm={async () => {
                    const reply = await accountApi.endSession(s.id);
                    if (reply.error === 0) onChanged();
                  }}
                >
                  <Button type="link" danger size="small">
                    结束
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </Card>
  );
}
