/**
 * The pool table of root and contest admins: search and filters (category — a 大类 also finds
 * its 小类 —, expertise, province, school, this year's availability, history, account),
 * server-side sorting and paging, selection across pages, the detail drawer, create/edit,
 * Excel import/export (the generic ImportExport) and merging two selected records.
 * `selectionActions(selectedPersonIds)` renders more buttons for the selection (e.g. 邀请).
 */
import { useState, type ReactNode } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Input, InputNumber, Select, Space, Table, Tag, Tooltip, Typography } from "antd";
import type { SorterResult } from "antd/es/table/interface";
import { MergeCellsOutlined, PlusOutlined } from "@ant-design/icons";
import type { PageOf } from "../../shared/crud/list";
import type { JudgePersonFilters, JudgePersonView } from "../../shared/judge-pool/schema";
import { ImportExport } from "../crud/ImportExport";
import { PROVINCES } from "../contest/provinces";
import { SchoolPicker } from "../account/SchoolPicker";
import { fetchData } from "../request";
import { PERSONS, poolKeys, useTags } from "./api";
import { OnDemand } from "../components/on-demand";
import { AvailabilityTag, CategorySelect, CategoryTags } from "./parts";
import { PersonDrawer } from "./PersonDrawer";
import { PersonForm } from "./PersonForm";
import { MergeModal } from "./MergeModal";

export interface PoolTableProps {
  /** more actions for the selected records (person ids), shown beside 合并 */
  selectionActions?: (selectedPersonIds: number[]) => ReactNode;
}

type Filters = Omit<JudgePersonFilters, "keyword"> & { keyword?: string };

