/**
 * 分布: where the works come from — by province (a sorted bar chart; no map), by school (the 10
 * with most and the 10 with fewest works), by 大类 with their 小类, by group (普通/专业) — with
 * counts and shares. A school admin sees the own school's figures instead of the province and
 * school lists: works per student, advising teachers, returned works and why.
 */
import { useMemo } from "react";
import { Card, Col, Row, Space, Statistic } from "antd";
import type { BreakdownReply, SchoolFigures, ShareRow } from "../../../shared/stats/schema";
import { ChartCard, fmtShare, type FigureColumn } from "../chart-card";
import { barOption, summarize } from "../options";
import type { DashboardProps } from "../types";

const SHARE_COLUMNS = (what: string): FigureColumn<ShareRow>[] => [
  { key: "name", title: what },
  { key: "count", title: "作品数", numeric: true },
  { key: "share", title: "占比", render: (r) => fmtShare(r.share) },
];

/** A sorted horizontal bar chart of share rows, with its table. */
function ShareChart({ title, what, rows, testId }: { title: string; what: string; rows: ShareRow[]; testId: string }) {
  const option = useMemo(
    () =>
      barOption(
        rows.map((r) => r.name),
        [{ name: "作品数", values: rows.map((r) => r.count) }],
        { horizontal: true },
      ),
    [rows],
  );
  return (
    <ChartCard
      title={title}
      summary={summarize(
        title,
        rows.map((r) => r.name),
        rows.map((r) => r.count),
      )}
      option={option}
      table={{ columns: SHARE_COLUMNS(what), rows, rowKey: "key" }}
      height={Math.max(200, rows.length * 24 + 40)}
      data-testid={testId}
    />
  );
}

const REASON_KIND: Record<string, string> = { school: "学校退回", format: "形式审查退回" };

function SchoolCard({ s }: { s: SchoolFigures }) {
  const reasons = s.reasons.map((r, i) => ({
    key: String(i),
    name: `${REASON_KIND[r.kind] ?? r.kind}：${r.reason}`,
    count: r.count,
  }));
  const option = useMemo(
    () =>
      barOption(
        reasons.map((r) => r.name),
        [{ name: "作品数", values: reasons.map((r) => r.count) }],
        { horizontal: true },
      ),
    [reasons],
  );
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Card size="small" title={`${s.schoolName}：本校概况`} data-testid="school-figures">
        <Row gutter={[16, 16]}>
          <Col xs={12} md={4}>
            <Statistic title="作品" value={s.works} />
          </Col>
          <Col xs={12} md={4}>
            <Statistic title="参赛学生" value={s.students} />
          </Col>
          <Col xs={12} md={4}>
            <Statistic title="人均作品" value={s.worksPerStudent} precision={2} />
          </Col>
          <Col xs={12} md={4}>
            <Statistic title="指导教师" value={s.teachers} />
          </Col>
          <Col xs={12} md={4}>
            <Statistic title="学校退回" value={s.returnedBySchool} />
          </Col>
          <Col xs={12} md={4}>
            <Statistic title="形式审查退回" value={s.returnedByFormat} />
          </Col>
        </Row>
      </Card>
      <ChartCard
        title="退回原因"
        summary={summarize(
          "退回原因",
          reasons.map((r) => r.name),
          reasons.map((r) => r.count),
        )}
        option={option}
        table={{
          columns: [
            { key: "name", title: "原因" },
            { key: "count", title: "作品数", numeric: true },
          ],
          rows: reasons,
          rowKey: "key",
        }}
        height={Math.max(160, reasons.length * 28 + 40)}
        data-testid="school-reasons"
      />
    </Space>
  );
}

type CatRow = { key: string; name: string; count: number; share: number; subs: string };

function Categories({ data }: { data: BreakdownReply }) {
  const cats = data.categories;
  const option = useMemo(() => {
    // 小类 stacked inside each 大类's bar: one series per 小类 position would mislead; one bar per 大类, the 小类 in the table.
    return barOption(
      cats.map((c) => c.name),
      [{ name: "作品数", values: cats.map((c) => c.count) }],
    );
  }, [cats]);
  const rows: CatRow[] = cats.map((c) => ({
    key: String(c.categoryId),
    name: c.name,
    count: c.count,
    share: c.share,
    subs: c.subcategories.map((s) => `${s.name} ${s.count}（${fmtShare(s.share)}）`).join("；"),
  }));
  return (
    <ChartCard
      title="按大类"
      summary={summarize(
        "各大类作品数",
        rows.map((r) => r.name),
        rows.map((r) => r.count),
      )}
      option={option}
      table={{
        columns: [
          { key: "name", title: "大类" },
          { key: "count", title: "作品数", numeric: true },
          { key: "share", title: "占比", render: (r) => fmtShare(r.share) },
          { key: "subs", title: "小类" },
        ],
        rows,
        rowKey: "key",
      }}
      below
      data-testid="breakdown-categories"
    />
  );
}

export function BreakdownDashboard({ data }: DashboardProps<BreakdownReply>) {
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      {data.school && <SchoolCard s={data.school} />}
      {data.provinces.length > 0 && (
        <ShareChart title={`按省份（共 ${data.total} 件）`} what="省份" rows={data.provinces} testId="breakdown-provinces" />
      )}
      {data.topSchools.length > 0 && (
        <Row gutter={[16, 16]}>
          <Col xs={24} xxl={data.bottomSchools.length > 0 ? 12 : 24}>
            <ShareChart
              title={`作品最多的学校（共 ${data.schoolCount} 所）`}
              what="学校"
              rows={data.topSchools}
              testId="breakdown-top"
            />
          </Col>
          {data.bottomSchools.length > 0 && (
            <Col xs={24} xxl={12}>
              <ShareChart title="作品最少的学校" what="学校" rows={data.bottomSchools} testId="breakdown-bottom" />
            </Col>
          )}
        </Row>
      )}
      <Categories data={data} />
      {data.groups.length > 0 && <ShareChart title="按组别" what="组别" rows={data.groups} testId="breakdown-groups" />}
    </Space>
  );
}
