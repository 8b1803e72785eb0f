/**
 * The header for a given user: the time note (all times in Beijing time), who is logged in
 * (name, role, school), or a login hint. The admin application's AppHeader and the light login
 * entry (src/client/login, a visitor) show this one component. On a phone it starts with the
 * menu button that opens the menu drawer, and the time note and school give way to the name.
 */
import { Button, Layout, Space, Tag, Typography, theme } from "antd";
import { MenuOutlined } from "@ant-design/icons";
import { AppLink as Link } from "../routing/nav";
import type { CurrentUser } from "../../shared/account/schema";
import { ROLE_NAMES, isRoleCode } from "../../shared/roles";
import { BEIJING_LABEL } from "../beijing-label";
import { LOGIN_CHOICE } from "../public/home-choice";
import { useFrame } from "./frame-context";

export function HeaderBar({ user, loggedIn }: { user: CurrentUser; loggedIn: boolean }) {
  const { token } = theme.useToken();
  const { drawer, menuOpen, setMenuOpen } = useFrame();
  return (
    <Layout.Header
      style={{
        backgroundColor: token.colorBgElevated,
        display: "flex",
        justifyContent: "flex-end",
        alignItems: "center",
        gap: drawer ? 8 : 0,
        padding: drawer ? "0 12px 0 4px" : "0 24px",
        height: 64,
        position: "sticky",
        top: 0,
        zIndex: 1,
      }}
      data-testid="app-header"
    >
      {drawer && (
        <Button
          type="text"
          icon={<MenuOutlined />}
          aria-label="打开菜单"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(true)}
          style={{ width: 44, height: 44, marginRight: "auto", flex: "none" }}
          data-testid="menu-button"
        />
      )}
      {!drawer && (
        <Typography.Text type="secondary" style={{ marginRight: 24, fontSize: 12 }} data-testid="time-zone-note">
          页面时间均为{BEIJING_LABEL}
        </Typography.Text>
      )}
      {loggedIn ? (
        <Space size="middle" style={{ minWidth: 0, overflow: "hidden", whiteSpace: "nowrap" }}>
          <Link to="/index">
            <Typography.Text strong>{user.name ?? user.username}</Typography.Text>
          </Link>
          {isRoleCode(user.userType) && <Tag color="blue">{ROLE_NAMES[user.userType]}</Tag>}
          {user.school && !drawer && <Typography.Text type="secondary">{user.school.name}</Typography.Text>}
        </Space>
      ) : (
        <Space>
          <Typography.Text type="secondary">您尚未登录</Typography.Text>
          <Link to={LOGIN_CHOICE}>登录</Link>
        </Space>
      )}
    </Layout.Header>
  );
}
