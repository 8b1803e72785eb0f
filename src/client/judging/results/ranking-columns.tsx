/** The columns of a result group's ranking (GroupRanking.tsx): scores, spread with 增加评委, defence, award and promotion. */
import { Button, Select, Space, Switch, Tag, Tooltip, Typography } from "antd";
import type { TableColumnsType } from "antd";
import { UsergroupAddOutlined } from "@ant-design/icons";
import type { ResultGroup, ResultRow, ResultsOverview } from "../../../shared/judging/result-schema";
import { fmt, type resultsApi } from "./api";

const AUTO = -1;
const NONE = 0;

export function rankingColumns({
  o,
  group,
  locked,
  defence,
  saving,
  save,
  setExtraFor,
}: {
  o: ResultsOverview;
  group: ResultGroup;
  locked: boolean;
  defence: boolean;
  saving: number | null;
  save: (workId: number, body: Parameters<typeof resultsApi.patch>[2]) => Promise<void>;
  setExtraFor: (r: ResultRow) => void;
}): TableColumnsType<ResultRow> {
  return [
    {
      title: "排名",
      dataIndex: "rank",
      width: 52,
      render: (v: number | null) => v ?? <Typography.Text type="secondary">—</Typography.Text>,
    },
    { title: "作品编号", dataIndex: "workId", width: 100 },
    {
      title: "作品名称 / 学校",
      width: 190,
      render: (_, r) => (
        <div style={{ maxWidth: 174 }}>
          <Typography.Text ellipsis={{ tooltip: r.workName }} style={{ display: "block" }}>
            {r.workName}
          </Typography.Text>
          <Typography.Text type="secondary" ellipsis={{ tooltip: r.schoolName }} style={{ display: "block", fontSize: 12 }}>
            {r.schoolName}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: "评委",
      width: 84,
      render: (_, r) => (
        <Space size={4} style={{ whiteSpace: "nowrap" }}>
          <span>
            {r.judgeCount}
            {r.assigned > r.judgeCount ? ` / ${r.assigned}` : ""}
          </span>
          {r.incomplete && (
            <Tooltip title={`需 ${Math.max(o.reviewsPerWork, r.assigned)} 个评分，已提交 ${r.judgeCount} 个`}>
              <Tag color="orange">未完成</Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    { title: "原始均分", dataIndex: "rawMean", width: 80, align: "right", render: (v: number | null) => fmt(v) },
    {
      title: "标准化成绩",
      dataIndex: "normalised",
      width: 88,
      align: "right",
      render: (v: number | null) => <Typography.Text strong={group.basis === "online"}>{fmt(v)}</Typography.Text>,
    },
    {
      title: "分差",
      width: 164,
      render: (_, r) => (
        <Space size={4} style={{ whiteSpace: "nowrap" }}>
          <span>{fmt(r.spread, 1)}</span>
          {r.flagged && (
            <Tag color="red" data-testid={`flag-${r.workId}`}>
              分歧
            </Tag>
          )}
          {r.flagged && !locked && (
            <Button size="small" icon={<UsergroupAddOutlined />} onClick={() => setExtraFor(r)} data-testid={`extra-${r.workId}`}>
              增加评委
            </Button>
          )}
        </Space>
      ),
    },
    ...(defence
      ? [
          {
            title: "答辩均分 / 推荐",
            width: 150,
            render: (_: unknown, r: ResultRow) =>
              r.defenceCount ? (
                <div style={{ whiteSpace: "nowrap" }}>
                  <Typography.Text strong={group.basis === "defence"}>{fmt(r.defenceMean)}</Typography.Text>
                  <Typography.Text type="secondary" style={{ marginLeft: 4, fontSize: 12 }}>
                    （{r.defenceCount} 位评委）
                  </Typography.Text>
                  <div style={{ fontSize: 12 }}>
                    <Typography.Text type="secondary">
                      强推 {r.recommendations.strong} · 推荐 {r.recommendations.recommend} · 不推荐 {r.recommendations.not}
                    </Typography.Text>
                  </div>
                </div>
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              ),
          },
        ]
      : []),
    {
      title: "奖项",
      width: 150,
      render: (_, r) => (
        <Space size={4}>
          <Select<number>
            size="small"
            style={{ width: 96 }}
            disabled={locked || saving === r.workId}
            value={r.award?.id ?? (r.awardManual ? NONE : undefined)}
            placeholder="无"
            onChange={(v) => save(r.workId, v === AUTO ? { manual: false } : { awardLevelId: v === NONE ? null : v })}
            options={[
              ...o.awardLevels.map((l) => ({ value: l.id, label: l.name })),
              { value: NONE, label: "无奖项" },
              ...(r.awardManual ? [{ value: AUTO, label: "恢复按比例分配" }] : []),
            ]}
            data-testid={`award-${r.workId}`}
          />
          {r.awardManual && (
            <Tooltip title="手动设置：按比例分配时保留">
              <Tag color="blue">手动</Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    // The national contest has no higher contest: no promotion column.
    ...(o.quota.parentName ? [promotionColumn(locked, saving, save)] : []),
  ];
}

/** 晋级: a switch per ranked work (the contest has a higher contest). */
function promotionColumn(
  locked: boolean,
  saving: number | null,
  save: (workId: number, body: Parameters<typeof resultsApi.patch>[2]) => Promise<void>,
): TableColumnsType<ResultRow>[number] {
  return {
    title: "晋级",
    width: 52,
    render: (_, r) => (
      <Switch
        size="small"
        checked={r.promoted}
        disabled={locked || r.rank === null || saving === r.workId}
        onChange={(v) => save(r.workId, { promoted: v })}
        data-testid={`promoted-${r.workId}`}
      />
    ),
  };
}
