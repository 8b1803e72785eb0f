/** The centred card of the account pages (inside the layout, or full page for pure routes). */
import type { ReactNode } from "react";
import { Card, Typography } from "antd";
import { Logo } from "../components/Logo";

export function AuthCard({ title, children, width = 440, fullPage = false }: { title: ReactNode; children: ReactNode; width?: number; fullPage?: boolean }) {
  const card = (
    <Card style={{ width: "100%", maxWidth: width }} data-testid="auth-card">
      <div style={{ display: "flex", alignItems: "center", justifyContent: "center", gap: 12, marginBottom: 24 }}>
        <Logo style={{ height: 40, width: 40 }} />
        <Typography.Title level={3} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
      </div>
      {children}
    </Card>
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
