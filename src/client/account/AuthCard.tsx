/**
 * The centred card of the account pages (inside the layout, or full page for pure routes). Drawn
 * as antd's Card draws its body (border, radius, padding from the theme) without the Card
 * component, which brings the tabs along: the light login entry downloads less (issue 14).
 */
import type { ReactNode } from "react";
import { Typography, theme } from "antd";
import { Logo } from "../components/Logo";

export function AuthCard({
  title,
  children,
  width = 440,
  fullPage = false,
}: {
  title: ReactNode;
  children: ReactNode;
  width?: number;
  fullPage?: boolean;
}) {
  const { token } = theme.useToken();
  const card = (
    <div
      style={{
        width: "100%",
        maxWidth: width,
        boxSizing: "border-box",
        position: "relative",
        padding: token.paddingLG,
        background: token.colorBgContainer,
        border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        color: token.colorText,
        fontSize: token.fontSize,
        lineHeight: token.lineHeight,
      }}
      data-testid="auth-card"
    >
      <div style={{ display: "flex", alignItems: "center", justifyContent: "center", gap: 12, marginBottom: 24 }}>
        <Logo style={{ height: 40, width: 40 }} />
        <Typography.Title level={3} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
      </div>
      {children}
    </div>
  );
  return (
    <div
      style={{
        display: "flex",
        justifyContent: "center",
        alignItems: fullPage ? "center" : "flex-start",
        padding: fullPage ? 24 : "24px 0",
        minHeight: fullPage ? "100vh" : undefined,
        background: fullPage ? "#f5f5f5" : undefined,
      }}
    >
      {card}
    </div>
  );
}
