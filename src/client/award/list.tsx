/**
 * /admin/AwardManagement (root): award levels per contest level (tabs 国赛/省赛/校赛) —
 * kind, ratio cap (%) and/or count cap, order, archived. The server refuses work-award
 * ratios of a level summing to more than 100%; that message shows under the ratio field.
 */
import { useState } from "react";
import { CreateButton, DeleteButton, EditButton, useModalForm, useTable } from "@refinedev/antd";
import type { CrudFilter } from "@refinedev/core";
import { Card, Input, Select, Space, Table, Tabs, Tag, Typography } from "antd";
import {
  AWARD_KIND_LABELS,
  CONTEST_LEVEL_LABELS,
  type AwardContestLevel,
  type AwardKind,
  type AwardView,
} from "../../shared/award/schema";
import { ImportExport } from "../crud/ImportExport";
import { filtersObject } from "../crud/filters";
import type { PageProps } from "../routing/model";
import { AwardFormModal, formatRatio } from "./award-form";

const TABS: { key: AwardContestLevel; label: string }[] = [
  { key: "national", label: "国赛" },
  { key: "provincial", label: "省赛" },
  { key: "school", label: "校赛" },
];
const KIND_COLORS: Record<AwardKind, string> = { work: "blue", teacher: "purple", organisation: "cyan" };

export default function AwardList({ route }: PageProps) {
  const [level, setLevel] = useState<AwardContestLevel>("national");
  const [keyword, setKeyword] = useState("");
  const { tableProps, setFilters, filters, tableQuery } = useTable<AwardView>({
    resource: "awards",
    pagination: { pageSize: 100 },
    sorters: { initial: [{ field: "sort", order: "asc" }] },
    filters: { initial: [{ field: "contestLevel", operator: "eq", value: "national" }] },
    syncWithLocation: false,
  });
  const create = useModalForm<AwardView>({ resource: "awards", action: "create", redirect: false });
  const edit = useModalForm<AwardView>({ resource: "awards", action: "edit", redirect: false });
  const setFilter = (field: string, value: unknown) => setFilters([{ field, operator: "eq", value } as CrudFilter], "merge");

  const rows = tableProps.dataSource ?? [];
  const ratioSum = rows
    .filter((a) => a.kind === "work" && !a.archived && a.ratio !== null)
    .reduce((s, a) => s + (a.ratio ?? 0), 0);

  return (
    <Card
      title={route.label}
      extra={
        <Space>
          <ImportExport resource="awards" filters={filtersObject(filters)} onImported={() => tableQuery.refetch()} />
          <CreateButton
            resource="awards"
            data-testid="award-create"
            onClick={() => {
              create.show();
              create.formProps.form?.setFieldsValue({ contestLevel: level, kind: "work" } as never);
            }}
          >
            新建奖项
          </CreateButton>
        </Space>
      }
    >
      <Tabs
        activeKey={level}
        onChange={(k) => {
          setLevel(k as AwardContestLevel);
          setFilter("contestLevel", k);
        }}
        items={TABS.map((t) => ({ key: t.key, label: t.label }))}
      />
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          allowClear
          placeholder="奖项名称"
          aria-label="奖项名称"
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => setFilter("keyword", v)}
          style={{ width: 200 }}
        />
        <Select
          allowClear
          placeholder="奖项类别"
          aria-label="奖项类别"
          style={{ width: 130 }}
          options={Object.entries(AWARD_KIND_LABELS).map(([value, label]) => ({ value, label }))}
          onChange={(v) => setFilter("kind", v)}
        />
        <Select
          allowClear
          placeholder="状态"
          aria-label="状态"
          style={{ width: 120 }}
          options={[
            { value: false, label: "使用中" },
            { value: true, label: "已归档" },
          ]}
          onChange={(v) => setFilter("archived", v)}
        />
        <Typography.Text type={ratioSum > 1 + 1e-9 ? "danger" : "secondary"} data-testid="award-ratio-sum">
          {CONTEST_LEVEL_LABELS[level]}作品奖比例合计 {formatRatio(ratioSum)}（不能超过 100%）
        </Typography.Text>
      </Space>
      <Table {...tableProps} rowKey="id" size="middle" pagination={false} data-testid="award-table">
        <Table.Column<AwardView> dataIndex="sort" title="排序" sorter width={80} />
        <Table.Column<AwardView>
          dataIndex="name"
          title="奖项名称"
          sorter
          render={(name, r) => (
            <span>
              {name} {r.archived && <Tag>已归档</Tag>}
            </span>
          )}
        />
        <Table.Column<AwardView>
          dataIndex="kind"
          title="类别"
          sorter
          width={110}
          render={(k: AwardKind) => <Tag color={KIND_COLORS[k]}>{AWARD_KIND_LABELS[k]}</Tag>}
        />
        <Table.Column<AwardView>
          dataIndex="ratio"
          title="比例上限"
          sorter
          width={120}
          render={(r: number | null) => (r === null ? "不限" : formatRatio(r))}
        />
        <Table.Column<AwardView>
          dataIndex="maxCount"
          title="数量上限"
          width={120}
          render={(n: number | null) => (n === null ? "不限" : `${n} 个`)}
        />
        <Table.Column<AwardView>
          title="操作"
          width={170}
          render={(_, r) => (
            <Space>
              <EditButton size="small" resource="awards" recordItemId={r.id} onClick={() => edit.show(r.id)} />
              <DeleteButton
                size="small"
                resource="awards"
                recordItemId={r.id}
                confirmTitle={`删除${CONTEST_LEVEL_LABELS[r.contestLevel]}的「${r.name}」？`}
                onSuccess={() => tableQuery.refetch()}
              />
            </Space>
          )}
        />
      </Table>
      <AwardFormModal title="新建奖项" modal={create} />
      <AwardFormModal title="编辑奖项" modal={edit} editing />
    </Card>
  );
}
