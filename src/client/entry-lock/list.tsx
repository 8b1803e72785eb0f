/**
 * /admin/EntryLock (root): which work field is locked from which contest stage on, for one
 * contest or for all contests (全部赛事). One lock per field and contest; the works issue
 * enforces them when a work is edited.
 */
import { useState } from "react";
import { CreateButton, DeleteButton, EditButton, useModalForm, useTable } from "@refinedev/antd";
import type { CrudFilter, HttpError } from "@refinedev/core";
import { Card, Form, Modal, Select, Space, Table, Tag } from "antd";
import type { EntryLockCreate, EntryLockUpdate, EntryLockView } from "../../shared/contest/schema";
import { LOCKABLE_FIELD_OPTIONS } from "../../shared/contest/lockable-fields";
import { STAGE_OPTIONS } from "../../shared/contest/stages";
import { deleteNotices, formNotices } from "../crud/notify";
import { ContestSelect } from "../contest/selects";
import type { PageProps } from "../routing/model";
import { fmtTime } from "../format";

const FIELD_OPTIONS = LOCKABLE_FIELD_OPTIONS.map((f) => ({ value: f.key, label: f.name }));
const STAGE_SELECT = STAGE_OPTIONS.map((s) => ({ value: s.key, label: `${s.name}阶段开始起` }));

export default function EntryLockList({ route }: PageProps) {
  const { tableProps, setFilters, tableQuery } = useTable<EntryLockView>({
    resource: "entryLocks",
    pagination: { pageSize: 20 },
    syncWithLocation: false,
  });
  const refresh = () => void tableQuery.refetch();
  const create = useModalForm<EntryLockView, HttpError, EntryLockCreate | EntryLockUpdate>({
    resource: "entryLocks",
    action: "create",
    redirect: false,
    ...formNotices("字段锁定"),
    onMutationSuccess: refresh,
  });
  const edit = useModalForm<EntryLockView, HttpError, EntryLockCreate | EntryLockUpdate>({
    resource: "entryLocks",
    action: "edit",
    redirect: false,
    ...formNotices("字段锁定"),
    onMutationSuccess: refresh,
  });
  const setFilter = (field: string, value: unknown) => setFilters([{ field, operator: "eq", value } as CrudFilter], "merge");
  const setScope = (v: number | "all" | undefined) =>
    setFilters(
      [
        { field: "contestId", operator: "eq", value: typeof v === "number" ? v : undefined },
        { field: "global", operator: "eq", value: v === "all" ? true : undefined },
      ] as CrudFilter[],
      "merge",
    );

  return (
    <Card
      title={route.label}
      extra={
        <CreateButton resource="entryLocks" onClick={() => create.show()} data-testid="lock-create">
          新建锁定
        </CreateButton>
      }
    >
      <Space style={{ marginBottom: 16 }} wrap>
        <ScopeFilter onChange={setScope} />
        <Select
          allowClear
          placeholder="字段"
          aria-label="字段"
          style={{ width: 220 }}
          options={FIELD_OPTIONS}
          onChange={(v) => setFilter("field", v)}
          showSearch
          optionFilterProp="label"
        />
        <Select
          allowClear
          placeholder="起锁阶段"
          aria-label="起锁阶段"
          style={{ width: 160 }}
          options={STAGE_OPTIONS.map((s) => ({ value: s.key, label: s.name }))}
          onChange={(v) => setFilter("fromStage", v)}
        />
      </Space>
      <Table {...tableProps} rowKey="id" size="middle" data-testid="lock-table">
        <Table.Column<EntryLockView>
          dataIndex="contestId"
          title="适用赛事"
          sorter
          render={(_, r) => (r.contestId === null ? <Tag color="blue">全部赛事</Tag> : r.contestName)}
        />
        <Table.Column<EntryLockView> dataIndex="field" title="锁定字段" sorter render={(_, r) => r.fieldName} />
        <Table.Column<EntryLockView>
          dataIndex="fromStage"
          title="起锁阶段"
          sorter
          render={(_, r) => `${r.stageName}阶段开始起`}
        />
        <Table.Column<EntryLockView>
          dataIndex="createdAt"
          title="设置时间"
          sorter
          width={170}
          render={(v: string) => fmtTime(v)}
        />
        <Table.Column<EntryLockView>
          title="操作"
          width={170}
          render={(_, r) => (
            <Space>
              <EditButton size="small" resource="entryLocks" recordItemId={r.id} onClick={() => edit.show(r.id)} />
              <DeleteButton
                size="small"
                resource="entryLocks"
                recordItemId={r.id}
                confirmTitle="删除该锁定？删除后该字段可再次修改。"
                onSuccess={() => (edit.id === r.id && edit.setId?.(undefined), refresh())}
                {...deleteNotices("字段锁定")}
              />
            </Space>
          )}
        />
      </Table>
      <LockModal title="新建字段锁定" modal={create} name="lock-create" />
      <LockModal title="编辑字段锁定" modal={edit} name="lock-edit" />
    </Card>
  );
}

function ScopeFilter({ onChange }: { onChange: (v: number | "all" | undefined) => void }) {
  const [scope, setScope] = useState<"all" | "contest" | undefined>();
  return (
    <Space.Compact>
      <Select
        allowClear
        placeholder="适用范围"
        aria-label="适用范围"
        style={{ width: 130 }}
        value={scope}
        options={[
          { value: "all", label: "仅全部赛事" },
          { value: "contest", label: "指定赛事" },
        ]}
        onChange={(v) => (setScope(v), v !== "contest" && onChange(v))}
      />
      {scope === "contest" && (
        <ContestSelect
          placeholder="选择赛事"
          aria-label="选择赛事"
          style={{ width: 300 }}
          onChange={(v) => onChange(typeof v === "number" ? v : undefined)}
        />
      )}
    </Space.Compact>
  );
}

function LockModal({
  title,
  modal,
  name,
}: {
  title: string;
  name: string;
  modal: ReturnType<typeof useModalForm<EntryLockView, HttpError, EntryLockCreate | EntryLockUpdate>>;
}) {
  const record = modal.query?.data?.data;
  return (
    <Modal {...modal.modalProps} title={title} okText="保存" destroyOnHidden>
      <Form
        {...modal.formProps}
        name={name}
        layout="vertical"
        onFinish={(v) => {
          const x = v as EntryLockCreate;
          return Promise.resolve(
            modal.formProps.onFinish?.({ contestId: x.contestId ?? null, field: x.field, fromStage: x.fromStage }),
          ).catch(() => undefined);
        }}
        data-testid="lock-form"
      >
        <Form.Item name="contestId" label="适用赛事" extra="不选择时对全部赛事生效">
          <ContestSelect
            placeholder="全部赛事"
            known={record?.contestId ? { id: record.contestId, name: record.contestName ?? "" } : null}
          />
        </Form.Item>
        <Form.Item name="field" label="锁定字段" rules={[{ required: true, message: "请选择要锁定的字段" }]}>
          <Select options={FIELD_OPTIONS} showSearch optionFilterProp="label" data-testid="lock-field" />
        </Form.Item>
        <Form.Item
          name="fromStage"
          label="起锁阶段"
          rules={[{ required: true, message: "请选择从哪个阶段开始锁定" }]}
          extra="该阶段开始后，作者不能再修改此字段"
        >
          <Select options={STAGE_SELECT} data-testid="lock-stage" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
