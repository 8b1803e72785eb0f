/**
 * The school's works (GET /Backend/School/work), server-paginated, by status tabs, with
 * the school's decisions per row: approve, return (reason), withdraw approval, recommend
 * (the server refuses past the quota with its message), unrecommend.
 */
import { useState } from "react";
import { useSearchParams } from "react-router";
import { useTable } from "@refinedev/antd";
import type { CrudFilter } from "@refinedev/core";
import { useCanNow } from "../../providers/use-can-now";
import { useQueryClient } from "@tanstack/react-query";
import { Input, Select, Space, Table, Tabs } from "antd";
import type { WorkListItem } from "../../../shared/work/schema";
import { WORK_STATES, WORK_STATE_NAMES, type WorkAction } from "../../../shared/work/states";
import { useCategoryOptions } from "../../work-type/use-tree";
import { LIST_PATH } from "../api";
import { workColumns } from "./columns";
import { ReasonModal, WorkActions } from "./WorkActions";

const TABS = [
  { key: "all", label: "全部" },
  ...["submitted", "school_approved", "recommended", "returned", "accepted", "draft", "disqualified"].map((s) => ({
    key: s,
    label: WORK_STATE_NAMES[s as (typeof WORK_STATES)[number]],
  })),
];

type Work = Pick<WorkListItem, "id" | "name" | "status" | "version">;

export function SchoolWorksTable({ contestId }: { contestId?: number }) {
  // The to-do centre links here with ?status=submitted (to review) or school_approved (to recommend).
  const [params] = useSearchParams();
  const asked = params.get("status");
  const [tab, setTab] = useState(TABS.some((t) => t.key === asked && asked !== "all") ? asked! : "all");
  const [keyword, setKeyword] = useState("");
  const [reason, setReason] = useState<{ work: Work; action: WorkAction } | null>(null);
  const queryClient = useQueryClient();
  const canDecide = useCanNow()("api.schoolWorks", "update");
  const { options: categories } = useCategoryOptions();
  const permanent: CrudFilter[] = contestId ? [{ field: "contestId", operator: "eq", value: contestId }] : [];
  const { tableProps, setFilters, tableQuery } = useTable<WorkListItem>({
    resource: "schoolWorks",
    meta: { path: LIST_PATH.school },
    pagination: { pageSize: 20 },
    sorters: { initial: [{ field: "id", order: "desc" }] },
    filters: { permanent, initial: tab !== "all" ? [{ field: "status", operator: "in", value: [tab] }] : [] },
    syncWithLocation: false,
  });
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
        items={TABS}
        onChange={(k) => {
          setTab(k);
          setFilter("status", k === "all" ? undefined : [k], "in");
        }}
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
          onChange={(v) => setFilter("categoryId", v)}
          showSearch
          optionFilterProp="label"
        />
        <Input.Search
          allowClear
          placeholder="作者姓名"
          aria-label="作者姓名"
          onSearch={(v) => setFilter("authorName", v.trim())}
          style={{ width: 160 }}
        />
      </Space>
      <Table {...tableProps} rowKey="id" size="middle" scroll={{ x: "max-content" }} data-testid="work-table">
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
      </Table>
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
