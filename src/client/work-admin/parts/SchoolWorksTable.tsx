/**
 * The school's works (GET /Backend/School/work), server-paginated, by status tabs, with
 * the school's decisions per row: approve, return (reason), withdraw approval, recommend
 * (the server refuses past the quota with its message), unrecommend.
 */
import { useMemo, useState } from "react";
import type { CrudFilter } from "@refinedev/core";
import { useCanNow } from "../../providers/use-can-now";
import { useQueryClient } from "@tanstack/react-query";
import { Input, Select, Space, Table, Tabs } from "antd";
import type { WorkListItem } from "../../../shared/work/schema";
import { WORK_STATES, WORK_STATE_NAMES, type WorkAction } from "../../../shared/work/states";
import { useCategoryOptions } from "../../work-type/use-tree";
import { LIST_PATH } from "../api";
import { int, oneOf, text } from "../../crud/list-address";
import { ListTable, useAddressText, useListTable } from "../../crud/use-list-table";
import { WORK_LIST_ADDRESS } from "./WorkFilterForm";
import { workColumns } from "./columns";
import { ReasonModal, WorkActions } from "./WorkActions";

const TABS = [
  { key: "all", label: "全部" },
  ...["submitted", "school_approved", "recommended", "returned", "accepted", "draft", "disqualified"].map((s) => ({
    key: s,
    label: WORK_STATE_NAMES[s as (typeof WORK_STATES)[number]],
  })),
];

/** The school's works list in the address, e.g. /school/WorkManagement?status=submitted&keyword=能耗&page=2 */
const SCHOOL_WORKS_ADDRESS = {
  ...WORK_LIST_ADDRESS,
  // Any state (the statistics' pipeline links to format-review states too); a state without a tab gets one while asked.
  filters: { status: oneOf([...WORK_STATES]), keyword: text, categoryId: int, authorName: text },
};

type Work = Pick<WorkListItem, "id" | "name" | "status" | "version">;

export function SchoolWorksTable({ contestId }: { contestId?: number }) {
  // The view lives in the address (crud/list-address.ts): the to-do centre links here with
  // ?status=submitted (to review) or school_approved (to recommend).
  const [reason, setReason] = useState<{ work: Work; action: WorkAction } | null>(null);
  const queryClient = useQueryClient();
  const canDecide = useCanNow()("api.schoolWorks", "update");
  const { options: categories } = useCategoryOptions();
  const permanent = useMemo<CrudFilter[]>(
    () => (contestId ? [{ field: "contestId", operator: "eq", value: contestId }] : []),
    [contestId],
  );
  const { tableProps, setFilters, tableQuery, values, view, formKey } = useListTable<WorkListItem>({
    resource: "schoolWorks",
    meta: { path: LIST_PATH.school },
    address: SCHOOL_WORKS_ADDRESS,
    permanent,
  });
  const tab = typeof values.status === "string" ? values.status : "all";
  const tabs = TABS.some((t) => t.key === tab)
    ? TABS
    : [...TABS, { key: tab, label: WORK_STATE_NAMES[tab as (typeof WORK_STATES)[number]] }];
  const [keyword, setKeyword] = useAddressText(values.keyword, formKey);
  const [author, setAuthor] = useAddressText(values.authorName, formKey);
  const setFilter = (field: string, value: unknown, operator: "eq" | "in" = "eq") =>
    setFilters([{ field, operator, value } as CrudFilter], "merge");
  const refresh = () => {
    void tableQuery.refetch();
    void queryClient.invalidateQueries({ queryKey: ["work-quota"] });
  };

  return (
    <>
      <Tabs
        activeKey={tab}
        items={tabs}
        onChange={(k) => setFilter("status", k === "all" ? undefined : k)}
        data-testid="status-tabs"
      />
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          allowClear
          placeholder="作品编号或名称"
          aria-label="作品编号或名称"
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => setFilter("keyword", v.trim())}
          style={{ width: 240 }}
          data-testid="work-search"
        />
        <Select
          allowClear
          placeholder="作品大类"
          aria-label="作品大类"
          style={{ width: 200 }}
          options={categories}
          value={values.categoryId as never}
          onChange={(v) => setFilter("categoryId", v)}
          showSearch
          optionFilterProp="label"
        />
        <Input.Search
          allowClear
          placeholder="作者姓名"
          aria-label="作者姓名"
          value={author}
          onChange={(e) => setAuthor(e.target.value)}
          onSearch={(v) => setFilter("authorName", v.trim())}
          style={{ width: 160 }}
        />
      </Space>
      <ListTable
        {...tableProps}
        sort={view.sort}
        rowKey="id"
        size="middle"
        scroll={{ x: "max-content" }}
        data-testid="work-table"
      >
        {workColumns({ school: false, contest: !contestId })}
        {canDecide && (
          <Table.Column<WorkListItem>
            title="操作"
            fixed="right"
            width={200}
            render={(_, r) => (
              <WorkActions side="school" work={r} onDone={refresh} onReason={(work, action) => setReason({ work, action })} />
            )}
          />
        )}
      </ListTable>
      <ReasonModal
        side="school"
        work={reason?.work ?? null}
        action={reason?.action ?? null}
        onClose={() => setReason(null)}
        onDone={refresh}
      />
    </>
  );
}
