/**
 * Creating or editing a judge group: its name, 大类 and optionally one 小类 and 普通/专业组
 * (only for 大类 that have them), its leader (专家组长, a judge of the contest) and a note.
 * The server's refusals go under the field they name.
 */
import { useEffect, useState } from "react";
import { App, Form, Input, Modal, Select } from "antd";
import type { ContestJudge, JudgeGroupCreate, JudgeGroupView } from "../../../shared/judging/schema";
import { fieldOf } from "../../request";
import { useWorkTypeTree } from "../../work-type/use-tree";
import { GROUP_TYPE_NAMES, judgingApi } from "./api";

export const judgeLabel = (
  j: Pick<ContestJudge, "name" | "username"> & { school?: { name: string } | null; schoolName?: string | null },
) => {
  const school = j.school?.name ?? j.schoolName;
  return `${j.name}（${j.username}）· ${school ?? "无学校"}`;
};

/** The form's values for a group being edited, or blank for a new one. */
function formValues(group: JudgeGroupView | null): JudgeGroupCreate {
  return group
    ? {
        name: group.name,
        categoryId: group.category.id,
        subcategoryId: group.subcategory?.id ?? null,
        groupType: group.groupType ?? null,
        leaderId: group.leader?.id ?? null,
        note: group.note,
      }
    : {
        name: "",
        categoryId: undefined as unknown as number,
        subcategoryId: null,
        groupType: null,
        leaderId: null,
        note: null,
      };
}

/** `afterClose` runs once the modal has closed and handed focus back to what opened it. */
export function GroupFormModal({
  contestId,
  group,
  open,
  judges,
  onClose,
  onSaved,
  afterClose,
}: {
  contestId: number;
  group: JudgeGroupView | null;
  open: boolean;
  judges: ContestJudge[];
  onClose: () => void;
  onSaved: (g: JudgeGroupView) => void;
  afterClose?: () => void;
}) {
  const [form] = Form.useForm<JudgeGroupCreate>();
  const { message } = App.useApp();
  const { tree, query } = useWorkTypeTree();
  const [busy, setBusy] = useState(false);
  const categoryId = Form.useWatch("categoryId", form);
  const cat = tree.find((c) => c.id === categoryId);

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue(formValues(group));
  }, [open, group, form]);

  const submit = async (v: JudgeGroupCreate) => {
    setBusy(true);
    const body = {
      ...v,
      name: v.name.trim(),
      subcategoryId: v.subcategoryId ?? null,
      groupType: v.groupType ?? null,
      leaderId: v.leaderId ?? null,
      note: v.note?.trim() || null,
    };
    const reply = group ? await judgingApi.updateGroup(group.id, body) : await judgingApi.createGroup(contestId, body);
    setBusy(false);
    if (reply.error === 0 && reply.data) {
      message.success(reply.info);
      onSaved(reply.data);
      onClose();
      return;
    }
    const field = fieldOf(reply) ?? (reply.status === 409 ? "name" : undefined);
    form.setFields([{ name: (field as keyof JudgeGroupCreate) ?? "name", errors: [reply.info || "保存失败"] }]);
  };

  // A group is named after its scope unless the admin names it.
  const suggest = () => {
    const v = form.getFieldsValue();
    const c = tree.find((x) => x.id === v.categoryId);
    if (!c || form.isFieldTouched("name")) return;
    const sub = c.children.find((x) => x.id === v.subcategoryId);
    form.setFieldValue("name", `${sub?.name ?? c.name}${v.groupType ? GROUP_TYPE_NAMES[v.groupType] : "组"}`);
  };

  return (
    <Modal
      open={open}
      title={group ? `编辑评审组「${group.name}」` : "新建评审组"}
      okText="保存"
      cancelText="取消"
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      afterClose={afterClose}
      destroyOnHidden
      data-testid="group-form"
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        onValuesChange={(c) => ("categoryId" in c || "subcategoryId" in c || "groupType" in c) && suggest()}
      >
        <Form.Item
          name="categoryId"
          label="作品大类"
          rules={[{ required: true, message: "请选择作品大类" }]}
          extra={group?.workCount ? `本组已有 ${group.workCount} 件作品，不能修改类别` : undefined}
        >
          <Select
            showSearch
            optionFilterProp="label"
            loading={query.isLoading}
            disabled={!!group?.workCount}
            placeholder="选择大类"
            options={tree.filter((c) => !c.archived).map((c) => ({ value: c.id, label: c.name }))}
            onChange={() => form.setFieldsValue({ subcategoryId: null, groupType: null })}
            data-testid="group-category"
          />
        </Form.Item>
        <Form.Item name="subcategoryId" label="作品小类" extra="留空表示该大类的全部小类">
          <Select
            allowClear
            disabled={!cat || !!group?.workCount}
            placeholder="全部小类"
            options={(cat?.children ?? []).map((c) => ({ value: c.id, label: c.name }))}
          />
        </Form.Item>
        <Form.Item
          name="groupType"
          label="组别"
          extra={cat && !cat.hasProfessionalGroup ? `「${cat.name}」不分普通组和专业组` : "留空表示普通组和专业组一起评审"}
        >
          <Select
            allowClear
            disabled={!cat?.hasProfessionalGroup || !!group?.workCount}
            placeholder="不分组别"
            options={Object.entries(GROUP_TYPE_NAMES).map(([value, label]) => ({ value, label }))}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label="评审组名称"
          rules={[
            { required: true, whitespace: true, message: "请填写评审组名称" },
            { max: 60, message: "最多 60 字" },
          ]}
        >
          <Input placeholder="例如：软件应用与开发组" maxLength={60} data-testid="group-name" />
        </Form.Item>
        <Form.Item name="leaderId" label="专家组长" extra="须是本赛事的评委">
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder="暂不指定"
            options={judges.map((j) => ({ value: j.id, label: judgeLabel(j) }))}
          />
        </Form.Item>
        <Form.Item name="note" label="备注">
          <Input.TextArea rows={2} maxLength={500} placeholder="例如：网络评审，每件作品 3 位评委" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
