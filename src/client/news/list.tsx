/**
 * News: root sees all (/Article; national news has no contest), a contest admin the news
 * of the own contests (/ContestAdmin/news) — the server scopes the rows. Filters by
 * keyword, status and contest; create and edit in a drawer; delete.
 */
import { useState } from "react";
import { CreateButton, DeleteButton, EditButton } from "@refinedev/antd";
import type { CrudFilter } from "@refinedev/core";
import { Card, Image, Input, Select, Space, Table, Typography } from "antd";
import { ListTable, useAddressText, useListTable } from "../crud/use-list-table";
import { bool, int, oneOf, text, type ListSpec } from "../crud/list-address";
import type { NewsView } from "../../shared/news/schema";
import type { PageProps } from "../routing/model";
import { ContestSelect, useIsRoot } from "../notice/contest-select";
import { NewsDrawer, type NewsTarget } from "./news-drawer";
import { NewsStatusTag } from "./status";
import { fmtTime } from "../format";

/** The view in the address (crud/list-address.ts), e.g. ?status=draft&contestId=3&sort=title&order=asc */
const NEWS_LIST_ADDRESS: ListSpec = {
  pageSize: 20,
  sort: { field: "updatedAt", order: "desc" },
  sortable: ["title", "status", "publishAt"],
  filters: { keyword: text, status: oneOf(["draft", "published"]), platform: bool, contestId: int },
};

export default function NewsList({ route }: PageProps) {
  const isRoot = useIsRoot();
  const [target, setTarget] = useState<NewsTarget>(null);
  const { tableProps, setFilters, tableQuery, values, view, formKey } = useListTable<NewsView>({
    resource: "news",
    address: NEWS_LIST_ADDRESS,
  });
  const [keyword, setKeyword] = useAddressText(values.keyword, formKey);
  const setFilter = (field: string, value: unknown) => setFilters([{ field, operator: "eq", value } as CrudFilter], "merge");

  return (
    <Card
      title={route.label}
      extra={
        <CreateButton resource="news" onClick={() => setTarget({})} data-testid="news-create">
          新建新闻
        </CreateButton>
      }
    >
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          allowClear
          placeholder="标题或正文"
          aria-label="标题或正文"
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => setFilter("keyword", v)}
          style={{ width: 240 }}
          data-testid="news-search"
        />
        <Select
          allowClear
          placeholder="状态"
          aria-label="状态"
          style={{ width: 120 }}
          options={[
            { value: "draft", label: "草稿" },
            { value: "published", label: "已发布（含定时）" },
          ]}
          value={values.status as never}
          onChange={(v) => setFilter("status", v)}
        />
        {isRoot && (
          <Select
            allowClear
            placeholder="范围"
            aria-label="范围"
            style={{ width: 140 }}
            options={[
              { value: true, label: "全国新闻" },
              { value: false, label: "赛事新闻" },
            ]}
            value={values.platform as never}
            onChange={(v) => setFilter("platform", v)}
          />
        )}
        <ContestSelect
          allowClear
          placeholder="按赛事筛选"
          aria-label="按赛事筛选"
          style={{ width: 320 }}
          value={values.contestId as never}
          onChange={(v) => setFilter("contestId", v)}
        />
      </Space>
      <ListTable {...tableProps} sort={view.sort} rowKey="id" size="middle" data-testid="news-table">
        <Table.Column<NewsView>
          dataIndex="cover"
          title="封面"
          width={96}
          render={(c: string | null) =>
            c ? (
              <Image src={c} width={72} height={44} style={{ objectFit: "cover" }} alt="封面" />
            ) : (
              <Typography.Text type="secondary">无</Typography.Text>
            )
          }
        />
        <Table.Column<NewsView> dataIndex="title" title="标题" sorter />
        <Table.Column<NewsView> dataIndex="contestName" title="赛事" render={(v: string | null) => v ?? "全国新闻"} />
        <Table.Column<NewsView>
          dataIndex="status"
          title="状态"
          sorter
          width={100}
          render={(_, r) => <NewsStatusTag news={r} />}
        />
        <Table.Column<NewsView> dataIndex="publishAt" title="发布时间" sorter width={150} render={fmtTime} />
        <Table.Column<NewsView> dataIndex="createdByName" title="作者" width={110} render={(v: string | null) => v ?? "—"} />
        <Table.Column<NewsView> dataIndex="updatedAt" title="更新时间" sorter width={150} render={fmtTime} />
        <Table.Column<NewsView>
          title="操作"
          width={170}
          render={(_, r) => (
            <Space>
              <EditButton size="small" resource="news" recordItemId={r.id} onClick={() => setTarget({ id: r.id })} />
              <DeleteButton
                size="small"
                resource="news"
                recordItemId={r.id}
                confirmTitle="删除这条新闻？删除后不能恢复。"
                onSuccess={() => tableQuery.refetch()}
              />
            </Space>
          )}
        />
      </ListTable>
      <NewsDrawer target={target} onClose={() => (setTarget(null), void tableQuery.refetch())} />
    </Card>
  );
}
