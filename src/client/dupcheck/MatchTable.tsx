/**
 * The result list of a check: work, year, contest, similarity with its level, containment
 * both ways, and the side by side action. Matches outside the caller's scope show only their
 * id and year (the server leaves the rest out). The filter bar sets the server's filters.
 */
import { Button, Checkbox, InputNumber, Select, Space, Table, Typography } from "antd";
import type { DupFilters, DupMatchView } from "../../shared/dupcheck/api";
import { LevelTag, pct, WorkRefText } from "./parts";

export function MatchFilters({
  value,
  onChange,
  contests,
  showYears = true,
}: {
  value: DupFilters;
  onChange: (f: DupFilters) => void;
  contests: { id: number; name: string }[];
  showYears?: boolean;
}) {
  return (
    <Space wrap data-testid="dup-filters">
      <Typography.Text type="secondary">筛选：</Typography.Text>
      <Select
        style={{ width: 150 }}
        placeholder="相似度 ≥ 10%"
        aria-label="相似度 ≥ 10%"
        allowClear
        value={value.minSimilarity}
        onChange={(v) => onChange({ ...value, minSimilarity: v })}
        options={[0.2, 0.3, 0.5, 0.7, 0.9].map((x) => ({ value: x, label: `相似度 ≥ ${x * 100}%` }))}
        data-testid="dup-filter-min"
      />
      <Select
        style={{ width: 150 }}
        placeholder="全部级别"
        aria-label="全部级别"
        allowClear
        value={value.level}
        onChange={(v) => onChange({ ...value, level: v })}
        options={[
          { value: "suspect", label: "疑似重复及以上" },
          { value: "likely", label: "高度疑似重复" },
        ]}
        data-testid="dup-filter-level"
      />
      <InputNumber
        style={{ width: 120 }}
        placeholder="年度"
        aria-label="年度"
        min={2000}
        max={2100}
        value={value.year}
        onChange={(v) => onChange({ ...value, year: v ?? undefined })}
        data-testid="dup-filter-year"
      />
      <Select
        style={{ width: 240 }}
        placeholder="全部赛事"
        aria-label="全部赛事"
        allowClear
        value={value.contestId}
        onChange={(v) => onChange({ ...value, contestId: v })}
        options={contests.map((c) => ({ value: c.id, label: c.name }))}
        data-testid="dup-filter-contest"
      />
      <Select
        style={{ width: 150 }}
        placeholder="全部范围"
        aria-label="全部范围"
        allowClear
        value={value.scope}
        onChange={(v) => onChange({ ...value, scope: v })}
        options={[
          { value: "inside", label: "我的范围内" },
          { value: "outside", label: "范围外（仅编号）" },
        ]}
        data-testid="dup-filter-scope"
      />
      {showYears && (
        <Checkbox checked={!!value.allYears} onChange={(e) => onChange({ ...value, allYears: e.target.checked || undefined })}>
          包括以后年度的作品
        </Checkbox>
      )}
    </Space>
  );
}

/** The contests of the in-scope matches, for the contest filter. */
export const contestsOf = (matches: DupMatchView[]) => {
  const seen = new Map<number, string>();
  for (const m of matches) if (m.contestId && m.contestName) seen.set(m.contestId, m.contestName);
  return [...seen].map(([id, name]) => ({ id, name }));
};

export function MatchTable({
  matches,
  onCompare,
  compareLabel = "并排对比",
}: {
  matches: DupMatchView[];
  onCompare: (m: DupMatchView) => void;
  compareLabel?: string;
}) {
  return (
    <Table<DupMatchView>
      size="small"
      rowKey="workId"
      data-testid="dup-matches"
      dataSource={matches}
      pagination={matches.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
      locale={{ emptyText: "未发现相似作品" }}
      onRow={(m) => ({ "data-testid": `dup-match-${m.workId}` }) as React.HTMLAttributes<HTMLElement>}
      columns={[
        { title: "作品", key: "work", render: (_, m) => <WorkRefText w={m} /> },
        { title: "年度", dataIndex: "year", width: 70 },
        {
          title: "赛事",
          dataIndex: "contestName",
          width: 220,
          render: (v: string | null) => v ?? <Typography.Text type="secondary">—</Typography.Text>,
        },
        {
          title: "相似度",
          key: "sim",
          width: 170,
          render: (_, m) => <LevelTag level={m.level} similarity={m.similarity} />,
          sorter: (x, y) => x.similarity - y.similarity,
          defaultSortOrder: "descend",
        },
        { title: "本作品在对方中的占比", dataIndex: "containmentAB", width: 110, render: (v: number | null) => pct(v) },
        { title: "对方在本作品中的占比", dataIndex: "containmentBA", width: 110, render: (v: number | null) => pct(v) },
        {
          title: "操作",
          key: "op",
          width: 110,
          render: (_, m) => (
            <Button size="small" type="link" onClick={() => onCompare(m)} data-testid="dup-compare">
              {compareLabel}
            </Button>
          ),
        },
      ]}
    />
  );
}
