/**
 * Recommendation quotas of the school's contests (GET /Backend/School/work/quota): total,
 * used and left, and per 大类. A contest the school entered directly has no school quota.
 */
import { useQuery } from "@tanstack/react-query";
import { Alert, Card, Col, Collapse, Empty, Progress, Row, Skeleton, Space, Statistic, Table, Tag, Typography } from "antd";
import type { QuotaView } from "../../../shared/work/schema";
import { CONTEST_LEVEL_NAMES } from "../../../shared/contest/stages";
import { get } from "../../request";

export const quotaQueryKey = (contestId?: number) => ["work-quota", contestId ?? "all"];

export function useQuotas(contestId?: number, enabled = true) {
  return useQuery({
    queryKey: quotaQueryKey(contestId),
    enabled,
    queryFn: async () => {
      const reply = await get<QuotaView[]>("/Backend/School/work/quota", { contestId }, { silent: true, notify: false });
      if (reply.error !== 0) throw new Error(reply.info || "推荐名额加载失败");
      return reply.data ?? [];
    },
  });
}

const limit = (n: number | null) => (n === null ? "不限" : n);

function QuotaCard({ q }: { q: QuotaView }) {
  const direct = q.level !== "school";
  const percent = q.total ? Math.round((q.used / q.total) * 100) : 0;
  return (
    <Card
      size="small"
      data-testid="quota-card"
      title={
        <Space>
          {q.contestName}
          <Tag>{CONTEST_LEVEL_NAMES[q.level as keyof typeof CONTEST_LEVEL_NAMES] ?? q.level}</Tag>
        </Space>
      }
      extra={q.parentName && !direct ? <Typography.Text type="secondary">推荐至：{q.parentName}</Typography.Text> : null}
    >
      {direct ? (
        <Typography.Text type="secondary">本校作品直接报名该赛事，不设学校推荐名额。</Typography.Text>
      ) : (
        <>
          <Row gutter={16}>
            <Col span={6}>
              <Statistic title="推荐名额" value={limit(q.total)} />
            </Col>
            <Col span={6}>
              <Statistic title="已推荐" value={q.used} />
            </Col>
            <Col span={6}>
              <Statistic title="剩余" value={limit(q.left)} valueStyle={q.left === 0 ? { color: "#cf1322" } : undefined} />
            </Col>
            <Col span={6}>
              {q.total !== null && (
                <Progress
                  aria-label="名额使用"
                  type="circle"
                  size={56}
                  percent={percent}
                  status={q.left === 0 ? "exception" : "normal"}
                />
              )}
            </Col>
          </Row>
          <Collapse
            ghost
            size="small"
            items={[
              {
                key: "cat",
                label: "分大类名额",
                children: (
                  <Table
                    size="small"
                    rowKey="categoryId"
                    pagination={false}
                    dataSource={q.categories}
                    columns={[
                      { title: "大类", dataIndex: "categoryName" },
                      { title: "名额", dataIndex: "quota", width: 80, render: limit },
                      { title: "已推荐", dataIndex: "used", width: 80 },
                      {
                        title: "剩余",
                        dataIndex: "left",
                        width: 80,
                        render: (v: number | null) => (v === 0 ? <Typography.Text type="danger">0</Typography.Text> : limit(v)),
                      },
                    ]}
                  />
                ),
              },
            ]}
          />
        </>
      )}
    </Card>
  );
}

export function QuotaPanel({ contestId }: { contestId?: number }) {
  const { data, isLoading, error } = useQuotas(contestId);
  if (isLoading) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (error) return <Alert type="warning" showIcon message={error.message} />;
  if (!data?.length) return <Empty description="本校目前没有参加的赛事" />;
  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      {data.map((q) => (
        <QuotaCard key={q.contestId} q={q} />
      ))}
    </Space>
  );
}
