/**
 * One result group's ranking: rank, work, school, judges, raw mean, normalised score, spread
 * (a red 分歧 tag and 增加评委 when the judges disagree), the defence columns when the group
 * has defence scores, the award (a Select: set by hand, or back to the allocation) and the
 * promotion. The group ranks by the online normalised score or, when chosen, by the defence.
 */
import { useState } from "react";
import { Alert, App, Modal, Radio, Space, Table, Tag, Tooltip, Typography, type ButtonProps } from "antd";
import type { ResultGroup, ResultRow, ResultsOverview } from "../../../shared/judging/result-schema";
import { fmt, resultsApi, useExtraJudges, useRanking, useResultsRefresh } from "./api";
import { rankingColumns } from "./ranking-columns";

export function GroupRanking({
  contestId,
  overview: o,
  group,
}: {
  contestId: number;
  overview: ResultsOverview;
  group: ResultGroup;
}) {
  const rows = useRanking(contestId, group.key);
  const refresh = useResultsRefresh(contestId);
  const { modal } = App.useApp();
  const [extraFor, setExtraFor] = useState<ResultRow | null>(null);
  const [saving, setSaving] = useState<number | null>(null);
  const locked = !!o.published;
  const defence = group.withDefence > 0;

  const save = async (workId: number, body: Parameters<typeof resultsApi.patch>[2]) => {
    setSaving(workId);
    const reply = await resultsApi.patch(contestId, workId, body);
    setSaving(null);
    if (reply.error === 0) refresh();
  };
  const setBasis = (basis: "online" | "defence") =>
    modal.confirm({
      title: basis === "defence" ? `「${group.name}」改为按答辩成绩排名？` : `「${group.name}」改为按网评标准化成绩排名？`,
      content: "将重新计算全部成绩；排名有变化时自动分配的奖项和晋级会被清除，需重新分配。",
      okText: "重新计算",
      cancelText: "取消",
      onOk: async () => {
        const reply = await resultsApi.compute(contestId, { basis: { [group.key]: basis } });
        if (reply.error === 0) refresh();
      },
    });

  // Incomplete works are listed apart (not ranked while the group ranks by the online score).
  const all = rows.data ?? [];
  const isApart = (r: ResultRow) => r.incomplete && r.rank === null && group.basis === "online";
  const ranked = all.filter((r) => !isApart(r));
  const apart = all.filter(isApart);
  const columns = rankingColumns({ o, group, locked, defence, saving, save, setExtraFor });
  const table = (data: ResultRow[], testId: string) => (
    <Table<ResultRow>
      rowKey="workId"
      size="small"
      loading={rows.isFetching}
      dataSource={data}
      pagination={data.length > 50 ? { pageSize: 50, showSizeChanger: true, showTotal: (n) => `共 ${n} 件作品` } : false}
      scroll={{ x: "max-content" }}
      rowClassName={(r) => (r.flagged ? "result-flagged" : "")}
      data-testid={testId}
      columns={columns}
    />
  );

  return (
    <Space direction="vertical" size={12} style={{ width: "100%" }}>
      <Space wrap>
        <Typography.Text>排名依据：</Typography.Text>
        <Radio.Group
          value={group.basis}
          disabled={locked}
          onChange={(e) => setBasis(e.target.value)}
          optionType="button"
          size="small"
        >
          <Radio.Button value="online">网评标准化成绩</Radio.Button>
          <Tooltip title={defence ? undefined : "本组还没有答辩成绩"}>
            <Radio.Button value="defence" disabled={!defence}>
              答辩成绩
            </Radio.Button>
          </Tooltip>
        </Radio.Group>
        <Typography.Text type="secondary">
          {group.works} 件作品，{group.ranked} 件排名
          {group.incomplete ? `，${group.incomplete} 件评分未完成（单独列出，暂不排名）` : ""}
          {group.awards.length ? `；${group.awards.map((a) => `${a.name} ${a.count}`).join("，")}` : "；尚未分配奖项"}
          {group.promoted ? `；晋级 ${group.promoted}` : ""}
        </Typography.Text>
      </Space>
      {rows.isError && <Alert type="error" showIcon message={rows.error.message} />}
      {table(ranked, "result-ranking")}
      {apart.length > 0 && (
        <div data-testid="result-incomplete">
          <Typography.Title level={5} style={{ marginTop: 8 }}>
            评分未完成（{apart.length} 件，暂不排名）
          </Typography.Title>
          <Typography.Paragraph type="secondary">
            这些作品提交的网评评分少于所需（每件作品 {o.reviewsPerWork}{" "}
            个评分，或已分配评委数），评分完成并重新计算成绩后才参与排名；按比例分配奖项时默认不计入，除非在分配时明确选择包含。
            {group.includeIncomplete ? "上次分配奖项时已包含这些作品。" : ""}
          </Typography.Paragraph>
          {table(apart, "result-incomplete-table")}
        </div>
      )}
      <ExtraJudgeModal contestId={contestId} row={extraFor} onClose={() => setExtraFor(null)} />
    </Space>
  );
}

/** The proposal for one flagged work (the assigner's conflict-free judge, or why none) and its confirmation. */
function ExtraJudgeModal({ contestId, row, onClose }: { contestId: number; row: ResultRow | null; onClose: () => void }) {
  const proposals = useExtraJudges(contestId, !!row);
  const refresh = useResultsRefresh(contestId);
  const [busy, setBusy] = useState(false);
  const p = proposals.data?.find((x) => x.workId === row?.workId);
  const add = async () => {
    if (!row) return;
    setBusy(true);
    const reply = await resultsApi.extraJudge(contestId, row.workId, p?.proposed?.id);
    setBusy(false);
    if (reply.error === 0) {
      refresh();
      onClose();
    }
  };
  return (
    <Modal
      title={row ? `为作品 ${row.workId} 增加评委` : ""}
      open={!!row}
      okText="增加评委"
      cancelText="取消"
      confirmLoading={busy}
      okButtonProps={{ disabled: !p?.proposed, "data-testid": "extra-ok" } as ButtonProps}
      onOk={add}
      onCancel={onClose}
      destroyOnHidden
    >
      {row && (
        <Space direction="vertical" style={{ width: "100%" }}>
          <Typography.Paragraph>
            《{row.workName}》的评委评分分差 {fmt(row.spread, 1)} 分，超过分歧阈值。增加一位评委后，其评分提交后请重新计算成绩。
          </Typography.Paragraph>
          {proposals.isPending && <Typography.Text type="secondary">正在查找可增加的评委…</Typography.Text>}
          {proposals.isError && <Alert type="error" showIcon message={proposals.error.message} />}
          {p && (
            <>
              <div>
                已有评委：
                {p.existingJudges.map((j) => (
                  <Tag key={j.id}>{j.name}</Tag>
                ))}
              </div>
              {p.proposed ? (
                <Alert
                  type="info"
                  showIcon
                  message={
                    <>
                      建议增加评委：
                      <Typography.Text strong data-testid="extra-proposed">
                        {p.proposed.name}
                      </Typography.Text>
                      （评审组内、无回避关系、工作量最少）
                    </>
                  }
                />
              ) : (
                <Alert type="warning" showIcon message={p.problem ?? "没有可增加的无回避评委"} />
              )}
            </>
          )}
        </Space>
      )}
    </Modal>
  );
}
