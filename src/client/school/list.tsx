/**
 * Schools: root sees all (/admin/SchoolManagement), a contest admin those of the
 * contest's province (/ContestAdmin/SchoolManagement) — the server scopes the rows.
 * Server-side pagination, sorting and filters; create and edit in a modal; delete
 * archives a school that others reference; Excel import and export.
 */
import { CreateButton, DeleteButton, EditButton, useModalForm } from "@refinedev/antd";
import { Button, Card, Form, Input, Modal, Select, Space, Table, Tag } from "antd";
import { ListTable, useAddressText, useListTable } from "../crud/use-list-table";
import { bool, oneOf, text, type ListSpec } from "../crud/list-address";
import { DeleteOutlined } from "@ant-design/icons";
import type { CrudFilter } from "@refinedev/core";
import { useCanNow } from "../providers/use-can-now";
import type { SchoolView } from "../../shared/school/schema";
import { ImportExport } from "../crud/ImportExport";
import type { PageProps } from "../routing/model";
import { filtersObject } from "../crud/filters";
import { Inline, Lines, Muted } from "../components/light";
import { OnDemand } from "../components/on-demand";
import { PROVINCES } from "../../shared/provinces";

const NO_CHECK = { enabled: false };

/** The view in the address (crud/list-address.ts), e.g. ?keyword=大学&province=浙江省&archived=false&page=2 */
const SCHOOL_LIST_ADDRESS: ListSpec = {
  pageSize: 20,
  sort: { field: "province", order: "asc" },
  sortable: ["code", "name"],
  filters: { keyword: text, province: oneOf(PROVINCES), archived: bool },
};

export default function SchoolList({ route }: PageProps) {
  const { tableProps, setFilters, filters, tableQuery, values, view, formKey } = useListTable<SchoolView>({
    resource: "schools",
    address: SCHOOL_LIST_ADDRESS,
  });
  const [keyword, setKeyword] = useAddressText(values.keyword, formKey);
  // The row buttons' permissions, asked once for the table rather than by each row's buttons.
  const can = useCanNow();
  const canEdit = can("schools", "edit");
  const canDelete = can("schools", "delete");
  const form = useModalForm<SchoolView>({ resource: "schools", action: "create", redirect: false });
  const edit = useModalForm<SchoolView>({ resource: "schools", action: "edit", redirect: false });

  const setFilter = (field: string, value: unknown) => setFilters([{ field, operator: "eq", value } as CrudFilter], "merge");

  return (
    <Card
      title={route.label}
      extra={
        <Space>
          <ImportExport resource="schools" filters={filtersObject(filters)} onImported={() => tableQuery.refetch()} />
          <CreateButton resource="schools" onClick={() => form.show()}>
            新建学校
          </CreateButton>
        </Space>
      }
    >
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          allowClear
          placeholder="名称、代码或曾用名"
          aria-label="名称、代码或曾用名"
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => setFilter("keyword", v)}
          style={{ width: 260 }}
          data-testid="school-search"
        />
        <Select
          allowClear
          placeholder="省份"
          aria-label="省份"
          style={{ width: 160 }}
          options={PROVINCES.map((p) => ({ value: p, label: p }))}
          value={values.province as never}
          onChange={(v) => setFilter("province", v)}
          showSearch
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
      <ListTable {...tableProps} sort={view.sort} rowKey="id" size="middle" data-testid="school-table">
        <Table.Column<SchoolView> dataIndex="code" title="学校代码" sorter width={110} />
        <Table.Column<SchoolView>
          dataIndex="name"
          title="学校名称"
          sorter
          render={(name, r) => (
            <Lines>
              <span>
                {name} {r.archived && <Tag>已归档</Tag>}
              </span>
              {r.formerNames.length > 0 && <Muted small>曾用名：{r.formerNames.join("、")}</Muted>}
            </Lines>
          )}
        />
        <Table.Column<SchoolView> dataIndex="province" title="省份" sorter width={120} />
        <Table.Column<SchoolView> dataIndex="contact" title="联系方式" render={(v) => v ?? "—"} />
        <Table.Column<SchoolView> dataIndex="adminCount" title="学校管理员" width={110} />
        <Table.Column<SchoolView>
          title="操作"
          width={170}
          render={(_, r) => (
            <Inline>
              {canEdit && (
                <EditButton
                  size="small"
                  resource="schools"
                  recordItemId={r.id}
                  onClick={() => edit.show(r.id)}
                  accessControl={NO_CHECK}
                />
              )}
              {canDelete && (
                <OnDemand
                  real={
                    <DeleteButton
                      size="small"
                      resource="schools"
                      recordItemId={r.id}
                      confirmTitle="删除该学校？有账号或校赛引用时将改为归档。"
                      onSuccess={() => tableQuery.refetch()}
                      accessControl={NO_CHECK}
                    />
                  }
                >
                  <Button size="small" danger icon={<DeleteOutlined />} title="删除" className="refine-delete-button">
                    删除
                  </Button>
                </OnDemand>
              )}
            </Inline>
          )}
        />
      </ListTable>
      <SchoolFormModal title="新建学校" modal={form} />
      <SchoolFormModal title="编辑学校" modal={edit} />
    </Card>
  );
}

function SchoolFormModal({ title, modal }: { title: string; modal: ReturnType<typeof useModalForm<SchoolView>> }) {
  return (
    <Modal {...modal.modalProps} title={title} okText="保存" destroyOnHidden>
      <Form {...modal.formProps} layout="vertical">
        <Form.Item name="name" label="学校名称" rules={[{ required: true, min: 2, message: "请输入至少 2 个字的学校名称" }]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="code"
          label="学校代码"
          rules={[{ required: true, pattern: /^[0-9A-Za-z]{4,12}$/, message: "学校代码为 4–12 位字母或数字" }]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="province" label="省份" rules={[{ required: true, message: "请选择省份" }]}>
          <Select showSearch options={PROVINCES.map((p) => ({ value: p, label: p }))} />
        </Form.Item>
        <Form.Item name="formerNames" label="曾用名" extra="学校更名时旧名称会自动保留在这里">
          <Select mode="tags" tokenSeparators={["、", ",", "，"]} />
        </Form.Item>
        <Form.Item name="contact" label="联系方式">
          <Input />
        </Form.Item>
      </Form>
    </Modal>
  );
}
