/** /index, the user centre: greeting, role, school, the to-do centre and the announcement for the role. */
import { Alert, Card, Descriptions, Skeleton, Space, Tag, Typography } from "antd";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { ROLE_NAMES, isRoleCode } from "../../shared/roles";
import { accountApi } from "../account/api";
import { useSession } from "../providers/use-session";
import { RichTextView } from "../richtext/view";
import { bj, fmtTime } from "../format";
import { TodoCard } from "./TodoCard";
import { StatsSummary } from "./StatsSummary";

/** The greeting for a moment, by the hour in Beijing (the platform's time), not the browser's zone. */
export function greeting(at: Date = new Date()) {
  const hour = bj(at).hour();
  if (hour < 6) return "夜深了";
  if (hour < 12) return "上午好";
  if (hour < 14) return "中午好";
  if (hour < 18) return "下午好";
  return "晚上好";
}

function AnnouncementCard({ role }: { role: number }) {
  const query = useQuery({
    queryKey: ["announcement", role],
    queryFn: async () => {
      const reply = await accountApi.announcement();
      if (reply.error !== 0 || !reply.data) throw new Error(reply.info || "公告加载失败");
      return reply.data;
    },
  });
  return (
    <Card title="公告" data-testid="announcement">
      {query.isPending && <Skeleton active />}
      {query.isError && <Alert type="error" showIcon message={query.error.message} />}
      {query.data && (
        <>
          <Typography.Title level={4}>{query.data.title}</Typography.Title>
          <RichTextView html={query.data.content} empty="暂无公告" data-testid="announcement-content" />
          {query.data.updatedAt && <Typography.Text type="secondary">更新于 {fmtTime(query.data.updatedAt)}</Typography.Text>}
        </>
      )}
    </Card>
  );
}

export default function UserCenterPage() {
  const { user } = useSession();
  const role = isRoleCode(user.userType) ? user.userType : undefined;
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Card data-testid="user-center">
        <Typography.Title level={3}>
          {greeting()}，{user.name ?? user.username}
        </Typography.Title>
        <Descriptions column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label="身份">
            {role !== undefined ? <Tag color="blue">{ROLE_NAMES[role]}</Tag> : "—"}
          </Descriptions.Item>
          <Descriptions.Item label="学校">{user.school?.name ?? "—"}</Descriptions.Item>
          <Descriptions.Item label="用户名">{user.username}</Descriptions.Item>
          <Descriptions.Item label="邮箱">
            {user.email ?? "未绑定"}
            {user.email && !user.emailVerified && (
              <Tag color="orange" style={{ marginLeft: 8 }}>
                未验证
              </Tag>
            )}
          </Descriptions.Item>
        </Descriptions>
        {user.email && !user.emailVerified && (
          <Alert
            type="warning"
            showIcon
            message={
              <>
                邮箱尚未验证，<Link to="/verify-email-claim">重新发送验证邮件</Link>
              </>
            }
          />
        )}
      </Card>
      <StatsSummary />
      <TodoCard />
      {role !== undefined && <AnnouncementCard role={role} />}
    </Space>
  );
}
