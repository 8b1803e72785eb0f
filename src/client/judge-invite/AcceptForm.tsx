/**
 * Accepting an invitation: the invitee confirms their school (or another employer), title,
 * expertise tags and the categories they can judge, and declares conflicts (schools, e.g. a
 * relative's; works by their 10-digit id; students they advise or are related to, whose works
 * are then avoided). Used on the link's page and
 * in 「我的邀请」; the server stores all of it in one transaction with the acceptance.
 */
import { useEffect, useRef, useState } from "react";
import { Alert, Button, Divider, Form, Input, Radio, Select, Space, Spin, Tag, TreeSelect, Typography } from "antd";
import { CheckOutlined } from "@ant-design/icons";
import type { SchoolOption } from "../../shared/account/schema";
import {
  MAX_CONFLICT_SCHOOLS,
  MAX_CONFLICT_STUDENTS,
  MAX_CONFLICT_WORKS,
  MAX_TAGS,
  TAG_MAX,
  type AcceptBody,
  type CategoryNode,
  type Prefill,
} from "../../shared/judge-invite/schema";
import { TAG_SUGGESTIONS } from "../../shared/judge-pool/schema";
import { accountApi } from "../account/api";
import { SchoolPicker } from "../account/SchoolPicker";
import { StudentPicker } from "../judging/profile/conflicts";

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

/** Students to avoid (advised students, relatives): a school, then a student of it by name; listed with their school. */
function StudentsField({
  value = [],
  onChange,
}: {
  value?: { id: number; label: string }[];
  onChange?: (v: { id: number; label: string }[]) => void;
}) {
  const [school, setSchool] = useState<number>();
  const [picked, setPicked] = useState<{ id: number; label: string }>();
  const add = () => {
    if (!picked || value.some((v) => v.id === picked.id)) return;
    onChange?.([...value, picked]);
    setPicked(undefined);
  };
  return (
    <Space direction="vertical" style={{ width: "100%" }} data-testid="accept-conflict-students">
      <Space wrap>
        <div style={{ width: 260 }}>
          <SchoolPicker
            size="middle"
            value={school}
            onChange={(v) => {
              setSchool(v ?? undefined);
              setPicked(undefined);
            }}
          />
        </div>
        <StudentPicker
          schoolId={school}
          value={picked?.id}
          onChange={(id, label) => setPicked({ id, label: label ?? String(id) })}
        />
        <Button onClick={add} disabled={!picked || value.length >= MAX_CONFLICT_STUDENTS}>
          添加
        </Button>
      </Space>
      {value.length > 0 && (
        <Space wrap>
          {value.map((v) => (
            <Tag key={v.id} closable onClose={() => onChange?.(value.filter((x) => x.id !== v.id))}>
              {v.label}
            </Tag>
          ))}
        </Space>
      )}
    </Space>
  );
}

/** Several schools from the school list, searched by name. */
function SchoolsPicker({ value, onChange, id }: { value?: number[]; onChange?: (v: number[]) => void; id?: string }) {
  const [keyword, setKeyword] = useState("");
  const [options, setOptions] = useState<SchoolOption[]>([]);
  const [known, setKnown] = useState<Map<number, string>>(new Map());
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    setLoading(true);
    const timer = setTimeout(async () => {
      const reply = await accountApi.schoolOptions(keyword.trim());
      if (mine !== seq.current) return;
      setLoading(false);
      if (reply.error === 0 && reply.data) {
        setOptions(reply.data);
        setKnown((k) => new Map([...k, ...reply.data!.map((s) => [s.id, `${s.name}（${s.province}）`] as const)]));
      }
    }, 300);
    return () => clearTimeout(timer);
  }, [keyword]);
  const shown = [
    ...new Map([
      ...(value ?? []).map((v) => [v, known.get(v) ?? String(v)] as const),
      ...options.map((s) => [s.id, `${s.name}（${s.province}）`] as const),
    ]),
  ];
  return (
    <Select<number[]>
      id={id}
      mode="multiple"
      showSearch
      value={value}
      onChange={onChange}
      placeholder="输入学校名称搜索，可多选"
      filterOption={false}
      onSearch={setKeyword}
      maxCount={MAX_CONFLICT_SCHOOLS}
      notFoundContent={loading ? <Spin size="small" /> : "没有找到该学校"}
      options={shown.map(([v, label]) => ({ value: v, label }))}
      data-testid="accept-conflict-schools"
    />
  );
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

      <Divider style={{ margin: "8px 0 16px" }} />
      <Typography.Title level={5}>申报回避</Typography.Title>
      <Typography.Paragraph type="secondary">
        本校作品和您指导的作品会自动回避。另有亲属任职或就读的学校、与您有关的作品，请在此申报；评审分配将不会把这些作品分给您。
      </Typography.Paragraph>
      <Form.Item name="conflictSchools" label="回避学校">
        <SchoolsPicker />
      </Form.Item>
      <Form.Item
        name="conflictWorks"
        label="回避作品（作品编号）"
        rules={[
          {
            validator: (_r, v?: string[]) =>
              (v ?? []).every((x) => /^\d{10}$/.test(String(x).trim()))
                ? Promise.resolve()
                : Promise.reject(new Error("作品编号为 10 位数字")),
          },
        ]}
      >
        <Select
          mode="tags"
          placeholder="输入 10 位作品编号后回车"
          maxCount={MAX_CONFLICT_WORKS}
          open={false}
          tokenSeparators={[",", "，", " "]}
          data-testid="accept-conflict-works"
        />
      </Form.Item>
      <Form.Item name="conflictStudents" label="回避学生（指导的学生、亲属等：其参赛作品均回避）">
        <StudentsField />
      </Form.Item>
      <Form.Item name="note" label="回避说明" rules={[{ max: 200, message: "不超过 200 字" }]}>
        <Input placeholder="如：亲属在该校任教" data-testid="accept-conflict-note" />
      </Form.Item>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="accept-error" />}
      <Space>
        <Button type="primary" htmlType="submit" icon={<CheckOutlined />} loading={sending} data-testid="accept-submit">
          确认并接受邀请
        </Button>
      </Space>
    </Form>
  );
}
