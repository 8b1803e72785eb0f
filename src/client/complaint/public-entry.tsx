/**
 * /complaint: the public entry. The rules (the contests' explanation notices and filing
 * windows); a visitor verifies an email with a mailed code, then files a 投诉 or looks up
 * their complaints; a logged-in user is sent into complaint-view mode to file and follow.
 */
import { useCallback, useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Collapse, Empty, Grid, Result, Space, Table, Tabs, Tag, Typography } from "antd";
import { FormOutlined } from "@ant-design/icons";
import type { ComplaintWindow, FilerComplaintView } from "../../shared/complaint/schema";
import { inStageOrder } from "../../shared/contest/stage-dates";
import { fmtTime } from "../format";
import { currentUserQuery, isLoggedIn } from "../providers/session";
import { AppLink } from "../routing/nav";
import { useSearch } from "../routing/use-search";
import { RichTextView } from "../richtext/view";
import { useComplaintInfo, visitorComplaints } from "./api";
import { ComplaintForm } from "./ComplaintForm";
import { FilerComplaint } from "./FilerComplaint";
import { VisitorVerify, type Visitor } from "./VisitorVerify";

const STAGE_NAMES: Record<string, string> = { publicity: "公示期", complaint: "申诉期" };

const windowKey = (w: ComplaintWindow) => `${w.contestId}-${w.stage}`;
const windowState = (open: boolean) => (open ? <Tag color="green">受理中</Tag> : <Tag>未开放</Tag>);

/** Each contest's windows together, 公示期 before 申诉期 (the contest's stage order), the open ones' contests first. */
function ordered(windows: readonly ComplaintWindow[]): ComplaintWindow[] {
  const contests = [...new Set(windows.map((w) => w.contestId))];
  return contests.flatMap((id) => inStageOrder(windows.filter((w) => w.contestId === id)));
}

export function Windows({ windows: given }: { windows: readonly ComplaintWindow[] }) {
  const windows = ordered(given);
  // On a phone a four-column table squeezed every column to a character (issue 29): one card per window.
  const narrow = !(Grid.useBreakpoint().md ?? true);
  if (narrow)
    return (
      <div className="complaint-window-cards" data-testid="complaint-windows">
        {windows.length ? (
          windows.map((w) => (
            <Card key={windowKey(w)} size="small" title={w.contestName} extra={windowState(w.open)} style={{ marginBottom: 8 }}>
              <Typography.Text strong>{STAGE_NAMES[w.stage] ?? w.stage}</Typography.Text>
              <div>
                {fmtTime(w.startsAt)} 至 {fmtTime(w.endsAt)}
              </div>
            </Card>
          ))
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="当前没有处于公示期或申诉期的赛事" />
        )}
      </div>
    );
  return (
    <Table<ComplaintWindow>
      dataSource={windows}
      rowKey={windowKey}
      size="small"
      pagination={false}
      locale={{ emptyText: "当前没有处于公示期或申诉期的赛事" }}
      data-testid="complaint-windows"
    >
      <Table.Column<ComplaintWindow> dataIndex="contestName" title="赛事" />
      <Table.Column<ComplaintWindow> dataIndex="stage" title="阶段" render={(s: string) => STAGE_NAMES[s] ?? s} />
      <Table.Column<ComplaintWindow> title="受理时间" render={(_, w) => `${fmtTime(w.startsAt)} 至 ${fmtTime(w.endsAt)}`} />
      <Table.Column<ComplaintWindow> dataIndex="open" title="状态" render={windowState} />
    </Table>
  );
}

function Lookup({ visitor }: { visitor: Visitor }) {
  const [list, setList] = useState<FilerComplaintView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    const reply = await visitorComplaints(visitor.token);
    if (reply.error === 0) {
      setList(reply.data ?? []);
      setError(null);
    } else setError(reply.info || "查询失败");
  }, [visitor.token]);
  useEffect(() => void load(), [load]);
  if (error) return <Alert type="error" showIcon message={error} />;
  if (!list) return null;
  if (!list.length) return <Empty description={`邮箱 ${visitor.email} 没有提交过投诉`} />;
  return (
    <Space direction="vertical" style={{ width: "100%" }} data-testid="visitor-complaints">
      {list.map((c) => (
        <FilerComplaint key={c.id} c={c} token={visitor.token} onChanged={() => void load()} />
      ))}
    </Space>
  );
}

export default function ComplaintEntry({ route }: { route: { label: string } }) {
  const loggedIn = isLoggedIn(useQuery(currentUserQuery).data);
  const info = useComplaintInfo();
  const [params, setParams] = useSearch();
  const tab = params.get("tab") ?? "rules";
  const [visitor, setVisitor] = useState<Visitor | null>(null);
  const [filed, setFiled] = useState<FilerComplaintView | null>(null);
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

  const visitorGate = (children: React.ReactNode) =>
    visitor ? (
      <Space direction="vertical" size={16} style={{ width: "100%" }}>
        <VisitorVerify visitor={visitor} onVerified={setVisitor} onForget={() => setVisitor(null)} />
        {children}
      </Space>
    ) : (
      <VisitorVerify visitor={null} onVerified={setVisitor} onForget={() => setVisitor(null)} />
    );

  const items = [
    { key: "rules", label: "规则说明", children: rules },
    ...(loggedIn
      ? []
      : [
          {
            key: "file",
            label: "我要投诉",
            children: filed ? (
              <div data-testid="complaint-filed">
                <Result
                  status="success"
                  title={`投诉已提交（编号 ${filed.id}）`}
                  subTitle="处理进度和结果将发送到您验证的邮箱，也可以在「查询我的投诉」中查看。"
                  extra={[
                    <Button key="l" type="primary" onClick={() => (setFiled(null), setParams({ tab: "lookup" }))}>
                      查询我的投诉
                    </Button>,
                    <Button key="n" onClick={() => setFiled(null)}>
                      继续投诉
                    </Button>,
                  ]}
                />
              </div>
            ) : (
              visitorGate(
                visitor && (
                  <ComplaintForm
                    info={info.data}
                    token={visitor.token}
                    initial={{ type: "complaint", workId: initialWork }}
                    onFiled={setFiled}
                  />
                ),
              )
            ),
          },
          {
            key: "lookup",
            label: "查询我的投诉",
            children: visitorGate(visitor && <Lookup key={visitor.token} visitor={visitor} />),
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
