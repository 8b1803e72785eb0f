/**
 * The header card of the fast review page: the way back, the contest, the position in the
 * filter, the contest's progress and the filters (status, 大类, keyword).
 */
import { Link } from "react-router";
import { Button, Card, Input, Progress, Select, Space, Tooltip, Typography } from "antd";
import { ArrowLeftOutlined } from "@ant-design/icons";
import type { Neighbours, ReviewContest, ReviewFilters } from "../../../shared/review/schema";
import { STATUS_FILTER_OPTIONS } from "./status-options";

export function FastHeader({
  label,
  back,
  contest,
  position,
  filters,
  setFilters,
  categoryOptions,
}: {
  label: string;
  back: { to: string; label: string };
  contest: ReviewContest | undefined;
  position: Neighbours | undefined;
  filters: ReviewFilters;
  setFilters: (f: ReviewFilters) => void;
  categoryOptions: { value: number; label: string; disabled: boolean }[];
}) {
  return (
    <Card size="small" style={{ marginBottom: 16 }} data-testid="fast-header">
      <div style={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 16 }}>
        <Space style={{ flex: "1 1 420px", minWidth: 0 }}>
          <Link to={back.to}>
            <Button icon={<ArrowLeftOutlined />}>{back.label}</Button>
          </Link>
          <Typography.Text strong>{label}</Typography.Text>
          {contest && (
            <Typography.Text type="secondary" ellipsis>
              {contest.name}
            </Typography.Text>
          )}
        </Space>
        <div style={{ flex: "0 0 340px" }}>
          <Space size={12} style={{ width: "100%", justifyContent: "space-between" }}>
            <Typography.Text strong data-testid="fast-position">
              {position
                ? position.index
                  ? `第 ${position.index} / ${position.total} 件`
                  : `共 ${position.total} 件（当前作品不在筛选中）`
                : "…"}
            </Typography.Text>
            {contest && (
              <Tooltip
                title={`待审查 ${contest.pending}，已通过 ${contest.passed}，退回修改 ${contest.returned}，不符合要求 ${contest.rejected}`}
              >
                <Space size={8} data-testid="fast-progress">
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    已审 {contest.reviewed} / {contest.total}
                  </Typography.Text>
                  <Progress
                    aria-label="本赛事形式审查进度"
                    size="small"
                    style={{ width: 120, margin: 0 }}
                    percent={contest.total ? Math.floor((contest.reviewed / contest.total) * 100) : 0}
                  />
                </Space>
              </Tooltip>
            )}
          </Space>
        </div>
      </div>
      <Space wrap style={{ marginTop: 8 }}>
        <Typography.Text type="secondary">筛选：</Typography.Text>
        <Select
          allowClear
          placeholder="全部状态"
          aria-label="按状态筛选"
          size="small"
          style={{ width: 120 }}
          value={filters.status}
          options={STATUS_FILTER_OPTIONS}
          onChange={(v) => setFilters({ ...filters, status: v })}
          data-testid="fast-filter-status"
        />
        <Select
          allowClear
          placeholder="全部大类"
          aria-label="按大类筛选"
          size="small"
          style={{ width: 200 }}
          value={filters.categoryId}
          options={categoryOptions}
          onChange={(v) => setFilters({ ...filters, categoryId: v })}
        />
        <Input.Search
          allowClear
          size="small"
          placeholder="作品编号或名称"
          aria-label="按作品编号或名称搜索"
          style={{ width: 180 }}
          defaultValue={filters.keyword}
          onSearch={(v) => setFilters({ ...filters, keyword: v })}
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          上一件/下一件在筛选内移动；给出结论后跳到下一件待审查的作品
        </Typography.Text>
      </Space>
    </Card>
  );
}
