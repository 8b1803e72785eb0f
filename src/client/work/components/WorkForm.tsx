/**
 * The fields of a work (作品信息): name, 大类/小类, group, the long texts, two deployment
 * links and the AI-tool declaration. Locked fields are disabled with the lock's reason;
 * saving sends the work's current version; a stale one is refused with the newer version,
 * which the student reviews keeping the typing (./save-conflict.tsx).
 */
import { useMemo, useState } from "react";
import { Alert, Button, Col, Form, Input, Radio, Row, Select, Space, Tag, Typography } from "antd";
import { SaveOutlined } from "@ant-design/icons";
import type { LockableField } from "../../../shared/contest/lockable-fields";
import type { WorkUpdate, WorkView } from "../../../shared/work/schema";
import { FIELDS, GROUP_NAMES, type WorkField, type WorkGroupKey } from "../../../shared/work/fields";
import { useWorkTypeTree } from "../../work-type/use-tree";
import { useOpenContests, workApi } from "../api";
import { useWorkAction } from "../use-work-action";
import { AiDeclarationForm, toAiDeclaration } from "./AiDeclarationForm";
import { WorkFieldsView } from "./WorkFieldsView";
import { GroupHint, useGroupCheck } from "./GroupHint";
import { newerOf, useSaveConflict } from "./save-conflict";

const TEXTS = [
  { key: "summary", rows: 4, placeholder: "作品的用途、主要功能和特色" },
  { key: "designIdea", rows: 4, placeholder: "设计的出发点、总体方案和技术路线" },
  { key: "keyPoints", rows: 4, placeholder: "设计的重点，遇到的难点及解决办法" },
  { key: "openSource", rows: 3, placeholder: "使用的开源代码、组件、素材及其许可证；未使用请填写“无”" },
  { key: "installGuide", rows: 3, placeholder: "运行环境、安装和启动步骤、测试账号等" },
  { key: "otherNotes", rows: 2, placeholder: "需要向评审说明的其他情况" },
] as const satisfies readonly { key: WorkField; rows: number; placeholder: string }[];

type Values = Omit<WorkUpdate, "version" | "aiDeclaration" | "teacherReview"> & {
  aiDeclaration?: Parameters<typeof toAiDeclaration>[0];
};

/** The lock of a lockable field, if the work's contest has locked it now. */
export function lockOf(work: WorkView, key: LockableField) {
  return work.viewer.lockedFields.find((l) => l.field === key);
}
export const lockText = (l: { fieldName: string; stageName: string }) => `「${l.fieldName}」已于${l.stageName}阶段锁定，不能修改`;

const blank = (s: string | null | undefined) => (s && s.trim() ? s.trim() : null);

function initialValues(w: WorkView): Values {
  return {
    name: w.name,
    categoryId: w.category.id,
    subcategoryId: w.subcategory?.id ?? null,
    group: w.group,
    summary: w.summary ?? "",
    designIdea: w.designIdea ?? "",
    keyPoints: w.keyPoints ?? "",
    openSource: w.openSource ?? "",
    installGuide: w.installGuide ?? "",
    otherNotes: w.otherNotes ?? "",
    deployLink1: w.deployLink1 ?? "",
    deployLink2: w.deployLink2 ?? "",
    aiDeclaration: w.aiDeclaration
      ? { used: w.aiDeclaration.used, tools: w.aiDeclaration.tools }
      : { used: undefined, tools: [] },
  };
}

/** Disabled, and the reason under the field. */
function fieldState(work: WorkView, f: WorkField) {
  // In the national round the work keeps the 大类, 小类 and 组别 it was promoted with.
  if (work.viewer.nationalRound && (f === "categoryId" || f === "subcategoryId" || f === "group"))
    return {
      disabled: true,
      extra: <Typography.Text type="warning">国赛阶段按省赛推荐时的大类和组别参赛，不能修改</Typography.Text>,
    };
  const lock = lockOf(work, FIELDS[f].lock);
  return { disabled: !!lock, extra: lock ? <Typography.Text type="warning">{lockText(lock)}</Typography.Text> : undefined };
}

