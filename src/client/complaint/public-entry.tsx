/**
 * /complaint: the public entry. The rules (the contests' explanation notices and filing
 * windows); a visitor verifies an email with a mailed code, then files a 投诉 or looks up
 * their complaints; a logged-in user is sent into complaint-view mode to file and follow.
 *
 * The first view is the rules: the two visitor tabs (the form with its evidence upload, the
 * lookup with each complaint's history and steps, and the email verification both use) are
 * chunks of their own, loaded when their tab opens (bench:frontend complaintKB).
 */
import { lazy, Suspense, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Collapse, Skeleton, Space, Tabs, Typography } from "antd";
import { FormOutlined } from "@ant-design/icons";
import { currentUserQuery, isLoggedIn } from "../providers/session";
import { AppLink } from "../routing/nav";
import { useSearch } from "../routing/use-search";
import { RichTextView } from "../richtext/view";
import { useComplaintInfo } from "./api";
import type { Visitor } from "./VisitorVerify";
import { Windows } from "./windows";

const VisitorFile = lazy(() => import("./visitor-file"));
const VisitorLookup = lazy(() => import("./visitor-lookup"));

const tabPane = (children: React.ReactNode) => <Suspense fallback={<Skeleton active />}>{children}</Suspense>;

export default function ComplaintEntry({ route }: { route: { label: string } }) {
  const loggedIn = isLoggedIn(useQuery(currentUserQuery).data);
  const info = useComplaintInfo();
  const [params, setParams] = useSearch();
  const tab = params.get("tab") ?? "rules";
  const [visitor, setVisitor] = useState<Visitor | null>(null);
  const initialWork = Number(params.get("workId")) || undefined;

  const rules = (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Typography.Paragraph>
        作品的作者或指导教师对审查、评审结果或奖项有异议的，可提出<b>申诉</b>
        （须登录）；任何人发现公示作品存在抄袭、重复参赛、材料虚假、作者未实际参与等问题，可在公示期内提出<b>投诉</b>。
        投诉人的身份仅对申诉处理人员可见，不会告知被投诉作品的作者、指导教师和学校。对处理决定不服的，双方均可在规定期限内申请仲裁，仲裁结果经审核确认后生效。
      </Typography.Paragraph>
      {info.data && <Windows windows={info.data.windows} />}
      {info.data?.notices.length ? (
        <Collapse
          defaultActiveKey={info.data.notices.map((_, i) => i)}
          items={info.data.notices.map((n, i) => ({ key: i, label: n.title, children: <RichTextView html={n.content} /> }))}
          data-testid="complaint-notices"
        />
      ) : null}
      {info.isError && <Alert type="error" showIcon message={info.error.message} />}
    </Space>
  );

  const items = [
    { key: "rules", label: "规则说明", children: rules },
    ...(loggedIn
      ? []
      : [
          {
            key: "file",
            label: "我要投诉",
            children: tabPane(
              <VisitorFile
                visitor={visitor}
                setVisitor={setVisitor}
                info={info.data}
                workId={initialWork}
                onLookup={() => setParams({ tab: "lookup" })}
              />,
            ),
          },
          {
            key: "lookup",
            label: "查询我的投诉",
            children: tabPane(<VisitorLookup visitor={visitor} setVisitor={setVisitor} />),
          },
        ]),
  ];

  return (
    <Card title={route.label} data-testid="complaint-entry">
      {loggedIn && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="您已登录：申诉、投诉和查看处理进度请进入申诉视图。"
          action={
            <AppLink to="/complaint-view/complaint">
              <Button type="primary" icon={<FormOutlined />} data-testid="enter-complaint-view">
                进入申诉视图
              </Button>
            </AppLink>
          }
        />
      )}
      <Tabs activeKey={items.some((i) => i.key === tab) ? tab : "rules"} onChange={(k) => setParams({ tab: k })} items={items} />
    </Card>
  );
}
