/** A 小类: name, sort and description only — it inherits everything else from its 大类. */
import { useModalForm } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { Form, Input, InputNumber, Modal } from "antd";
import { formNotices } from "../crud/notify";
import type { WorkTypeCreate, WorkTypeUpdate, WorkTypeView } from "../../shared/work-type/schema";

export function useSubcategoryModal(action: "create" | "edit", onSaved: () => void) {
  return useModalForm<WorkTypeView, HttpError, WorkTypeCreate | WorkTypeUpdate>({
    resource: "workTypes",
    action,
    redirect: false,
    ...formNotices("作品小类"),
    onMutationSuccess: onSaved,
  });
}

export function SubcategoryModal({
  modal,
  parent,
  name,
}: {
  modal: ReturnType<typeof useSubcategoryModal>;
  parent?: { id: number; name: string } | null;
  name: string;
}) {
  const editing = modal.id !== undefined;
  const record = modal.query?.data?.data;
  const parentName = editing ? record?.parentName : parent?.name;
  return (
    <Modal
      {...modal.modalProps}
      title={editing ? `编辑小类：${record?.name ?? ""}` : `在“${parentName ?? ""}”下添加小类`}
      okText="保存"
      destroyOnHidden
    >
      <Form
        {...modal.formProps}
        name={name}
        layout="vertical"
        onFinish={(v) => {
          const x = v as { name: string; sort?: number | null; description?: string | null };
          const body = {
            name: x.name.trim(),
            ...(typeof x.sort === "number" ? { sort: x.sort } : {}),
            description: x.description?.trim() || null,
          };
          return Promise.resolve(modal.formProps.onFinish?.(editing ? body : { ...body, parentId: parent?.id })).catch(
            () => undefined,
          );
        }}
        data-testid="subcategory-form"
      >
        <Form.Item
          name="name"
          label="小类名称"
          rules={[{ required: true, whitespace: true, max: 40, message: "请输入不超过 40 个字的名称" }]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="sort" label="排序" extra="留空时排在最后">
          <InputNumber min={0} max={9999} precision={0} />
        </Form.Item>
        <Form.Item name="description" label="说明">
          <Input.TextArea rows={3} maxLength={2000} showCount />
        </Form.Item>
        <Form.Item label="人数、专业组、提交材料和评分标准" extra="小类沿用所属大类的设置，请在大类中修改">
          <Input disabled value={parentName ?? ""} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