/** The field's label, with 提交时必填 when it is required at submission. */
const fieldLabel = (f: WorkField) => (
  <Space size={4}>
    {FIELDS[f].label}
    {FIELDS[f].requiredAtSubmit && (
      <Tag color="blue" bordered={false} style={{ fontSize: 11, lineHeight: "16px" }}>
        提交时必填
      </Tag>
    )}
  </Space>
);

/** The update sent for the form's values: trimmed, blanks as null, locked fields left out. */
function updateBody(work: WorkView, v: Values, professional: boolean): WorkUpdate {
  const body: WorkUpdate = {
    version: work.version,
    name: v.name?.trim(),
    categoryId: v.categoryId,
    subcategoryId: v.subcategoryId ?? null,
    group: professional ? v.group : "normal",
    summary: blank(v.summary),
    designIdea: blank(v.designIdea),
    keyPoints: blank(v.keyPoints),
    openSource: blank(v.openSource),
    installGuide: blank(v.installGuide),
    otherNotes: blank(v.otherNotes),
    deployLink1: blank(v.deployLink1),
    deployLink2: blank(v.deployLink2),
    aiDeclaration: toAiDeclaration(v.aiDeclaration),
  };
  // Locked fields are left out: they cannot change, and the server refuses changed ones.
  for (const f of Object.keys(FIELDS) as WorkField[])
    if (lockOf(work, FIELDS[f].lock)) delete (body as Partial<Record<WorkField, unknown>>)[f];
  return body;
}

export interface WorkFormProps {
  work: WorkView;
  onSaved: (view: WorkView) => void;
  /** reload the work after a stale-version refusal */
  reload: () => void;
}

/**
 * The 大类 and 小类 choices for the chosen 大类 `categoryId`: the 大类 of the work's contest while
 * registration is open (otherwise the work's own only), its current 小类 (an archived one the work
 * keeps), and whether it has a 专业组.
 */
function useCategoryChoices(work: WorkView, categoryId: number, editable: boolean) {
  const { tree } = useWorkTypeTree();
  const open = useOpenContests(editable);
  const contestCats = open.data?.find((c) => c.id === work.contest.id)?.categories;
  const categoryOptions = useMemo(
    () => (contestCats ?? [{ id: work.category.id, name: work.category.name }]).map((c) => ({ value: c.id, label: c.name })),
    [contestCats, work.category],
  );
  const node = tree.find((c) => c.id === categoryId);
  const subOptions = (node?.children ?? [])
    .filter((s) => !s.archived || s.id === work.subcategory?.id)
    .map((s) => ({ value: s.id, label: s.name }));
  if (work.subcategory && categoryId === work.category.id && !subOptions.some((o) => o.value === work.subcategory!.id))
    subOptions.push({ value: work.subcategory.id, label: work.subcategory.name });
  const professional =
    contestCats?.find((c) => c.id === categoryId)?.hasProfessionalGroup ??
    node?.hasProfessionalGroup ??
    work.rules.hasProfessionalGroup;
  return { categoryOptions, subOptions, professional };
}

/** A work the viewer may not edit: why, and its fields. */
function ReadOnlyWork({ work }: { work: WorkView }) {
  const first = work.viewer.relations.includes("first_author");
  return (
    <>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={first ? `作品当前状态为「${work.statusName}」，不能修改` : "作品信息由第一作者填写和修改"}
      />
      <WorkFieldsView work={work} />
    </>
  );
}

