/**
 * /admin/MajorManagement (root): the national major catalogue. Filters by keyword and
 * discipline; create and edit in a modal; delete archives a major that accounts or a
 * category's 专业组 use (the use counts show why); Excel import and export.
 */
import { CreateButton, DeleteButton, EditButton, useModalForm } from "@refinedev/antd";
import type { CrudFilter } from "@refinedev/core";
import { Card, Form, Input, Modal, Select, Space, Switch, Table, Tag, Tooltip } from "antd";
import { ListTable, useAddressText, useListTable } from "../crud/use-list-table";
import { bool, oneOf, text, type ListSpec } from "../crud/list-address";
import { DISCIPLINES, MAJOR_CODE_PATTERN, MAJOR_CODE_RULE, type MajorView } from "../../shared/major/schema";
import { ImportExport } from "../crud/ImportExport";
import { filtersObject } from "../crud/filters";
import type { PageProps } from "../routing/model";

const DISCIPLINE_OPTIONS = DISCIPLINES.map((d) => ({ value: d, label: d }));

/** The view in the address (crud/list-address.ts), e.g. ?discipline=工学&archived=false&page=3 */
const MAJOR_LIST_ADDRESS: ListSpec = {
  pageSize: 20,
  sort: { field: "code", order: "asc" },
  sortable: ["name", "discipline"],
  filters: { keyword: text, discipline: oneOf(DISCIPLINE_OPTIONS.map((o) => o.value)), archived: bool },
};

export default function MajorList({ route }: PageProps) {
  const { tableProps, setFilters, filters, tableQuery, values, view, formKey } = useListTable<MajorView>({
    resource: "majors",
    address: MAJOR_LIST_ADDRESS,
  });
  const [keyword, setKeyword] = useAddressText(values.keyword, formKey);
  const create = useModalForm<MajorView>({ resource: "majors", action: "create", redirect: false });
  const edit = useModalForm<MajorView>({ resource: "majors", action: "edit", redirect: false });
  const setFilter = (field: string, value: unknown) => setFilters([{ field, operator: "eq", value } as CrudFilter], "merge");

  return (
    <Card
      title={route.label}
      extra={
        <Space>
          <ImportExport resource="majors" filters={filtersObject(filters)} onImported={() => tableQuery.refetch()} />
          <CreateButton resource="majors" onClick={() => create.show()} data-testid="major-create">
            新建专业
          </CreateButton>
        </Space>
      }
    >
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          allowClear
          placeholder="专业代码或名称"
          aria-label="专业代码或名称"
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => setFilter("keyword", v)}
          style={{ width: 240 }}
          data-testid="major-search"
        />
        <Select
          allowClear
          placeholder="学科门类"
          aria-label="学科门类"
          style={{ width: 140 }}
          options={DISCIPLINE_OPTIONS}
          value={values.discipline as never}
          onChange={(v) => setFilter("discipline", v)}
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
          value={values.archived as never}
          onChange={(v) => setFilter("archived", v)}
        />
      </Space>
      <ListTable {...tableProps} sort={view.sort} rowKey="id" size="middle" data-testid="major-table">
        <Table.Column<MajorView> dataIndex="code" title="专业代码" sorter width={120} />
        <Table.Column<MajorView>
          dataIndex="name"
          title="专业名称"
          sorter
          render={(name, r) => (
            <span>
              {name} {r.archived && <Tag>已归档</Tag>}
            </span>
          )}
        />
        <Table.Column<MajorView>
          dataIndex="discipline"
          title="学科门类"
          sorter
          width={120}
          render={(v: string | null) => v ?? "—"}
        />
        <Table.Column<MajorView>
          title="使用情况"
          width={200}
          render={(_, r) =>
            r.userCount || r.categoryCount ? (
              <Tooltip title="被使用的专业删除时改为归档">
                <span>
                  {r.userCount} 个账号 · {r.categoryCount} 个作品大类
                </span>
              </Tooltip>
            ) : (
              "未被使用"
            )
          }
        />
        <Table.Column<MajorView>
          title="操作"
          width={170}
          render={(_, r) => (
            <Space>
              <EditButton size="small" resource="majors" recordItemId={r.id} onClick={() => edit.show(r.id)} />
              {!(r.archived && (r.userCount || r.categoryCount)) && (
                <DeleteButton
                  size="small"
                  resource="majors"
                  recordItemId={r.id}
                  confirmTitle={
                    r.userCount || r.categoryCount
                      ? `该专业被 ${r.userCount} 个账号、${r.categoryCount} 个作品大类使用，将改为归档。继续？`
                      : "删除该专业？"
                  }
                  successNotification={(data) => ({
                    type: "success",
                    message:
                      (data as { data?: { result?: string } } | undefined)?.data?.result === "archived"
                        ? "专业已被使用，已改为归档"
                        : "专业已删除",
                  })}
                  onSuccess={() => tableQuery.refetch()}
                />
              )}
            </Space>
          )}
        />
      </ListTable>
      <MajorFormModal title="新建专业" modal={create} />
      <MajorFormModal title="编辑专业" modal={edit} editing />
    </Card>
  );
}

function MajorFormModal({
  title,
  modal,
  editing,
}: {
  title: string;
  modal: ReturnType<typeof useModalForm<MajorView>>;
  editing?: boolean;
}) {
  const used = editing && ((modal.query?.data?.data.userCount ?? 0) > 0 || (modal.query?.data?.data.categoryCount ?? 0) > 0);
  return (
    <Modal {...modal.modalProps} title={title} okText="保存" destroyOnHidden>
      {/* A refused save shows on the form (and as a notification); it is not an unhandled error. */}
      <Form
        {...modal.formProps}
        layout="vertical"
        onFinish={async (v) => {
          try {
            await modal.formProps.onFinish?.(v);
          } catch {
            /* shown on the form */
          }
        }}
      >
        <Form.Item
          name="code"
          label="专业代码"
          extra={used ? "该专业已被使用，不能修改代码" : "如 080906、080904K"}
          rules={[
            { required: true, message: "请输入专业代码" },
            { pattern: new RegExp(MAJOR_CODE_PATTERN), message: MAJOR_CODE_RULE },
          ]}
        >
          <Input disabled={used} data-testid="major-code" />
        </Form.Item>
        <Form.Item name="name" label="专业名称" rules={[{ required: true, min: 2, max: 40, message: "专业名称为 2–40 个字" }]}>
          <Input data-testid="major-name" />
        </Form.Item>
        <Form.Item name="discipline" label="学科门类" normalize={(v?: string) => v ?? null}>
          <Select allowClear options={DISCIPLINE_OPTIONS} />
        </Form.Item>
        {editing && (
          <Form.Item name="archived" label="已归档" valuePropName="checked">
            <Switch />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
