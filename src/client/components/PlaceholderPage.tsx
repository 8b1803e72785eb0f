/** A titled empty page for functions that arrive in a later release. Never fake data. */
import { Card, Typography } from "antd";
import type { PageProps } from "../routing/model";

export default function PlaceholderPage({ route }: PageProps) {
  const body = (
    <Card data-testid="placeholder-page">
      <Typography.Title level={3}>{route.label}</Typography.Title>
      <Typography.Paragraph type="secondary">此功能将在后续版本提供：{route.feature ?? route.label}。</Typography.Paragraph>
    </Card>
  );
  if (!route.pure) return body;
  return <div style={{ maxWidth: 880, margin: "48px auto", padding: "0 16px" }}>{body}</div>;
}
