/**
 * /admin/contest/:section (root): 省赛管理 lists the provincial contests, 国赛管理 the national
 * ones; the route's loader refuses unknown sections. Filters by year, keyword and archive
 * state; create and edit in a drawer; child contests in the expanded row; delete archives a
 * contest others refer to; Excel import and export of the filtered view.
 */
import { useState } from "react";
import { useParams } from "react-router";
import { CreateButton, DeleteButton, EditButton, useTable } from "@refinedev/antd";
import { useCan, useUpdate, type CrudFilter } from "@refinedev/core";
import { Button, Card, Input, Popconfirm, Select, Space, Table, Tag } from "antd";
import type { ContestView } from "../../shared/contest/schema";
import { CONTEST_LEVEL_NAMES, type ContestLevelKey } from "../../shared/contest/stages";
import { CONTEST_SECTIONS, findSection } from "../admin/sections";
import { ImportExport } from "../crud/ImportExport";
import { filtersObject } from "../crud/filters";
import { useDocumentTitle } from "../routing/document-title";
import type { PageProps } from "../routing/model";
import { ChildContests } from "./ChildContests";
import { CategoriesCell, QuotaCell, StageCell, names } from "./columns";
import { ContestDrawer } from "./ContestDrawer";
import { deleteNotices, failedNotice } from "../crud/notify";
import { useContestDrawer, type CreateHint } from "./use-contest-drawer";

const LEVEL_OF: Record<string, ContestLevelKey> = { ProvinceContest: "provincial", NationalContest: "national" };
const THIS_YEAR = new Date().getFullYear();
export const YEARS = Array.from({ length: 12 }, (_, i) => THIS_YEAR + 1 - i);

export default function ContestSectionPage({ route }: PageProps) {
  const section = findSection(CONTEST_SECTIONS, useParams().section);
  const label = section?.label ?? route.label;
  useDocumentTitle(label);
  if (!section) return null; // the loader answers 404 before this
  return <ContestList key={section.key} title={label} level={LEVEL_OF[section.key]} />;
}

function ContestList({ title, level }: { title: string; level: ContestLevelKey }) {
  const [keyword, setKeyword] = useState("");
  const { tableProps, setFilters, filters, tableQuery } = useTable<ContestView>({
    resource: "contests",
    pagination: { pageSize: 20 },
    filters: { permanent: [{ field: "level", operator: "eq", value: level }] },
    syncWithLocation: false,
  });
  const refresh = () => void tableQuery.refetch();
  const create = useContestDrawer("create", { onSaved: refresh });
  const edit = useContestDrawer("edit", { onSaved: refresh });
  const canUpdate = useCan({ resource: "api.contests", action: "update" }).data?.can;
  const { mutate: update } = useUpdate<ContestView>();
  const setFilter = (field: string, value: unknown) => setFilters([{ field, operator: "eq", value } as CrudFilter], "merge");
  const addChild = (parent: ContestView) =>
    create.openCreate({
      level: parent.level === "national" ? "provincial" : "school",
      parent: { id: parent.id, name: parent.name, province: parent.province, year: parent.year },
    } satisfies CreateHint);
  const setArchived = (r: ContestView, archived: boolean) =>
    update(
      {
        resource: "contests",
        id: r.id,
        values: { archived },
        successNotification: { type: "success", message: archived ? `已归档“${r.name}”` : `已恢复“${r.name}”` },
        errorNotification: failedNotice("赛事"),
      },
      { onSuccess: refresh },
    );

  return (
    <Card
      title={title}
      extra={
        <Space>
          <ImportExport resource="contests" filters={filtersObject(filters)} onImported={refresh} />
          <CreateButton resource="contests" onClick={() => create.openCreate({ level })} data-testid="contest-create">
            新建{CONTEST_LEVEL_NAMES[level]}
          </CreateButton>
        </Space>
      }
    >
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          allowClear
          placeholder="赛事名称或代码"
          aria-label="赛事名称或代码"
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => setFilter("keyword", v)}
          style={{ width: 260 }}
          data-testid="contest-search"
        />
        <Select
          allowClear
          placeholder="年份"
          aria-label="年份"
          style={{ width: 120 }}
          options={YEARS.map((y) => ({ value: y, label: `${y} 年` }))}
          onChange={(v) => setFilter("year", v)}
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
      </Space>
      <Table
        {...tableProps}
        rowKey="id"
        size="middle"
        scroll={{ x: 1280 }}
        data-testid="contest-table"
        expandable={{
          rowExpandable: () => true,
          expandedRowRender: (r) => <ChildContests parent={r} onEdit={(id) => edit.openEdit(id)} onCreate={addChild} />,
        }}
      >
        <Table.Column<ContestView> dataIndex="year" title="年份" sorter width={80} />
        <Table.Column<ContestView> dataIndex="code" title="代码" sorter width={110} />
        <Table.Column<ContestView>
          dataIndex="name"
          title="赛事名称"
          sorter
          render={(n, r) => (
            <span>
              {n} {r.archived && <Tag>已归档</Tag>}
            </span>
          )}
        />
        {level === "provincial" && <Table.Column<ContestView> dataIndex="province" title="省份" sorter width={110} />}
        <Table.Column<ContestView> title="当前阶段" render={(_, r) => <StageCell contest={r} />} width={110} />
        <Table.Column<ContestView> title="开放大类" render={(_, r) => <CategoriesCell contest={r} />} width={100} />
        {level !== "national" && (
          <Table.Column<ContestView> title="推荐名额" render={(_, r) => <QuotaCell contest={r} />} width={90} />
        )}
        <Table.Column<ContestView> dataIndex="childCount" title="下级赛事" width={90} />
        <Table.Column<ContestView> title="管理员" render={(_, r) => names(r.admins)} width={130} />
        <Table.Column<ContestView>
          title="操作"
          width={220}
          fixed="right"
          render={(_, r) => (
            <Space>
              <EditButton size="small" resource="contests" recordItemId={r.id} onClick={() => edit.openEdit(r.id)} />
              {canUpdate && (
                <Popconfirm
                  title={r.archived ? "恢复该赛事？" : "归档该赛事？归档后不能在其下新建赛事。"}
                  onConfirm={() => setArchived(r, !r.archived)}
                >
                  <Button size="small">{r.archived ? "恢复" : "归档"}</Button>
                </Popconfirm>
              )}
              <DeleteButton
                size="small"
                resource="contests"
                recordItemId={r.id}
                confirmTitle="删除该赛事？有下级赛事、成员或公告时将改为归档。"
                onSuccess={() => (edit.forget(r.id), refresh())}
                {...deleteNotices("赛事")}
              />
            </Space>
          )}
        />
      </Table>
      <ContestDrawer state={create} />
      <ContestDrawer state={edit} />
    </Card>
  );
}
