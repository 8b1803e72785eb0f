/**
 * Pieces shared by the admin and judge views of /judgePool: the category tree select (大类
 * with their 小类), the expertise tag select, the availability tag and the history view.
 */
import { useMemo } from "react";
import { Descriptions, Empty, Select, Space, Statistic, Table, Tag, Tooltip, TreeSelect, Typography } from "antd";
import { QuestionCircleOutlined } from "@ant-design/icons";
import { TAG_SUGGESTIONS, type CategoryRef, type HistoryContest, type JudgeHistory } from "../../shared/judge-pool/schema";
import { CONTEST_LEVEL_NAMES, type ContestLevelKey } from "../../shared/contest/stages";
import { useWorkTypeTree } from "../work-type/use-tree";
import { timeText } from "../judging/defence/api";
import { effectText, percent, useTags } from "./api";

export function useCategoryTree() {
  const { tree, query } = useWorkTypeTree(false);
  const treeData = useMemo(
    () => tree.map((c) => ({ value: c.id, title: c.name, children: c.children.map((s) => ({ value: s.id, title: s.name })) })),
    [tree],
  );
  return { treeData, loading: query.isLoading };
}

/** One category (filter) or several (forms): a 大类 stands for all its 小类. */
export function CategorySelect(props: {
  value?: number | number[];
  onChange?: (v: any) => void;
  multiple?: boolean;
  placeholder?: string;
  style?: React.CSSProperties;
  id?: string;
  "aria-label"?: string;
  "data-testid"?: string;
}) {
  const { treeData, loading } = useCategoryTree();
  return (
    <TreeSelect
      id={props.id}
      allowClear
      showSearch
      treeNodeFilterProp="title"
      multiple={props.multiple}
      treeCheckable={props.multiple}
      showCheckedStrategy={TreeSelect.SHOW_PARENT}
      loading={loading}
      treeData={treeData}
      value={props.value}
      onChange={props.onChange}
      placeholder={props.placeholder ?? "评审类别"}
      style={props.style}
      popupMatchSelectWidth={false}
      data-testid={props["data-testid"]}
      aria-label={props["aria-label"]}
    />
  );
}

/** Expertise tags: those in use (admins) and the suggestions; anything else may be typed. */
export function TagSelect(props: { value?: string[]; onChange?: (v: string[]) => void; known?: boolean; id?: string }) {
  const tags = useTags(props.known ?? false);
  const options = [...new Set([...(tags.data ?? []).map((t) => t.tag), ...TAG_SUGGESTIONS])].map((t) => ({ value: t, label: t }));
  return (
    <Select
      id={props.id}
      mode="tags"
      value={props.value}
      onChange={props.onChange}
      options={options}
      placeholder="选择或输入，回车确认"
      maxCount={20}
      tokenSeparators={["、", ",", "，"]}
      data-testid="tag-select"
    />
  );
}

export function CategoryTags({ categories }: { categories: CategoryRef[] }) {
  if (!categories.length) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space size={[0, 4]} wrap>
      {categories.map((c) => (
        <Tag key={c.id} color={c.parentId === null ? "blue" : undefined}>
          {c.parentName ? `${c.parentName}/${c.name}` : c.name}
        </Tag>
      ))}
    </Space>
  );
}

export function AvailabilityTag({ available, year }: { available: boolean | null; year?: number }) {
  const prefix = year ? `${year}年` : "";
  if (available === null) return <Tag>{prefix}未填写</Tag>;
  return available ? <Tag color="green">{prefix}可参评</Tag> : <Tag color="red">{prefix}不可参评</Tag>;
}

const hint = (text: string) => (
  <Tooltip title={text}>
    <QuestionCircleOutlined style={{ marginLeft: 4, color: "#999" }} />
  </Tooltip>
);

