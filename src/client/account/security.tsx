/** /account/security: password, email (with the pending-email notice), sessions, (admins) API tokens and the download of my data. */
import { Card, Col, Descriptions, Result, Row, Skeleton, Space, Tag } from "antd";
import { useQuery } from "@tanstack/react-query";
import { accountApi } from "./api";
import { EmailCard, PasswordCard } from "./security-forms";
import { SessionsCard } from "./sessions-card";
import { ApiTokensCard } from "./api-tokens-card";
import { DigestCard } from "./digest-card";
import { MyDataCard } from "./my-data-card";
import { TOKEN_ROLES } from "../../shared/token/schema";
import { currentUserQuery } from "../providers/session";

export const SECURITY_KEY = ["account-security"] as const;

export default function SecurityPage() {
  const query = useQuery({
    queryKey: SECURITY_KEY,
    queryFn: async () => {
      const reply = await accountApi.security();
      if (reply.error !== 0 || !reply.data) throw new Error(reply.info || "加载失败");
      return reply.data;
    },
  });
  const me = useQuery(currentUserQuery);
  const refresh = () => void query.refetch();

  if (query.isPending)
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  if (query.isError) return <Result status="error" title="账号安全信息加载失败" subTitle={query.error.message} />;
  const v = query.data;

  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Card title="账号安全">
        <Descriptions column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label="用户名">{v.username}</Descriptions.Item>
          <Descriptions.Item label="邮箱">
            {v.email ?? "未绑定"}
            {v.email &&
              (v.emailVerified ? (
                <Tag color="green" style={{ marginLeft: 8 }}>
                  已验证
                </Tag>
              ) : (
                <Tag color="orange" style={{ marginLeft: 8 }}>
                  未验证
                </Tag>
              ))}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={12}>
          <PasswordCard onChanged={refresh} />
        </Col>
        <Col xs={24} lg={12}>
          <EmailCard email={v.email} emailVerified={v.emailVerified} pendingEmail={v.pendingEmail} onChanged={refresh} />
        </Col>
      </Row>
      <DigestCard />
      <SessionsCard sessions={v.sessions} onChanged={refresh} />
      {(TOKEN_ROLES as readonly number[]).includes(me.data?.userType ?? -1) && <ApiTokensCard />}
      <MyDataCard />
    </Space>
  );
}
