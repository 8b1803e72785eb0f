/**
 * /ContestReviewer/SelectContest: the contests the reviewer does format review for, each
 * with its progress (reviewed / total, pending, passed, returned, rejected), 开始审核 (the
 * list) and 快速审核 (one work at a time, from where the reviewer stopped, or the first
 * work waiting for review).
 */
import { useState } from "react";
import { useNavigate } from "react-router";
import { Alert, App, Button, Card, Col, Empty, Progress, Row, Space, Statistic, Tag, Typography } from "antd";
import { ThunderboltOutlined, UnorderedListOutlined } from "@ant-design/icons";
import type { ReviewContest } from "../../../shared/review/schema";
import { CONTEST_LEVEL_NAMES } from "../../../shared/contest/stages";
import type { PageProps } from "../../routing/model";
import { fastReviewPath, firstWork, reviewListPath, useReviewContests } from "./api";

export default function SelectContest({ route }: PageProps) {
  const contests = useReviewContests();
  const list = contests.data ?? [];
  return (
    <Card title={route.label} loading={contests.isLoading}>
      {contests.isError && <Alert type="error" showIcon message={contests.error.message} />}
      {!contests.isLoading && !contests.isError && !list.length && (
        <Empty description="您目前没有负责形式审查的赛事，请联系赛事管理员" />
      )}
      <Space direction="vertical" size={16} style={{ width: "100%" }}>
        {list.map((c) => (
          <ContestCard key={c.id} c={c} />
        ))}
      </Space>
    </Card>
  );
}

function ContestCard({ c }: { c: ReviewContest }) {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const percent = c.total ? Math.floor((c.reviewed / c.total) * 100) : 0;
  const fast = async () => {
    setBusy(true);
    try {
      const start = c.lastWorkId ?? (await firstWork(c.id, { status: "pending" })) ?? (await firstWork(c.id, {}));
      if (start === null) message.info("该赛事目前没有需要形式审查的作品");
      else void navigate(fastReviewPath(c.id, start));
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card
      type="inner"
      data-testid={`review-contest-${c.id}`}
      title={
        <Space>
          <Tag color="blue">{CONTEST_LEVEL_NAMES[c.level as keyof typeof CONTEST_LEVEL_NAMES] ?? c.level}</Tag>
          <span>{c.name}</span>
        </Space>
      }
      extra={
        <Space>
          <Button icon={<UnorderedListOutlined />} onClick={() => navigate(reviewListPath(c.id))} data-testid="start-review">
            开始审核
          </Button>
          <Button
            type="primary"
            icon={<ThunderboltOutlined />}
            loading={busy}
            disabled={!c.total}
            onClick={fast}
            data-testid="fast-review"
          >
            快速审核
          </Button>
        </Space>
      }
    >
      <Row gutter={24} align="middle">
        <Col flex="320px">
          <Typography.Text type="secondary">审核进度（已审 / 总数）</Typography.Text>
          <div data-testid="review-progress" style={{ fontSize: 20, fontWeight: 600 }}>
            {c.reviewed} / {c.total}
          </div>
          <Progress
            aria-label="形式审查进度"
            percent={percent}
            status={c.total && c.reviewed === c.total ? "success" : "active"}
          />
        </Col>
        <Col flex="auto">
          <Row gutter={16}>
            <Col span={6}>
              <Statistic title="待审查" value={c.pending} valueStyle={{ color: c.pending ? "#0958d9" : undefined }} />
            </Col>
            <Col span={6}>
              <Statistic title="已通过" value={c.passed} valueStyle={{ color: "#237804" }} />
            </Col>
            <Col span={6}>
              <Statistic title="退回修改" value={c.returned} valueStyle={{ color: c.returned ? "#ad4e00" : undefined }} />
            </Col>
            <Col span={6}>
              <Statistic title="不符合要求" value={c.rejected} valueStyle={{ color: c.rejected ? "#cf1322" : undefined }} />
            </Col>
          </Row>
          {c.lastWorkId && (
            <Typography.Text type="secondary">快速审核上次停在作品 {c.lastWorkId}，将从这里继续。</Typography.Text>
          )}
        </Col>
      </Row>
    </Card>
  );
}
