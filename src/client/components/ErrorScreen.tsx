/**
 * The router's error screen: message, status, stack (cut to 300 characters), a link
 * home, and a redirect home after a countdown unless the logo is clicked.
 */
import { useEffect, useState } from "react";
import { Link, useNavigate, useRouteError } from "react-router";
import { Card, Typography } from "antd";
import { ERROR_REDIRECT_SECONDS } from "../../shared/constants";
import { Logo } from "./Logo";
import { describeRouteError } from "./route-error";

export function ErrorScreen() {
  const error = useRouteError();
  const view = describeRouteError(error);
  const navigate = useNavigate();
  const [seconds, setSeconds] = useState(ERROR_REDIRECT_SECONDS);
  const [cancelled, setCancelled] = useState(false);

  useEffect(() => {
    if (cancelled) return;
    if (seconds <= 0) {
      void navigate("/", { replace: true });
      return;
    }
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds, cancelled, navigate]);

  useEffect(() => {
    document.title = `${view.status === 404 ? "页面不存在" : "出错了"} - 赛务平台`;
  }, [view.status]);

  return (
    <div
      style={{
        minHeight: "100vh",
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
        padding: 24,
        background: "#f5f5f5",
      }}
    >
      <Card style={{ maxWidth: 640, width: "100%" }} data-testid="error-screen">
        <div
          onClick={() => setCancelled(true)}
          title={cancelled ? "已取消自动跳转" : "点击取消自动跳转"}
          style={{ height: 96, cursor: "pointer", display: "flex", justifyContent: "center", marginBottom: 16 }}
          data-testid="error-logo"
        >
          <Logo style={{ height: "100%", width: "auto" }} />
        </div>
        <Typography.Title level={3} style={{ textAlign: "center" }}>
          {view.headline}
        </Typography.Title>
        <Typography.Paragraph>
          <Typography.Text strong>错误信息：</Typography.Text>
          {view.message}
        </Typography.Paragraph>
        <Typography.Paragraph data-testid="error-status">
          <Typography.Text strong>状态：</Typography.Text>
          {view.status} {view.statusText}
        </Typography.Paragraph>
        {view.stack && (
          <pre
            style={{ whiteSpace: "pre-wrap", wordBreak: "break-all", background: "#fafafa", padding: 12, fontSize: 12 }}
            data-testid="error-stack"
          >
            {view.stack}
          </pre>
        )}
        <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", gap: 16, flexWrap: "wrap" }}>
          <Typography.Text type="secondary" data-testid="error-countdown">
            {cancelled ? "已取消自动跳转" : `${seconds} 秒后自动返回首页（点击上方标志取消）`}
          </Typography.Text>
          <Link to="/" replace data-testid="error-home-link" style={{ fontSize: 16 }}>
            返回首页
          </Link>
        </div>
      </Card>
    </div>
  );
}
