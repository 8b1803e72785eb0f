/**
 * /ContestReviewer/Review/:contestId: the works of a contest's format review in a stable
 * order (by work id), filtered by review status, 大类 and keyword (work id or name); per
 * work 通过 / 退回修改 / 不符合要求 (with reasons) / 撤销结论 and a link to its review sheet;
 * 快速审核 starts from the first work of the filter (or a given row). The filter form is in
 * ReviewFilterForm.tsx, the columns in review-columns.tsx.
 */
import { useMemo, useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Progress, Result, Space, Table, Tooltip, Typography } from "antd";
import { ArrowLeftOutlined, ReloadOutlined, ThunderboltOutlined } from "@ant-design/icons";
import type { ReviewFilters, ReviewListItem } from "../../../shared/review/schema";
import { FORMAT_FILTERS, type FormatFilter } from "../../../shared/work/states";
import type { PageProps } from "../../routing/model";
import { cleanFilters, fastReviewPath, reviewKeys, useReviewContests, useReviewWorks } from "./api";
import { OutcomeModal, type OutcomeTarget, type ReasonOutcome } from "./OutcomeModal";
import { reviewColumns } from "./review-columns";
import { ReviewFilterForm } from "./ReviewFilterForm";

/** Filters kept in the address, so a reload or the back button keeps them. */
function useFilterParams(): [
  ReviewFilters & { current: number; pageSize: number },
  (f: Partial<ReviewFilters & { current: number; pageSize: number }>) => void,
] {
  const [sp, setSp] = useSearchParams();
  const status = sp.get("status");
  const f = {
    ...cleanFilters({
      status: status && status in FORMAT_FILTERS ? (status as FormatFilter) : undefined,
      categoryId: Number(sp.get("categoryId")) || undefined,
      keyword: sp.get("keyword") ?? undefined,
    }),
    current: Number(sp.get("current")) || 1,
    pageSize: Number(sp.get("pageSize")) || 20,
  };
  const set = (next: Partial<typeof f>) => {
    const merged = { ...f, ...next };
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(merged))
      if (v !== undefined && v !== null && v !== "" && !(k === "current" && v === 1) && !(k === "pageSize" && v === 20))
        q.set(k, String(v));
    setSp(q, { replace: true });
  };
  return [f, set];
}

export default function ReviewList({ route }: PageProps) {
  const { contestId: raw } = useParams();
  const contestId = Number(raw);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [f, setF] = useFilterParams();
  const contests = useReviewContests();
  const contest = contests.data?.find((c) => c.id === contestId);
  const works = useReviewWorks(contestId, f);
  const [reason, setReason] = useState<{ work: OutcomeTarget; outcome: ReasonOutcome } | null>(null);
  const filters = useMemo(() => cleanFilters(f), [f]);

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: reviewKeys.all });
  };

  if (!Number.isInteger(contestId) || contestId < 1) return <Result status="404" title="赛事不存在" />;
  if (contests.data && !contest)
    return (
      <Result
        status="404"
        title="赛事不存在或您不负责该赛事的形式审查"
        extra={
          <Link to="/ContestReviewer/SelectContest">
            <Button>返回选择赛事</Button>
          </Link>
        }
      />
    );

  const startFast = (id?: number) => {
    const start = id ?? works.data?.list[0]?.id;
    if (start) void navigate(fastReviewPath(contestId, start, filters));
  };

  return (
    <Card
      title={
        <Space>
          <Link to="/ContestReviewer/SelectContest">
            <Button type="text" icon={<ArrowLeftOutlined />} aria-label="返回选择赛事" />
          </Link>
          <span>{route.label}</span>
          {contest && (
            <Typography.Text type="secondary" style={{ fontWeight: "normal" }}>
              {contest.name}
            </Typography.Text>
          )}
        </Space>
      }
      extra={
        <Space>
          {contest && (
            <Tooltip title={`已审 ${contest.reviewed} / 总数 ${contest.total}`}>
              <Progress
                aria-label="形式审查进度"
                type="circle"
                size={36}
                percent={contest.total ? Math.floor((contest.reviewed / contest.total) * 100) : 0}
              />
            </Tooltip>
          )}
          <Button icon={<ReloadOutlined />} onClick={refresh}>
            刷新
          </Button>
          <Button
            type="primary"
            icon={<ThunderboltOutlined />}
            disabled={!works.data?.list.length}
            onClick={() => startFast()}
            data-testid="list-fast-review"
          >
            快速审核
          </Button>
        </Space>
      }
    >
      {contest && (
        <Typography.Paragraph type="secondary" data-testid="list-progress">
          审核进度：已审 {contest.reviewed} / {contest.total}，待审查 {contest.pending}，已通过 {contest.passed}，退回修改{" "}
          {contest.returned}，不符合要求 {contest.rejected}
        </Typography.Paragraph>
      )}
      <ReviewFilterForm f={f} setF={setF} />
      {works.isError && <Alert type="error" showIcon message={works.error.message} style={{ marginBottom: 12 }} />}
      <Table<ReviewListItem>
        rowKey="id"
        size="middle"
        loading={works.isFetching}
        dataSource={works.data?.list ?? []}
        scroll={{ x: "max-content" }}
        data-testid="review-table"
        locale={{ emptyText: "没有符合条件的作品" }}
        pagination={{
          current: f.current,
          pageSize: f.pageSize,
          total: works.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [20, 50, 100],
          showTotal: (n) => `共 ${n} 件作品`,
          onChange: (current, pageSize) => setF({ current, pageSize }),
        }}
        columns={reviewColumns({ refresh, setReason, startFast })}
      />
      <OutcomeModal
        target={reason?.work ?? null}
        outcome={reason?.outcome ?? null}
        onClose={() => setReason(null)}
        onDone={refresh}
      />
    </Card>
  );
}
