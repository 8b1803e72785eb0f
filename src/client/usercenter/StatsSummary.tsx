/**
 * The user centre's compact statistics (issue 32) for root, contest and school admins: the three
 * figures that matter most for the role now (GET /Backend/Stats/summary), each with its
 * comparison and a link to where it leads, and a link to the dashboards (统计). Numbers only
 * (antd Statistic): the user centre does not load the charts, which come with /statistics.
 */
import { Alert, Card, Col, Row, Skeleton, Statistic, Typography } from "antd";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { STATS_PATHS, type SummaryFigure, type SummaryReply } from "../../shared/stats/schema";
import { useCanNow } from "../providers/use-can-now";
import { fetchData } from "../request";

function Figure({ f }: { f: SummaryFigure }) {
  return (
    <Link to={f.link} data-testid={`stats-summary-${f.key}`} style={{ display: "block" }}>
      <Statistic
        title={f.label}
        value={f.value}
        suffix={f.compare !== null && f.compareLabel === null ? `/ ${f.compare}` : undefined}
      />
      {f.compare !== null && f.compareLabel && (
        <Typography.Text type="secondary">
          {f.compareLabel} {f.compare.toLocaleString("zh-CN")}
        </Typography.Text>
      )}
    </Link>
  );
}

function SummaryBody() {
  const query = useQuery({
    queryKey: ["stats", "summary"],
    queryFn: () => fetchData<SummaryReply>(STATS_PATHS.summary),
    staleTime: 30_000,
  });
  return (
    <Card
      title={query.data ? `${query.data.year} 年统计` : "统计"}
      extra={<Link to="/statistics">查看统计图表</Link>}
      data-testid="stats-summary"
    >
      {query.isPending && <Skeleton active paragraph={{ rows: 2 }} />}
      {query.isError && <Alert type="error" showIcon message={query.error.message} />}
      {query.data && (
        <Row gutter={[24, 16]}>
          {query.data.figures.map((f) => (
            <Col key={f.key} xs={24} md={8}>
              <Figure f={f} />
            </Col>
          ))}
        </Row>
      )}
    </Card>
  );
}

/** Shown to the roles that may read the statistics (the policy's api.stats). */
export function StatsSummary() {
  const can = useCanNow();
  return can("api.stats", "read") ? <SummaryBody /> : null;
}
