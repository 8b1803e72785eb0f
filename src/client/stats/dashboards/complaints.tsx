/**
 * 申诉: complaints filed, decided, upheld, in arbitration, overdue and open, in total and per
 * contest (grouped bars).
 */
import { useMemo } from "react";
import { Card, Col, Row, Space, Statistic } from "antd";
import type { ComplaintStatsReply } from "../../../shared/stats/schema";
import { ChartCard } from "../chart-card";
import { barOption } from "../options";
import type { DashboardProps } from "../types";

const FIGURES = [
  ["filed", "已提交"],
  ["decided", "已决定"],
  ["upheld", "成立"],
  ["inArbitration", "仲裁中"],
  ["overdue", "逾期未办"],
  ["open", "办理中"],
] as const;

export function ComplaintsDashboard({ data }: DashboardProps<ComplaintStatsReply>) {
  const contests = data.contests;
  const option = useMemo(
    () =>
      barOption(
        contests.map((c) => c.contestName),
        FIGURES.map(([k, name]) => ({ name, values: contests.map((c) => c[k]) })),
      ),
    [contests],
  );
  const t = data.totals;
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Card size="small" title="申诉合计" data-testid="complaint-totals">
        <Row gutter={[16, 16]}>
          {FIGURES.map(([k, name]) => (
            <Col key={k} xs={12} md={4}>
              <Statistic title={name} value={t[k]} valueStyle={k === "overdue" && t.overdue ? { color: "#cf1322" } : undefined} />
            </Col>
          ))}
        </Row>
      </Card>
      <ChartCard
        title="各赛事的申诉"
        summary={`各赛事申诉：${contests.map((c) => `${c.contestName} 提交 ${c.filed}，成立 ${c.upheld}，逾期 ${c.overdue}`).join("；") || "无"}`}
        option={option}
        table={{
          columns: [
            { key: "contestName", title: "赛事" },
            ...FIGURES.map(([k, name]) => ({ key: k, title: name, numeric: true })),
          ],
          rows: contests.filter((c) => c.filed > 0),
          rowKey: "contestId",
        }}
        below
        data-testid="complaints-contests"
      />
    </Space>
  );
}
