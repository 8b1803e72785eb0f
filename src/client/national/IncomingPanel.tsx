/**
 * 晋级作品（各省）: the works promoted by the provincial contests into a national contest, per
 * province with the quota used (total and per 大类), on the national contest's results page
 * (GET /Backend/ContestAdmin/national/:contestId/incoming, src/server/national/), with links into
 * fast review of the national contest (the entries' own format review).
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Alert, Button, Card, Collapse, Space, Spin, Table, Tag, Typography } from "antd";
import type { IncomingProvince } from "../../shared/national/types";
import { fetchData } from "../request";
import { fastReviewPath } from "../routing/review-paths";

export const FORMAT: Record<string, string> = {
  pending: "待形式审查",
  resubmitted: "已重新提交",
  passed: "形式审查通过",
  returned: "退回修改",
  rejected: "不通过",
};

export function IncomingPanel({ contestId }: { contestId: number }) {
  const q = useQuery({
    queryKey: ["national", contestId, "incoming"],
    queryFn: () => fetchData<IncomingProvince[]>(`/Backend/ContestAdmin/national/${contestId}/incoming`),
  });
  if (q.isPending) return <Spin />;
  if (q.isError) return <Alert type="error" showIcon message={q.error.message} />;
  // Format review of the entries (the national contest's own): fast review from the first one waiting.
  const entered = q.data.flatMap((p) => p.entries).filter((e) => e.status === "entered");
  const waiting = entered.filter((e) => e.formatStatus === "pending" || e.formatStatus === "resubmitted").map((e) => e.workId);
  const start = waiting.length ? Math.min(...waiting) : entered.length ? Math.min(...entered.map((e) => e.workId)) : null;
  return (
    <Card
      size="small"
      title="晋级作品（各省）"
      data-testid="national-incoming"
      extra={
        start !== null && (
          <Link to={fastReviewPath(contestId, start)} data-testid="national-fast-review">
            <Button type="primary" size="small">
              形式审查{waiting.length ? `（待审 ${waiting.length}）` : ""}
            </Button>
          </Link>
        )
      }
    >
      {!q.data.length ? (
        <Typography.Text type="secondary">还没有省级赛发布结果并推荐作品晋级。</Typography.Text>
      ) : (
        <Collapse
          defaultActiveKey={q.data.map((p) => String(p.fromContestId))}
          items={q.data.map((p) => ({
            key: String(p.fromContestId),
            label: (
              <Space wrap>
                <b>{p.province ?? p.fromContestName}</b>
                <span>
                  已晋级 {p.used}
                  {p.quota !== null ? ` / 名额 ${p.quota}` : ""}
                </span>
                {p.perCategory.map((c) => (
                  <Tag key={c.categoryId}>
                    {c.categoryName} {c.used}
                    {c.quota !== null ? `/${c.quota}` : ""}
                  </Tag>
                ))}
              </Space>
            ),
            children: (
              <Table
                size="small"
                rowKey="id"
                pagination={false}
                dataSource={p.entries}
                columns={[
                  { title: "作品编号", dataIndex: "workId" },
                  { title: "作品名称", dataIndex: "workName" },
                  { title: "大类", dataIndex: "categoryName" },
                  { title: "形式审查", dataIndex: "formatStatus", render: (s: string) => FORMAT[s] ?? s },
                  {
                    title: "状态",
                    dataIndex: "status",
                    render: (s: string, r) =>
                      s === "entered" ? (
                        <Tag color="green">已进入国赛</Tag>
                      ) : (
                        <Tag title={r.withdrawReason ?? ""}>已撤回：{r.withdrawReason}</Tag>
                      ),
                  },
                  {
                    title: "操作",
                    key: "op",
                    render: (_: unknown, r) =>
                      r.status === "entered" && (
                        <Link to={fastReviewPath(contestId, r.workId)} data-testid={`national-review-${r.workId}`}>
                          审核
                        </Link>
                      ),
                  },
                ]}
              />
            ),
          }))}
        />
      )}
    </Card>
  );
}
