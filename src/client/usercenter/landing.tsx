/** The public landing for visitors: the three logins, certificate and work query. */
import type { ReactNode } from "react";
import { Card, Col, Row, Typography } from "antd";
import {
  FileSearchOutlined,
  FormOutlined,
  SafetyCertificateOutlined,
  SolutionOutlined,
  TeamOutlined,
  UserOutlined,
} from "@ant-design/icons";
import { Link } from "react-router";
import { Logo } from "../components/Logo";

interface Entry {
  to: string;
  title: string;
  text: string;
  icon: ReactNode;
}

const LOGINS: Entry[] = [
  { to: "/account/StudentLogin", title: "学生登录", text: "作者提交和管理参赛作品", icon: <UserOutlined /> },
  { to: "/account/TeacherLogin", title: "教师登录", text: "指导教师与校级赛评审", icon: <TeamOutlined /> },
  { to: "/account/Login", title: "管理员登录", text: "管理员、审核员、评委、仲裁员", icon: <SolutionOutlined /> },
];

const PUBLIC: Entry[] = [
  { to: "/verify-cert", title: "证书查询", text: "查询获奖证书的真伪", icon: <SafetyCertificateOutlined /> },
  { to: "/query-work", title: "作品查询", text: "查询作品的参赛与获奖情况", icon: <FileSearchOutlined /> },
  { to: "/complaint", title: "申诉入口", text: "对评审结果提出申诉", icon: <FormOutlined /> },
];

function EntryCard({ e }: { e: Entry }) {
  return (
    <Link to={e.to} data-landing-link={e.to}>
      <Card hoverable style={{ height: "100%" }}>
        <Card.Meta
          avatar={<span style={{ fontSize: 28, color: "#1677ff" }}>{e.icon}</span>}
          title={e.title}
          description={e.text}
        />
      </Card>
    </Link>
  );
}

export function Landing() {
  return (
    <div style={{ maxWidth: 960, margin: "0 auto" }} data-testid="landing">
      <div style={{ display: "flex", alignItems: "center", gap: 16, margin: "16px 0 32px" }}>
        <Logo style={{ height: 64, width: 64 }} />
        <div>
          <Typography.Title level={2} style={{ margin: 0 }}>
            赛务平台
          </Typography.Title>
          <Typography.Text type="secondary">中国大学生计算机设计大赛 · 报名、评审与赛务管理</Typography.Text>
        </div>
      </div>
      <Typography.Title level={4}>登录</Typography.Title>
      <Row gutter={[16, 16]}>
        {LOGINS.map((e) => (
          <Col key={e.to} xs={24} md={8}>
            <EntryCard e={e} />
          </Col>
        ))}
      </Row>
      <Typography.Paragraph style={{ marginTop: 16 }}>
        还没有账号？<Link to="/account/Register">注册学生或教师账号</Link>　·　<Link to="/account/claim-account">忘记密码</Link>
      </Typography.Paragraph>
      <Typography.Title level={4} style={{ marginTop: 24 }}>
        公开服务
      </Typography.Title>
      <Row gutter={[16, 16]}>
        {PUBLIC.map((e) => (
          <Col key={e.to} xs={24} md={8}>
            <EntryCard e={e} />
          </Col>
        ))}
      </Row>
    </div>
  );
}
