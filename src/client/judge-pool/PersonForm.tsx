/**
 * Create or edit a pool person (drawer form). The school is one of the list or free text (a
 * company, a school outside the list); contacts are editable only when the caller sees them.
 */
import { useEffect, useState } from "react";
import { Alert, App, Button, Drawer, Form, Input, Radio, Select, Space } from "antd";
import type { JudgePersonCreate, JudgePersonView } from "../../shared/judge-pool/schema";
import { SchoolPicker } from "../account/SchoolPicker";
import { PROVINCES } from "../../shared/provinces";
import { fieldOf } from "../request";
import { poolApi } from "./api";
import { CategorySelect, TagSelect } from "./parts";

interface Values {
  name: string;
  schoolKind: "listed" | "other";
  schoolId?: number;
  schoolName?: string;
  province?: string;
  title?: string;
  email?: string;
  phone?: string;
  categoryIds?: number[];
  tags?: string[];
  available: "yes" | "no" | "unknown";
  availabilityNote?: string;
  note?: string;
}

const toValues = (p: JudgePersonView | null): Partial<Values> =>
  p
    ? {
        name: p.name,
        schoolKind: p.school || !p.schoolName ? "listed" : "other",
        schoolId: p.school?.id,
        schoolName: p.school ? undefined : (p.schoolName ?? undefined),
        province: p.province ?? undefined,
        title: p.title ?? undefined,
        email: p.email ?? undefined,
        phone: p.phone ?? undefined,
        categoryIds: p.categories.map((c) => c.id),
        tags: p.tags,
        available: p.available === null ? "unknown" : p.available ? "yes" : "no",
        availabilityNote: p.availabilityNote,
        note: p.note,
      }
    : { schoolKind: "listed", available: "unknown", categoryIds: [], tags: [] };

/** The request body of the form's values (contacts only when the caller may edit them). */
const toBody = (v: Values, contactEditable: boolean): JudgePersonCreate => ({
  name: v.name.trim(),
  ...(v.schoolKind === "listed"
    ? { schoolId: v.schoolId ?? null, schoolName: null }
    : { schoolId: null, schoolName: v.schoolName?.trim() || null }),
  province: v.province ?? null,
  title: v.title?.trim() || null,
  ...(contactEditable ? { email: v.email?.trim() || null, phone: v.phone?.trim() || null } : {}),
  categoryIds: v.categoryIds ?? [],
  tags: v.tags ?? [],
  available: v.available === "unknown" ? null : v.available === "yes",
  availabilityNote: v.availabilityNote?.trim() ?? "",
  note: v.note?.trim() ?? "",
});

export function PersonForm({
  open,
  person,
  onClose,
  onSaved,
}: {
  open: boolean;
  person: JudgePersonView | null;
  onClose: () => void;
  onSaved: (p: JudgePersonView) => void;
}) {
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { message } = App.useApp();
  const kind = Form.useWatch("schoolKind", form);
  const contactEditable = !person || person.contactVisible;

  useEffect(() => {
    if (open) {
      form.resetFields();
      form.setFieldsValue(toValues(person) as Values);
      setError(null);
    }
  }, [open, person, form]);

  const save = async (v: Values) => {
    setBusy(true);
    setError(null);
    const body = toBody(v, contactEditable);
    const r = person ? await poolApi.update(person.id, body) : await poolApi.create(body);
    setBusy(false);
    if (r.error !== 0 || !r.data) {
      const field = fieldOf(r);
      if (field && field in body) form.setFields([{ name: field as keyof Values, errors: [r.info] }]);
      else setError(r.info);
      return;
    }
    message.success(r.info);
    onSaved(r.data);
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={620}
      title={person ? `编辑评委：${person.name}` : "新建评委"}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={busy} onClick={() => form.submit()} data-testid="person-save">
            保存
          </Button>
        </Space>
      }
    >
      <Form<Values> form={form} layout="vertical" onFinish={save} data-testid="person-form">
        <Form.Item
          name="name"
          label="姓名"
          rules={[
            { required: true, whitespace: true, message: "请填写姓名" },
            { max: 40, message: "姓名不超过 40 个字" },
          ]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="schoolKind" label="学校/单位">
          <Radio.Group
            options={[
              { value: "listed", label: "学校名录中的学校" },
              { value: "other", label: "其他单位" },
            ]}
          />
        </Form.Item>
        {kind === "other" ? (
          <Form.Item name="schoolName" rules={[{ max: 60, message: "不超过 60 个字" }]}>
            <Input placeholder="单位名称，例如：某科技有限公司" />
          </Form.Item>
        ) : (
          <Form.Item name="schoolId">
            <SchoolPicker />
          </Form.Item>
        )}
        <Space style={{ width: "100%" }} align="start">
          <Form.Item name="province" label="省份" extra="选择学校时默认为学校所在省份" style={{ width: 200 }}>
            <Select allowClear showSearch options={PROVINCES.map((p) => ({ value: p, label: p }))} />
          </Form.Item>
          <Form.Item name="title" label="职称" rules={[{ max: 30, message: "不超过 30 个字" }]} style={{ width: 200 }}>
            <Input placeholder="例如：教授、高级工程师" />
          </Form.Item>
        </Space>
        {!contactEditable && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            message="该评委不是您赛事的评委，也不是您邀请或录入的，不能查看或修改其联系方式"
          />
        )}
        <Space style={{ width: "100%" }} align="start">
          <Form.Item
            name="email"
            label="邮箱"
            rules={[{ type: "email", message: "邮箱格式不正确" }, { max: 120 }]}
            style={{ width: 280 }}
          >
            <Input disabled={!contactEditable} />
          </Form.Item>
          <Form.Item name="phone" label="手机" rules={[{ max: 30 }]} style={{ width: 200 }}>
            <Input disabled={!contactEditable} />
          </Form.Item>
        </Space>
        <Form.Item name="categoryIds" label="可评审的类别" extra="选择大类表示该大类下所有小类">
          <CategorySelect multiple placeholder="选择大类或小类" />
        </Form.Item>
        <Form.Item name="tags" label="专业特长">
          <TagSelect known />
        </Form.Item>
        <Form.Item name="available" label="本年度参评意愿">
          <Radio.Group
            options={[
              { value: "yes", label: "可参评" },
              { value: "no", label: "不可参评" },
              { value: "unknown", label: "未填写" },
            ]}
          />
        </Form.Item>
        <Form.Item name="availabilityNote" label="参评说明" rules={[{ max: 200 }]}>
          <Input placeholder="例如：7 月中旬可参加现场评审" />
        </Form.Item>
        <Form.Item name="note" label="备注" rules={[{ max: 200 }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
        {error && <Alert type="error" showIcon message={error} />}
      </Form>
    </Drawer>
  );
}