/** The computed history: totals, then one row per contest judged. */
export function HistoryView({ history }: { history: JudgeHistory }) {
  const h = history;
  if (!h.contests.length) return <Empty description={h.accountIds.length ? "尚无评审经历" : "尚未关联账号，暂无评审经历"} />;
  return (
    <Space direction="vertical" style={{ width: "100%" }} size={12} data-testid="history">
      <Space size={32} wrap>
        <Statistic title="参评赛事" value={h.contests.length} />
        <Statistic title="评审组" value={h.groups} />
        <Statistic title="已评作品" value={h.worksScored} />
        <Statistic
          title={<span>按时提交率{hint("网络评审阶段结束前提交的评分所占比例；赛事未设网络评审阶段时不计")}</span>}
          value={percent(h.onTimeRate)}
        />
        <Statistic
          title={<span>评委效应{hint("来自已发布结果的标准化拟合：正数表示打分偏宽，负数偏严；未发布时为“—”")}</span>}
          value={effectText(h.effect)}
        />
        <Statistic
          title={<span>分歧率{hint("已发布结果中，该评委所评作品被标记为评分分歧的比例")}</span>}
          value={percent(h.disagreementRate)}
        />
      </Space>
      <Table<HistoryContest>
        size="small"
        rowKey={(c) => c.contest.id}
        pagination={false}
        dataSource={h.contests}
        columns={[
          { title: "年度", render: (_, c) => c.contest.year, width: 70 },
          {
            title: "赛事",
            render: (_, c) => (
              <span>
                {c.contest.name} <Tag>{CONTEST_LEVEL_NAMES[c.contest.level as ContestLevelKey] ?? c.contest.level}</Tag>
              </span>
            ),
          },
          { title: "评审组", render: (_, c) => (c.groups.length ? c.groups.join("、") : "—") },
          { title: "已评作品", dataIndex: "worksScored", width: 90 },
          {
            title: "按时提交",
            render: (_, c) => (c.deadline ? `${c.onTime}/${c.worksScored}（截止 ${timeText(c.deadline)}）` : "—"),
          },
          { title: "评委效应", render: (_, c) => effectText(c.effect), width: 100 },
          { title: "分歧率", render: (_, c) => percent(c.disagreementRate), width: 80 },
        ]}
      />
    </Space>
  );
}

export function PersonFacts({
  p,
  contact,
  column,
}: {
  p: {
    name: string;
    schoolName: string | null;
    province: string | null;
    title: string | null;
    account: { username: string } | null;
    categories: CategoryRef[];
    tags: string[];
    available: boolean | null;
    availabilityNote: string;
    year: number;
    note?: string;
  };
  contact: React.ReactNode;
  column?: number;
}) {
  return (
    <Descriptions bordered size="small" column={column ?? { xs: 1, md: 2 }}>
      <Descriptions.Item label="姓名">{p.name}</Descriptions.Item>
      <Descriptions.Item label="职称">{p.title ?? "—"}</Descriptions.Item>
      <Descriptions.Item label="学校/单位">{p.schoolName ?? "—"}</Descriptions.Item>
      <Descriptions.Item label="省份">{p.province ?? "—"}</Descriptions.Item>
      <Descriptions.Item label="账号">{p.account?.username ?? "未关联"}</Descriptions.Item>
      <Descriptions.Item label="本年度">
        <AvailabilityTag available={p.available} year={p.year} />
        {p.availabilityNote}
      </Descriptions.Item>
      <Descriptions.Item label="评审类别" span={column === 1 ? 1 : 2}>
        <CategoryTags categories={p.categories} />
      </Descriptions.Item>
      <Descriptions.Item label="专业特长" span={column === 1 ? 1 : 2}>
        {p.tags.length ? p.tags.map((t) => <Tag key={t}>{t}</Tag>) : "—"}
      </Descriptions.Item>
      <Descriptions.Item label="联系方式" span={column === 1 ? 1 : 2}>
        {contact}
      </Descriptions.Item>
      {p.note !== undefined && (
        <Descriptions.Item label="备注" span={column === 1 ? 1 : 2}>
          {p.note || "—"}
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}
