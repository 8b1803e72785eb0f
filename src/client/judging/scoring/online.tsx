/**
 * /judge/Online/:contestId (judges) and /teacher/SchoolContestJudge/:contestId (teachers
 * judging their school contest): on the left the works assigned to me with my score status
 * (未评 / 草稿 / 已提交) and total, and my progress; on the right the selected work's blind
 * judging view (fields, AI declaration, attachments) and my score form. The selected work
 * is kept in the address (?work=…), so a reload returns to it.
 */
import { useMemo, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  Badge,
  Button,
  Card,
  Col,
  Empty,
  List,
  Progress,
  Result,
  Row,
  Segmented,
  Skeleton,
  Space,
  Typography,
} from "antd";
import { LeftOutlined, RightOutlined } from "@ant-design/icons";
import type { MyScore, OnlineOverview, ScoreStatus } from "../../../shared/judging/score-schema";
import type { PageProps } from "../../routing/model";
import { judgingKeys, useJudgeWork, useMyScore, useOnline } from "./api";
import { JudgeWorkContent, ScoreStatusTag, WindowText } from "./parts";
import { ScoreForm } from "./ScoreForm";

type Filter = "all" | ScoreStatus;
type WorkRow = OnlineOverview["works"][number];

export default function OnlineJudging({ route }: PageProps) {
  const { contestId: raw } = useParams();
  const contestId = /^\d+$/.test(raw ?? "") ? Number(raw) : 0;
  const overview = useOnline(contestId);
  const [params, setParams] = useSearchParams();
  const [filter, setFilter] = useState<Filter>("all");
  const works = overview.data?.works ?? [];
  const requested = Number(params.get("work")) || undefined;
  const selectedId = works.some((w) => w.id === requested)
    ? requested
    : (works.find((w) => w.scoreStatus !== "submitted") ?? works[0])?.id;
  const shown = useMemo(() => (filter === "all" ? works : works.filter((w) => w.scoreStatus === filter)), [works, filter]);
  const select = (id: number) => setParams((p) => (p.set("work", String(id)), p), { replace: true });

  if (!contestId) return <Result status="404" title="赛事不存在" />;
  if (overview.isLoading)
    return (
      <Card title={route.label}>
        <Skeleton active />
      </Card>
    );
  if (overview.error || !overview.data)
    return (
      <Card title={route.label}>
        <Result status="404" title={overview.error?.message ?? "赛事不存在或您不是该赛事的评委"} />
      </Card>
    );
  const o = overview.data;
  const { assigned, submitted, draft } = o.progress;
  const index = works.findIndex((w) => w.id === selectedId);
  const counts: Record<ScoreStatus, number> = { none: assigned - submitted - draft, draft, submitted };

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Card
        title={`${route.label}：${o.contest.name}`}
        extra={<WindowText window={o.window} />}
        styles={{ body: { paddingBottom: 12 } }}
      >
        <Space align="center" style={{ width: "100%" }} wrap>
          <Typography.Text data-testid="online-progress">
            已提交 <b>{submitted}</b> / 分配 <b>{assigned}</b>
            {draft > 0 && <Typography.Text type="warning">（草稿 {draft}）</Typography.Text>}
          </Typography.Text>
          <Progress
            aria-label="网络评审进度"
            style={{ width: "min(360px, calc(100vw - 72px))", margin: 0 }}
            percent={assigned ? Math.round((submitted / assigned) * 100) : 0}
            status={assigned && submitted === assigned ? "success" : "active"}
          />
        </Space>
      </Card>
      {!works.length ? (
        <Card>
          <Empty description="尚未给您分配作品" />
        </Card>
      ) : (
        <Row gutter={16} align="top">
          <Col xs={24} lg={8} xl={7}>
            <Card size="small" title="分配给我的作品" styles={{ body: { padding: 0 } }}>
              <div style={{ padding: "8px 12px" }}>
                <Segmented<Filter>
                  size="small"
                  value={filter}
                  onChange={setFilter}
                  options={[
                    { value: "all", label: `全部 ${assigned}` },
                    { value: "none", label: `未评 ${counts.none}` },
                    { value: "draft", label: `草稿 ${counts.draft}` },
                    { value: "submitted", label: `已提交 ${counts.submitted}` },
                  ]}
                />
              </div>
              <List<WorkRow>
                size="small"
                dataSource={shown}
                locale={{ emptyText: "没有符合条件的作品" }}
                data-testid="online-works"
                style={{ maxHeight: "calc(100vh - 300px)", overflowY: "auto" }}
                renderItem={(w) => (
                  <List.Item
                    key={w.id}
                    onClick={() => select(w.id)}
                    data-testid={`online-work-${w.id}`}
                    style={{
                      cursor: "pointer",
                      padding: "8px 12px",
                      background: w.id === selectedId ? "#e6f4ff" : undefined,
                      borderLeft: `3px solid ${w.id === selectedId ? "#0958d9" : "transparent"}`,
                    }}
                  >
                    {/* Reached and chosen by keyboard too: Tab, then Enter or Space. */}
                    <div
                      role="button"
                      tabIndex={0}
                      aria-pressed={w.id === selectedId}
                      onKeyDown={(e) => {
                        if (e.key !== "Enter" && e.key !== " ") return;
                        e.preventDefault();
                        select(w.id);
                      }}
                      style={{ minWidth: 0, flex: 1 }}
                      data-testid="online-work-open"
                    >
                      <Typography.Text strong ellipsis style={{ display: "block" }}>
                        {w.name}
                      </Typography.Text>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {w.id} · {w.subcategory?.name ?? w.category.name}
                      </Typography.Text>
                    </div>
                    <Space direction="vertical" size={0} style={{ alignItems: "flex-end" }}>
                      <ScoreStatusTag status={w.scoreStatus} />
                      {w.total !== null && <Typography.Text style={{ fontSize: 12 }}>{w.total} 分</Typography.Text>}
                    </Space>
                  </List.Item>
                )}
              />
            </Card>
          </Col>
          <Col xs={24} lg={16} xl={17}>
            {selectedId && (
              <WorkPanel
                key={selectedId}
                contestId={contestId}
                workId={selectedId}
                position={`第 ${index + 1} / ${works.length} 件`}
                onPrev={index > 0 ? () => select(works[index - 1].id) : undefined}
                onNext={index < works.length - 1 ? () => select(works[index + 1].id) : undefined}
              />
            )}
          </Col>
        </Row>
      )}
    </Space>
  );
}

