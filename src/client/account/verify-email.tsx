/**
 * /verify-email?token=…: confirms the address from the mailed link (pure page). Without
 * react-router or the policy engine: the light login entry (src/client/login) shows it to a
 * visitor; a signed-in user gets it in the admin application.
 */
import { useEffect, useRef, useState } from "react";
import { Button, Result, Spin } from "antd";
import { useQuery } from "@tanstack/react-query";
import { currentUserQuery, isLoggedIn } from "../providers/session";
import { useAppLocation, useAppNavigate } from "../routing/nav";
import { AuthCard } from "./AuthCard";
import { accountApi } from "./api";

type State = { kind: "pending" } | { kind: "ok"; info: string } | { kind: "failed"; info: string };

export default function VerifyEmailPage() {
  const token = new URLSearchParams(useAppLocation().search).get("token") ?? "";
  const navigate = useAppNavigate();
  const loggedIn = isLoggedIn(useQuery(currentUserQuery).data);
  const [state, setState] = useState<State>(
    token ? { kind: "pending" } : { kind: "failed", info: "链接不完整：缺少验证参数，请从邮件中重新打开链接" },
  );
  const sent = useRef<string | null>(null);

  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    void accountApi.verifyEmail(token).then((reply) => {
      setState(
        reply.error === 0 ? { kind: "ok", info: reply.info } : { kind: "failed", info: reply.info || "验证失败，请稍后重试" },
      );
    });
  }, [token]);

  return (
    <AuthCard title="邮箱验证" width={560} fullPage>
      {state.kind === "pending" && (
        <div style={{ textAlign: "center", padding: 24 }}>
          <Spin tip="正在验证…" size="large">
            <div style={{ height: 48 }} />
          </Spin>
        </div>
      )}
      {state.kind === "ok" && (
        <Result
          status="success"
          title="邮箱验证成功"
          subTitle={state.info}
          extra={
            loggedIn
              ? [
                  <Button key="home" type="primary" onClick={() => navigate("/index")}>
                    进入用户中心
                  </Button>,
                ]
              : [
                  <Button key="s" type="primary" onClick={() => navigate("/account/StudentLogin")}>
                    学生登录
                  </Button>,
                  <Button key="t" onClick={() => navigate("/account/TeacherLogin")}>
                    教师登录
                  </Button>,
                  <Button key="a" onClick={() => navigate("/account/Login")}>
                    管理员登录
                  </Button>,
                ]
          }
        />
      )}
      {state.kind === "failed" && (
        <Result
          status="error"
          title="邮箱验证失败"
          subTitle={state.info}
          extra={[
            <Button key="resend" type="primary" onClick={() => navigate("/verify-email-claim")}>
              重新发送验证邮件
            </Button>,
            <Button key="home" onClick={() => navigate("/")}>
              返回首页
            </Button>,
          ]}
        />
      )}
    </AuthCard>
  );
}
