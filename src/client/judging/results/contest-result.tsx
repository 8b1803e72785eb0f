/**
 * /ContestAdmin/ContestResult (contest admins): the results of one of the admin's contests.
 * 计算成绩 normalises the submitted online scores per judge group (additive judge-effect
 * model; raw means stay beside) and flags works the judges disagree on; each group's tab
 * shows the ranking with a red 分歧 tag and 增加评委 on flagged works, the award of each work
 * (allocated 按比例 or set by hand) and its promotion; 推荐晋级 marks the best awarded works
 * within the quota to the next contest level; 发布结果 publishes (the publicity period
 * starts) and 撤回发布 withdraws with a reason. 优秀指导教师 / 优秀组织奖 are set in their panel
 * (HonoursPanel); the model's parameters and the judges' effects are in the panel below;
 * 导出 downloads the ranking as .xlsx. A national contest shows the promoted works coming in
 * from each province first (../national/IncomingPanel); a provincial contest its works entered in
 * the national contest with 撤回晋级 (../national/PromotedPanel).
 */
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { Alert, Badge, Button, Card, Col, Empty, Form, Row, Select, Space, Spin, Statistic, Tabs, Tag, Typography } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import type { ResultsOverview } from "../../../shared/judging/result-schema";
import type { PageProps } from "../../routing/model";
import { LEVEL_NAMES, resultsApi, useContestParam, useOverview, useResultContests } from "./api";
import { ActionBar, PublicationBar } from "./ActionBar";
import { FitPanel } from "./FitPanel";
import { GroupRanking } from "./GroupRanking";
import { HonoursPanel } from "./HonoursPanel";
import { IncomingPanel } from "../../national/IncomingPanel";
import { PromotedPanel } from "../../national/PromotedPanel";
import { fmtTimeLabelled } from "../../format";

export default function ContestResult({ route }: PageProps) {
  const contests = useResultContests();
  const [contestId, setContestId] = useContestParam();
  useEffect(() => {
    if (contestId === undefined && contests.data?.length)
      setContestId(contests.data.find((c) => c.level !== "school")?.id ?? contests.data[0].id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [contestId, contests.data]);

  return (
    <Card title={route.label}>
      <Form layout="inline" style={{ marginBottom: 16 }}>
        <Form.Item label="赛事">
          <Select<number>
            style={{ minWidth: 420 }}
            placeholder="选择您负责的赛事"
            aria-label="赛事"
            loading={contests.isPending}
            value={contestId}
            onChange={setContestId}
            notFoundContent={contests.isError ? contests.error.message : "您目前没有负责的赛事"}
            options={(contests.data ?? []).map((c) => ({
              value: c.id,
              label: `${c.name}（${LEVEL_NAMES[c.level] ?? c.level}）${c.publishedAt ? " · 已发布" : c.computedAt ? " · 已计算" : ""}`,
            }))}
            data-testid="result-contest"
          />
        </Form.Item>
      </Form>
      {contests.isError && <Alert type="error" showIcon message={contests.error.message} />}
      {contests.data && !contests.data.length && (
        <Alert type="info" showIcon message="您目前没有负责的赛事，请联系超级管理员。" />
      )}
      {contestId && contests.data?.find((c) => c.id === contestId)?.level === "national" && (
        <div style={{ marginBottom: 16 }}>
          <IncomingPanel contestId={contestId} />
        </div>
      )}
      {contestId && contests.data?.find((c) => c.id === contestId)?.level === "provincial" && (
        <div style={{ marginBottom: 16 }}>
          <PromotedPanel contestId={contestId} />
        </div>
      )}
      {contestId && <Results key={contestId} contestId={contestId} />}
    </Card>
  );
}

function Results({ contestId }: { contestId: number }) {
  const overview = useOverview(contestId);
  const [sp, setSp] = useSearchParams();
  if (overview.isPending) return <Spin />;
  if (overview.isError) return <Alert type="error" showIcon message={overview.error.message} />;
  const o = overview.data;
  const group = o.groups.find((g) => g.key === sp.get("group"))?.key ?? o.groups[0]?.key;
  const setGroup = (key: string) =>
    setSp(
      (prev) => {
        const q = new URLSearchParams(prev);
        q.set("group", key);
        return q;
      },
      { replace: true },
    );

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <PublicationBar contestId={contestId} overview={o} />
      <Card size="small" data-testid="result-summary">
        <Summary o={o} />
        <Space wrap style={{ marginTop: 16 }}>
          <ActionBar contestId={contestId} overview={o} />
          <Button
            icon={<DownloadOutlined />}
            href={resultsApi.exportUrl(contestId)}
            disabled={!o.groups.length}
            data-testid="result-export"
          >
            导出
          </Button>
        </Space>
        <Typography.Paragraph type="secondary" style={{ margin: "12px 0 0" }}>
          {o.computedAt
            ? `成绩计算于 ${fmtTimeLabelled(o.computedAt)}（${o.computedBy ?? ""}）；每件作品需 ${o.reviewsPerWork} 个网评评分，分差超过 ${o.disagreementThreshold} 分标为分歧。评分变化后请重新计算。`
            : "尚未计算成绩：评委提交网评评分后，点击「计算成绩」按评审组排名。"}
        </Typography.Paragraph>
      </Card>
      {o.groups.length ? (
        <Tabs
          activeKey={group}
          onChange={setGroup}
          data-testid="result-groups"
          items={o.groups.map((g) => ({
            key: g.key,
            label: (
              <Space size={4}>
                {g.name}
                <Typography.Text type="secondary">（{g.works}）</Typography.Text>
                {g.flagged > 0 && <Badge count={g.flagged} title={`${g.flagged} 件作品评委分歧较大`} />}
              </Space>
            ),
            children: <GroupRanking contestId={contestId} overview={o} group={g} />,
          }))}
        />
      ) : (
        <Empty description={o.computedAt ? "没有参加评审的作品" : "尚未计算成绩"} />
      )}
      {o.computedAt && <HonoursPanel contestId={contestId} />}
      {o.computedAt && <FitPanel contestId={contestId} />}
    </Space>
  );
}

function Summary({ o }: { o: ResultsOverview }) {
  const t = o.totals;
  return (
    <Row gutter={16}>
      <Col span={4}>
        <Statistic title="作品" value={t.works} />
      </Col>
      <Col span={4}>
        <Statistic title="已排名" value={t.ranked} />
      </Col>
      <Col span={4}>
        <div data-testid="summary-flagged">
          <Statistic title="评委分歧" value={t.flagged} valueStyle={{ color: t.flagged ? "#cf1322" : undefined }} />
        </div>
      </Col>
      <Col span={4}>
        <Statistic title="评分未完成" value={t.incomplete} valueStyle={{ color: t.incomplete ? "#ad4e00" : undefined }} />
      </Col>
      <Col span={4}>
        <div data-testid="summary-awarded">
          <Statistic title="获奖" value={t.awarded} />
        </div>
      </Col>
      {o.quota.parentName && (
        <Col span={4}>
          <Statistic title="晋级 / 名额" value={t.promoted} suffix={o.quota.total !== null ? `/ ${o.quota.total}` : undefined} />
        </Col>
      )}
    </Row>
  );
}

export function PublishedTag({ o }: { o: ResultsOverview }) {
  return o.published ? <Tag color="green">已发布</Tag> : <Tag>未发布</Tag>;
}