export function WorkForm({ work, onSaved, reload }: WorkFormProps) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const run = useWorkAction();
  const conflict = useSaveConflict();
  const editable = work.viewer.canEdit;
  const categoryId = Form.useWatch("categoryId", form) ?? work.category.id;
  const { categoryOptions, subOptions, professional } = useCategoryChoices(work, categoryId, editable);

  const group = Form.useWatch("group", form) as WorkGroupKey | undefined;
  const groupCheck = useGroupCheck(work, categoryId, professional ? group : "normal", editable && professional);

  const state = (f: WorkField) => fieldState(work, f);
  const label = fieldLabel;

  const save = async (v: Values) => {
    const body = updateBody(work, v, professional);
    setSaving(true);
    const sent = await workApi.update(work.id, body);
    setSaving(false);
    const newer = newerOf(sent);
    if (newer) {
      // Someone saved first: the newer version goes under the form, with the typing kept or dropped.
      return conflict({
        info: sent.info,
        base: initialValues(work),
        mine: v,
        theirs: initialValues(newer),
        label: (k) => FIELDS[k as WorkField].label,
        apply: (values) => {
          onSaved(newer);
          form.setFieldsValue(values);
        },
      });
    }
    const reply = await run(Promise.resolve(sent), { reload, form });
    if (reply.error === 0 && reply.data) {
      form.setFieldsValue(initialValues(reply.data));
      onSaved(reply.data);
    }
  };

  const cat = state("categoryId");
  if (!editable) return <ReadOnlyWork work={work} />;
  return (
    <Form<Values>
      form={form}
      layout="vertical"
      initialValues={initialValues(work)}
      onFinish={save}
      data-testid="work-form"
      scrollToFirstError
    >
      <Form.Item
        name="name"
        label={label("name")}
        rules={[
          { required: true, whitespace: true, message: "请填写作品名称" },
          { max: 100, message: "最多 100 个字" },
        ]}
        {...state("name")}
      >
        <Input data-testid="work-name" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={professional ? 8 : 12}>
          <Form.Item name="categoryId" label="作品大类" {...cat} rules={[{ required: true, message: "请选择作品大类" }]}>
            <Select options={categoryOptions} onChange={() => form.setFieldsValue({ subcategoryId: null, group: "normal" })} />
          </Form.Item>
        </Col>
        <Col xs={24} md={professional ? 8 : 12}>
          <Form.Item name="subcategoryId" label={label("subcategoryId")} {...state("subcategoryId")}>
            <Select
              options={subOptions}
              allowClear
              placeholder={subOptions.length ? "请选择作品小类" : "本大类不分小类"}
              data-testid="work-subcategory"
            />
          </Form.Item>
        </Col>
        {professional && (
          <Col xs={24} md={8}>
            <Form.Item
              name="group"
              label="组别"
              {...state("group")}
              extra={
                state("group").extra ?? <GroupHint check={groupCheck.data} onPick={(g) => form.setFieldsValue({ group: g })} />
              }
            >
              <Radio.Group
                options={(Object.keys(GROUP_NAMES) as WorkGroupKey[]).map((g) => ({ value: g, label: GROUP_NAMES[g] }))}
              />
            </Form.Item>
          </Col>
        )}
      </Row>
      {TEXTS.map((t) => (
        <Form.Item
          key={t.key}
          name={t.key}
          label={label(t.key)}
          rules={[{ max: 5000, message: "最多 5000 个字" }]}
          {...state(t.key)}
        >
          <Input.TextArea
            autoSize={{ minRows: t.rows, maxRows: 16 }}
            showCount
            maxLength={5000}
            placeholder={t.placeholder}
            data-testid={`work-${t.key}`}
          />
        </Form.Item>
      ))}
      <Row gutter={16}>
        {(["deployLink1", "deployLink2"] as const).map((k) => (
          <Col xs={24} md={12} key={k}>
            <Form.Item
              name={k}
              label={FIELDS[k].label}
              rules={[{ pattern: /^https?:\/\/\S+$/, message: "请填写以 http:// 或 https:// 开头的网址" }, { max: 500 }]}
              {...state(k)}
            >
              <Input placeholder="https://" />
            </Form.Item>
          </Col>
        ))}
      </Row>
      <AiDeclarationForm disabled={state("aiDeclaration").disabled} extra={state("aiDeclaration").extra} />
      <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving} data-testid="work-save">
        保存作品信息
      </Button>
    </Form>
  );
}
