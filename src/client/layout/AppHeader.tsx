/** The header: who is logged in (name, role, school), or a login hint. */
import { Layout, Space, Tag, Typography, theme } from "antd";
import { Link } from "react-router";
import { ROLE_NAMES, isRoleCode } from "../../shared/roles";
import { useSession } from "../providers/use-session";

export function AppHeader() {
  const { token } = theme.useToken();
  const { user, loggedIn } = useSession();
  return (
    <Layout.Header
      style={{
        backgroundColor: token.colorBgElevated,
        display: "flex",
        justifyContent: "flex-end",
        alignItems: "center",
        padding: "0 24px",
        height: 64,
        position: "sticky",
        top: 0,
        zIndex: 1,
      }}
      data-testid="app-header"
    >
      {loggedIn ? (
        <Space size="middle">
          <Link to="/index">
            <Typography.Text strong>{user.name ?? user.username}</Typography.Text>
          </Link>
          {isRoleCode(user.userType) && <Tag color="blue">{ROLE_NAMES[user.userType]}</Tag>}
          {user.school && <Typography.Text type="secondary">{user.school.name}</Typography.Text>}
        </Space>
      ) : (
        <Space>
          <Typography.Text type="secondary">您尚未登录</Typography.Text>
          <Link to="/">登录</Link>
        </Space>
      )}
    </Layout.Header>
  );
}