export function PoolTable({ selectionActions }: PoolTableProps) {
  const [filters, setFilters] = useState<Filters>({});
  const [keyword, setKeyword] = useState("");
  const [page, setPage] = useState({ current: 1, pageSize: 20 });
  const [sort, setSort] = useState<string | null>(null);
  const [selected, setSelected] = useState<JudgePersonView[]>([]);
  const [detail, setDetail] = useState<JudgePersonView | null>(null);
  const [editing, setEditing] = useState<{ person: JudgePersonView | null } | null>(null);
  const [merging, setMerging] = useState<[JudgePersonView, JudgePersonView] | null>(null);
  const qc = useQueryClient();
  const tags = useTags();

  const params = { ...filters, current: page.current, pageSize: page.pageSize, ...(sort ? { sort } : {}) };
  const q = useQuery({
    queryKey: [...poolKeys.all, "list", params],
    queryFn: () => fetchData<PageOf<JudgePersonView>>(PERSONS, params as never),
    placeholderData: keepPreviousData,
  });
  const refresh = () => qc.invalidateQueries({ queryKey: poolKeys.all });
  const set = (patch: Partial<Filters>) => {
    setFilters((f) => {
      const next = { ...f, ...patch };
      for (const k of Object.keys(next) as (keyof Filters)[])
        if (next[k] === undefined || next[k] === null || next[k] === "") delete next[k];
      return next;
    });
    setPage((p) => ({ ...p, current: 1 }));
  };
  const selectedIds = selected.map((p) => p.id);

  const onTableChange = (
    pagination: { current?: number; pageSize?: number },
    _f: unknown,
    sorter: SorterResult<JudgePersonView> | SorterResult<JudgePersonView>[],
  ) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = s?.order ? String(s.columnKey ?? s.field) : null;
    setSort(field ? `${s.order === "descend" ? "-" : ""}${field}` : null);
    setPage({ current: pagination.current ?? 1, pageSize: pagination.pageSize ?? 20 });
  };
  const order = (key: string) => (sort === key ? "ascend" : sort === `-${key}` ? "descend" : null);

  return (
    <Space direction="vertical" size={12} style={{ width: "100%" }}>
      <Space wrap data-testid="pool-filters">
        <Input.Search
          allowClear
          placeholder="姓名、学校或邮箱"
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => set({ keyword: v.trim() || undefined })}
          style={{ width: 220 }}
          data-testid="pool-search"
        />
        <CategorySelect
          value={filters.categoryId}
          onChange={(v) => set({ categoryId: v ?? undefined })}
          placeholder="评审类别（大类含小类）"
          style={{ width: 220 }}
          data-testid="pool-category"
        />
        <Select
          allowClear
          showSearch
          placeholder="专业特长"
          style={{ width: 150 }}
          value={filters.tag}
          onChange={(v) => set({ tag: v })}
          options={(tags.data ?? []).map((t) => ({ value: t.tag, label: `${t.tag}（${t.count}）` }))}
          data-testid="pool-tag"
        />
        <Select
          allowClear
          showSearch
          placeholder="省份"
          style={{ width: 130 }}
          value={filters.province}
          onChange={(v) => set({ province: v })}
          options={PROVINCES.map((p) => ({ value: p, label: p }))}
        />
        <div style={{ width: 220 }}>
          <SchoolPicker size="middle" allowClear value={filters.schoolId} onChange={(v) => set({ schoolId: v ?? undefined })} />
        </div>
        <Select
          allowClear
          placeholder="本年度参评意愿"
          style={{ width: 150 }}
          value={filters.available}
          onChange={(v) => set({ available: v })}
          options={[
            { value: "yes", label: "可参评" },
            { value: "no", label: "不可参评" },
            { value: "unknown", label: "未填写" },
          ]}
          data-testid="pool-available"
        />
        <Select
          allowClear
          placeholder="评审经历"
          style={{ width: 130 }}
          value={filters.history}
          onChange={(v) => set({ history: v })}
          options={[
            { value: "any", label: "评审过" },
            { value: "none", label: "从未评审" },
          ]}
        />
        <InputNumber
          placeholder="评审年度"
          min={2000}
          max={2100}
          style={{ width: 110 }}
          value={filters.judgedYear}
          onChange={(v) => set({ judgedYear: v ?? undefined })}
        />
        <Select
          allowClear
          placeholder="账号"
          style={{ width: 110 }}
          value={filters.hasAccount}
          onChange={(v) => set({ hasAccount: v })}
          options={[
            { value: true, label: "已有账号" },
            { value: false, label: "没有账号" },
          ]}
        />
      </Space>
      <Space wrap>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ person: null })}>
          新建评委
        </Button>
        <ImportExport resource="judgePool" filters={filters as Record<string, unknown>} onImported={refresh} />
        <Tooltip title={selected.length === 2 ? "" : "勾选两条重复的记录后合并"}>
          <Button
            icon={<MergeCellsOutlined />}
            disabled={selected.length !== 2}
            onClick={() => setMerging([selected[0], selected[1]])}
            data-testid="pool-merge"
          >
            合并
          </Button>
        </Tooltip>
        {selectionActions?.(selectedIds)}
        {selected.length > 0 && (
          <Typography.Text type="secondary">
            已选 {selected.length} 位{" "}
            <Button type="link" size="small" onClick={() => setSelected([])}>
              清除选择
            </Button>
          </Typography.Text>
        )}
      </Space>
      {q.error && <Alert type="error" showIcon message={q.error.message} />}
      <Table<JudgePersonView>
        rowKey="id"
        size="middle"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        onChange={onTableChange as never}
        scroll={{ x: 1560 }}
        pagination={{
          current: page.current,
          pageSize: page.pageSize,
          total: q.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (n) => `共 ${n} 位`,
        }}
        rowSelection={{
          selectedRowKeys: selectedIds,
          preserveSelectedRowKeys: true,
          onChange: (_keys, rows) =>
            setSelected((prev) => {
              const ids = new Set(_keys as number[]);
              const byId = new Map([...prev, ...rows.filter(Boolean)].map((r) => [r.id, r]));
              return [...ids].map((id) => byId.get(id)!).filter(Boolean);
            }),
        }}
        data-testid="pool-table"
        columns={[
          {
            title: "姓名",
            key: "name",
            dataIndex: "name",
            sorter: true,
            sortOrder: order("name"),
            fixed: "left",
            width: 120,
            render: (n: string, p) => (
              <a onClick={() => setDetail(p)} data-testid={`pool-name-${p.id}`}>
                {n}
              </a>
            ),
          },
          {
            title: "学校/单位",
            key: "school",
            dataIndex: "schoolName",
            sorter: true,
            sortOrder: order("school"),
            width: 170,
            render: (s: string | null) => s ?? "—",
          },
          {
            title: "省份",
            key: "province",
            dataIndex: "province",
            sorter: true,
            sortOrder: order("province"),
            width: 90,
            render: (s: string | null) => s ?? "—",
          },
          {
            title: "职称",
            key: "title",
            dataIndex: "title",
            sorter: true,
            sortOrder: order("title"),
            width: 100,
            render: (s: string | null) => s ?? "—",
          },
          { title: "评审类别", key: "categories", width: 230, render: (_, p) => <CategoryTags categories={p.categories} /> },
          {
            title: "专业特长",
            key: "tags",
            width: 170,
            render: (_, p) => (p.tags.length ? p.tags.map((t) => <Tag key={t}>{t}</Tag>) : "—"),
          },
          {
            title: "本年度",
            key: "available",
            width: 100,
            render: (_, p) =>
              p.availabilityNote ? (
                <OnDemand tip={p.availabilityNote}>
                  <span>
                    <AvailabilityTag available={p.available} />
                  </span>
                </OnDemand>
              ) : (
                <span>
                  <AvailabilityTag available={p.available} />
                </span>
              ),
          },
          {
            title: "参评赛事",
            key: "contests",
            dataIndex: "contests",
            sorter: true,
            sortOrder: order("contests"),
            width: 100,
            render: (n: number, p) =>
              n ? (
                <OnDemand tip={`最近一次：${p.lastYear} 年`}>
                  <span>{n}</span>
                </OnDemand>
              ) : (
                "—"
              ),
          },
          {
            title: "已评作品",
            key: "worksScored",
            dataIndex: "worksScored",
            sorter: true,
            sortOrder: order("worksScored"),
            width: 100,
          },
          {
            title: "账号",
            key: "account",
            width: 100,
            render: (_, p) => p.account?.username ?? <Typography.Text type="secondary">未关联</Typography.Text>,
          },
          {
            title: "联系方式",
            key: "contact",
            width: 200,
            render: (_, p) =>
              p.contactVisible ? (
                <span>
                  {p.email ?? "—"}
                  <br />
                  {p.phone ?? ""}
                </span>
              ) : (
                <Typography.Text type="secondary">无权查看</Typography.Text>
              ),
          },
          {
            title: "操作",
            key: "actions",
            fixed: "right",
            width: 120,
            render: (_, p) => (
              <Space>
                <Button size="small" onClick={() => setDetail(p)}>
                  详情
                </Button>
                <Button size="small" onClick={() => setEditing({ person: p })}>
                  编辑
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <PersonDrawer person={detail} onClose={() => setDetail(null)} onEdit={(p) => setEditing({ person: p })} />
      <PersonForm
        open={!!editing}
        person={editing?.person ?? null}
        onClose={() => setEditing(null)}
        onSaved={(p) => {
          setEditing(null);
          if (detail?.id === p.id) setDetail(p);
          void refresh();
        }}
      />
      <MergeModal
        pair={merging}
        onClose={() => setMerging(null)}
        onMerged={() => {
          setMerging(null);
          setSelected([]);
          void refresh();
        }}
      />
    </Space>
  );
}
