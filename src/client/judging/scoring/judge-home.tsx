/**
 * /judge (judges, and teachers flagged as school-contest judges): the contests the user
 * judges in, each with the online judging window, progress (submitted / assigned) and a
 * button into online judging (/judge/Online/:id; teachers /teacher/SchoolContestJudge/:id),
 * and for a judge whose group defends offline, into the defence (/judge/Offline/:id).
 */
import { useNavigate } from "react-router";
import { useCan } from "@refinedev/core";
import { Alert, Button, Card, Col, Empty, Progress, Row, Skeleton, Space, Tag, Typography } from "antd";
import { EditOutlined, TeamOutlined } from "@ant-design/icons";
import { useMySessions } from "../defence/api";
import { CONTEST_LEVEL_NAMES, type ContestLevelKey } from "../../../shared/contest/stages";
import type { PageProps } from "../../routing/model";
import { onlinePath, useJudgeContests, useJudgeProgress } from "./api";
import { WindowText } from "./parts";

/** Into the offline defence of the contest, when the judge's group has a defence session there. */
function OfflineButton({ contestId }: { contestId: number }) {
  const navigate = useNavigate();
  const sessions = useMySessions(contestId);
  if (!sessions.data?.length) return null;
  return (
    <Button icon={<TeamOutlined />} data-testid="go-offline" onClick={() => navigate(`/judge/Offline/${contestId}`)}>
      线下答辩
    </Button>
  );
}

export default function JudgeHome({ route }: PageProps) {
  const contests = useJudgeContests();
  const progress = useJudgeProgress();
  const navigate = useNavigate();
  const judgePages = !!useCan({ resource: "page.judge", action: "view" }).data?.can;

  if (contests.isLoading || progress.isLoading)
    return (
      <Card title={route.label}>
        <Skeleton active />
      </Card>
    );
  const error = contests.error ?? progress.error;
  if (error)
    return (
      <Card title={route.label}>
        <Alert type="error" showIcon message={error.message} />
      </Card>
    );
  const list = contests.data ?? [];
  if (!list.length)
    return (
      <Card title={route.label}>
        <Empty description="您目前没有参加评审的赛事" />
      </Card>
    );

  return (
    <Card title={route.label}>
      <Row gutter={[16, 16]} data-testid="judge-contests">
        {list.map((c) => {
          const p = progress.data?.find((x) => x.contestId === c.id);
          const done = p?.progress.submitted ?? 0;
          const total = p?.progress.assigned ?? c.assigned;
          return (
            <Col key={c.id} xs={24} lg={12}>
              <Card
                size="small"
                data-testid={`judge-contest-${c.id}`}
                title={
                  <Space wrap>
                    <span>{c.name}</span>
                    <Tag color="blue">{CONTEST_LEVEL_NAMES[c.level as ContestLevelKey] ?? c.level}</Tag>
                    {c.as === "school_contest_judge" && <Tag color="purple">校赛评委</Tag>}
                  </Space>
                }
              >
                <Space direction="vertical" style={{ width: "100%" }}>
                  <Typography.Text type="secondary">评审组：{c.groups.length ? c.groups.join("、") : "未分组"}</Typography.Text>
                  {p && <WindowText window={p.window} />}
                  <div>
                    <Typography.Text>
                      网络评审进度：已提交 <b>{done}</b> / 分配 <b>{total}</b>
                      {p && p.progress.draft > 0 && <Typography.Text type="warning">（草稿 {p.progress.draft}）</Typography.Text>}
                    </Typography.Text>
                    <Progress
                      aria-label="网络评审进度"
                      percent={total ? Math.round((done / total) * 100) : 0}
                      status={total && done === total ? "success" : "active"}
                    />
                  </div>
                  <Space wrap>
                    <Button
                      type="primary"
                      icon={<EditOutlined />}
                      disabled={!total}
                      data-testid="go-online"
                      onClick={() => navigate(onlinePath(c, judgePages))}
                    >
                      线上评审
                    </Button>
                    {judgePages && <OfflineButton contestId={c.id} />}
                  </Space>
                  {!total && <Typography.Text type="secondary">尚未给您分配作品</Typography.Text>}
                </Space>
              </Card>
            </Col>
          );
        })}
      </Row>
    </Card>
  );
}
