/**
 * 审查与评审进度: format review (pending, passed, returned, rejected; per reviewer), per judging
 * group the share of scores in, per judge started/finished with the last activity (stragglers
 * first, as the server sorts them), and the defence sessions.
 */
import { useMemo } from "react";
import { Card, Col, Row, Space, Statistic } from "antd";
import type { ProgressReply } from "../../../shared/stats/schema";
import { fmtTime } from "../../format";
import { ChartCard, fmtShare } from "../chart-card";
import { barOption, summarize } from "../options";
import type { DashboardProps } from "../types";

/** The judges drawn in the chart (stragglers first); the table lists them all. */
const JUDGES_DRAWN = 30;

function Figures({ items, testId }: { items: [string, number, string?][]; testId: string }) {
  return (
    <Row gutter={[16, 16]} data-testid={testId}>
      {items.map(([title, value, suffix]) => (
        <Col key={title} xs={12} md={6}>
          <Statistic title={title} value={value} suffix={suffix} />
        </Col>
      ))}
    </Row>
  );
}

function FormatReview({ f }: { f: ProgressReply["formatReview"] }) {
  const rows = f.reviewers.map((r) => ({ ...r, last: fmtTime(r.lastAt) }));
  const option = useMemo(
    () =>
      barOption(
        rows.map((r) => r.name),
        [
          { name: "通过", values: rows.map((r) => r.passed), stack: "r" },
          { name: "退回修改", values: rows.map((r) => r.returned), stack: "r" },
          { name: "不符合要求", values: rows.map((r) => r.rejected), stack: "r" },
        ],
        { horizontal: true },
      ),
    [rows],
  );
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Card size="small" title="形式审查">
        <Figures
          testId="format-figures"
          items={[
            ["待审查", f.pending],
            ["已通过", f.passed],
            ["退回修改", f.returned],
            ["不符合要求", f.rejected],
          ]}
        />
      </Card>
      {rows.length > 0 && (
        <ChartCard
          title="各审核员的形式审查"
          summary={summarize(
            "各审核员审查作品数",
            rows.map((r) => r.name),
            rows.map((r) => r.total),
          )}
          option={option}
          table={{
            columns: [
              { key: "name", title: "审核员" },
              { key: "passed", title: "通过", numeric: true },
              { key: "returned", title: "退回", numeric: true },
              { key: "rejected", title: "不符合", numeric: true },
              { key: "last", title: "最近审查" },
            ],
            rows,
            rowKey: "userId",
          }}
          height={Math.max(180, rows.length * 28 + 60)}
          data-testid="progress-reviewers"
        />
      )}
    </Space>
  );
}

function Groups({ groups }: { groups: ProgressReply["groups"] }) {
  const option = useMemo(
    () =>
      barOption(
        groups.map((g) => g.name),
        [{ name: "已交评分占比", values: groups.map((g) => Math.round(g.share * 1000) / 10) }],
        { percent: true },
      ),
    [groups],
  );
  return (
    <ChartCard
      title="各评审组的评分进度"
      summary={`各评审组已交评分占比：${groups.map((g) => `${g.name} ${fmtShare(g.share)}`).join("，")}`}
      option={option}
      table={{
        columns: [
          { key: "name", title: "评审组" },
          { key: "works", title: "作品", numeric: true },
          { key: "expected", title: "应评", numeric: true },
          { key: "submitted", title: "已交", numeric: true },
          { key: "share", title: "进度", render: (g) => fmtShare(g.share) },
        ],
        rows: groups,
        rowKey: "groupId",
      }}
      data-testid="progress-groups"
    />
  );
}

function Judges({ judges }: { judges: ProgressReply["judges"] }) {
  const rows = judges.map((j) => ({
    ...j,
    key: `${j.contestId}-${j.groupId ?? 0}-${j.judgeId}`,
    group: j.groupName ?? "—",
    last: fmtTime(j.lastActivityAt),
  }));
  const drawn = rows.slice(0, JUDGES_DRAWN);
  const option = useMemo(
    () =>
      barOption(
        drawn.map((j) => j.name),
        [
          { name: "已提交", values: drawn.map((j) => j.finished), stack: "j" },
          { name: "已开始未提交", values: drawn.map((j) => Math.max(0, j.started - j.finished)), stack: "j" },
          { name: "未开始", values: drawn.map((j) => Math.max(0, j.assigned - j.started)), stack: "j", color: "#8c8c8c" },
        ],
        { horizontal: true },
      ),
    [drawn],
  );
  const idle = judges.filter((j) => j.started === 0 && j.assigned > 0).length;
  return (
    <ChartCard
      title={`各评委进度（进度最慢的在前${judges.length > JUDGES_DRAWN ? `，图中为前 ${JUDGES_DRAWN} 位` : ""}）`}
      summary={`共 ${judges.length} 位评委，${idle} 位尚未开始；最慢的：${drawn
        .slice(0, 5)
        .map((j) => `${j.name} ${j.finished}/${j.assigned}`)
        .join("，")}`}
      option={option}
      table={{
        columns: [
          { key: "name", title: "评委" },
          { key: "group", title: "评审组" },
          { key: "assigned", title: "分配", numeric: true },
          { key: "started", title: "已开始", numeric: true },
          { key: "finished", title: "已提交", numeric: true },
          { key: "last", title: "最近评分" },
        ],
        rows,
        rowKey: "key",
      }}
      height={Math.max(200, drawn.length * 26 + 60)}
      below
      data-testid="progress-judges"
    />
  );
}

export function ProgressDashboard({ data }: DashboardProps<ProgressReply>) {
  const d = data.defence;
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <FormatReview f={data.formatReview} />
      {data.groups.length > 0 && <Groups groups={data.groups} />}
      {data.judges.length > 0 && <Judges judges={data.judges} />}
      {d.sessions > 0 && (
        <Card size="small" title="答辩">
          <Figures
            testId="defence-figures"
            items={[
              ["答辩场次", d.sessions],
              ["已抽签", d.drawn],
              ["已签字确认", d.signedOff],
              ["已评分答辩", d.scoredSlots, `/ ${d.slots}`],
            ]}
          />
        </Card>
      )}
    </Space>
  );
}
