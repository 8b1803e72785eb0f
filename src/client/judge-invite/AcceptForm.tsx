/**
 * Accepting an invitation: the invitee confirms their school (or another employer), title,
 * expertise tags and the categories they can judge, and declares conflicts (schools, e.g. a
 * relative's; works by their 10-digit id; students they advise or are related to, whose works
 * are then avoided). Used on the link's page and
 * in 「我的邀请」; the server stores all of it in one transaction with the acceptance.
 * The conflict declaration fields are in ConflictFields.tsx.
 */
import { useState } from "react";
import { Alert, Button, Form, Input, Radio, Select, Space, TreeSelect, Typography } from "antd";
import { CheckOutlined } from "@ant-design/icons";
import { MAX_TAGS, TAG_MAX, type AcceptBody, type CategoryNode, type Prefill } from "../../shared/judge-invite/schema";
import { TAG_SUGGESTIONS } from "../../shared/judge-pool/schema";
import { SchoolPicker } from "../account/SchoolPicker";
import { ConflictFields } from "./ConflictFields";

interface Values {
  where: "school" | "other";
  schoolId?: number;
  schoolName?: string;
  title?: string;
  tags: string[];
  categoryIds: number[];
  conflictSchools: number[];
  conflictWorks: string[];
  conflictStudents: { id: number; label: string }[];
  note?: string;
}

export function AcceptForm({
  prefill,
  categories,
  invited,
  onSubmit,
}: {
  prefill: Prefill | null;
  categories: CategoryNode[];
  invited: number[];
  onSubmit: (body: AcceptBody) => Promise<{ error: number; info: string }>;
}) {
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const where = Form.useWatch("where", form) ?? "school";

  const initial: Values = {
    where: prefill?.school || !prefill?.schoolName ? "school" : "other",
    schoolId: prefill?.school?.id,
    schoolName: prefill?.schoolName ?? undefined,
    title: prefill?.title ?? undefined,
    tags: prefill?.tags ?? [],
    categoryIds: prefill?.categoryIds.length ? prefill.categoryIds : invited,
    conflictSchools: [],
    conflictWorks: [],
    conflictStudents: [],
  };

  const onFinish = async (v: Values) => {
    setError(undefined);
    setSending(true);
    const reply = await onSubmit({
      schoolId: v.where === "school" ? (v.schoolId ?? null) : null,
      schoolName: v.where === "other" ? v.schoolName?.trim() || null : null,
      title: v.title?.trim() || null,
      tags: v.tags.map((t) => t.trim()).filter(Boolean),
      categoryIds: v.categoryIds,
      conflicts: {
        schoolIds: v.conflictSchools,
        workIds: v.conflictWorks.map(Number),
        studentIds: v.conflictStudents.map((x) => x.id),
        ...(v.note?.trim() ? { note: v.note.trim() } : {}),
      },
    });
    setSending(false);
    if (reply.error !== 0) setError(reply.info || "提交失败，请稍后重试");
  };

  const treeData = categories.map((c) => ({
    value: c.id,
    title: c.name,
    children: c.children.map((s) => ({ value: s.id, title: s.name })),
  }));

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={initial}
      onFinish={onFinish}
      requiredMark="optional"
      data-testid="accept-form"
    >
      <Typography.Title level={5}>确认个人信息</Typography.Title>
      <Form.Item name="where" label="工作单位" rules={[{ required: true }]}>
        <Radio.Group optionType="button">
          <Radio value="school">学校</Radio>
          <Radio value="other">其他单位（企业、研究机构等）</Radio>
        </Radio.Group>
      </Form.Item>
      {where === "school" ? (
        <Form.Item name="schoolId" label="学校" rules={[{ required: true, message: "请选择学校" }]} extra="评审时将回避本校作品">
          <SchoolPicker />
        </Form.Item>
      ) : (
        <Form.Item
          name="schoolName"
          label="单位名称"
          rules={[
            { required: true, whitespace: true, message: "请填写单位名称" },
            { max: 100, message: "单位名称过长" },
          ]}
        >
          <Input data-testid="accept-school-name" />
        </Form.Item>
      )}
      <Form.Item name="title" label="职称" rules={[{ max: 30, message: "职称过长" }]}>
        <Input placeholder="如：教授、高级工程师" data-testid="accept-title" />
      </Form.Item>
      <Form.Item
        name="tags"
        label="专业特长"
        rules={[
          { type: "array", max: MAX_TAGS, message: `最多 ${MAX_TAGS} 项` },
          {
            validator: (_r, v?: string[]) =>
              (v ?? []).some((t) => t.length > TAG_MAX)
                ? Promise.reject(new Error(`每项不超过 ${TAG_MAX} 个字`))
                : Promise.resolve(),
          },
        ]}
      >
        <Select
          mode="tags"
          placeholder="选择或输入后回车"
          options={TAG_SUGGESTIONS.map((t) => ({ value: t, label: t }))}
          data-testid="accept-tags"
        />
      </Form.Item>
      <Form.Item
        name="categoryIds"
        label="可评审的作品类别"
        rules={[{ required: true, type: "array", min: 1, message: "请至少选择一个类别" }]}
      >
        <TreeSelect
          treeData={treeData}
          multiple
          treeCheckable
          showCheckedStrategy={TreeSelect.SHOW_PARENT}
          placeholder="选择大类或小类"
          treeDefaultExpandAll={false}
          data-testid="accept-categories"
        />
      </Form.Item>

      <ConflictFields />
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="accept-error" />}
      <Space>
        <Button type="primary" htmlType="submit" icon={<CheckOutlined />} loading={sending} data-testid="accept-submit">
          确认并接受邀请
        </Button>
      </Space>
    </Form>
  );
}