function WorkPanel({
  contestId,
  workId,
  position,
  onPrev,
  onNext,
}: {
  contestId: number;
  workId: number;
  position: string;
  onPrev?: () => void;
  onNext?: () => void;
}) {
  const qc = useQueryClient();
  const work = useJudgeWork(contestId, workId);
  const score = useMyScore(contestId, workId);
  const changed = (s: MyScore | null) => {
    if (s) qc.setQueryData(judgingKeys.score(contestId, workId), s);
    else void qc.invalidateQueries({ queryKey: judgingKeys.score(contestId, workId) });
    void qc.invalidateQueries({ queryKey: judgingKeys.online(contestId) });
    void qc.invalidateQueries({ queryKey: judgingKeys.progress });
  };
  if (work.isLoading || score.isLoading)
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  const error = work.error ?? score.error;
  if (error || !work.data || !score.data)
    return (
      <Card>
        <Alert type="error" showIcon message={error?.message ?? "作品不存在或未分配给您"} />
      </Card>
    );
  const w = work.data;
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="work-panel">
      <Card
        title={<span data-testid="work-title">《{w.name}》</span>}
        extra={
          <Space wrap>
            <Typography.Text type="secondary">{position}</Typography.Text>
            <Button size="small" icon={<LeftOutlined />} disabled={!onPrev} onClick={onPrev}>
              上一件
            </Button>
            <Button size="small" disabled={!onNext} onClick={onNext}>
              下一件 <RightOutlined />
            </Button>
          </Space>
        }
      >
        <JudgeWorkContent work={w} contestId={contestId} />
      </Card>
      <Card
        title={
          <Space>
            <span>评分</span>
            <Badge
              status={score.data.status === "submitted" ? "success" : score.data.status === "draft" ? "warning" : "default"}
              text={{ none: "未评", draft: "草稿", submitted: "已提交" }[score.data.status]}
            />
          </Space>
        }
      >
        <ScoreForm
          key={`${workId}-${score.data.version}`}
          contestId={contestId}
          work={w}
          score={score.data}
          onChanged={changed}
        />
      </Card>
    </Space>
  );
}
