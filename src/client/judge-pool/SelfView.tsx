/**
 * A judge's own record on /judgePool: the facts the admins keep, the computed history, what
 * the judge edits (title, categories, expertise tags, this year's availability with a note),
 * the declared conflicts (school, student, work), and a slot for 「我的邀请」.
 */
import { useEffect, useState, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Form, Input, Radio, Skeleton, Space, Typography } from "antd";
import { SaveOutlined } from "@ant-design/icons";
import type { JudgeSelfView } from "../../shared/judge-pool/schema";
import { ConflictsEditor } from "../judging/profile/conflicts";
import { fieldOf } from "../request";
import { poolApi, poolKeys, useSelf } from "./api";
import { CategorySelect, HistoryView, PersonFacts, TagSelect } from "./parts";

interface Values {
  title?: string;
  categoryIds: number[];
  tags: string[];
  available: "yes" | "no" | "unknown";
  availabilityNote?: string;
}

function SelfForm({ data }: { data: JudgeSelfView }) {
  const p = data.person;
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { message } = App.useApp();
  const qc = useQueryClient();
  useEffect(() => {
    form.setFieldsValue({
      title: p.title ?? undefined,
      categoryIds: p.categories.map((c) => c.id),
      tags: p.tags,
      available: p.available === null ? "unknown" : p.available ? "yes" : "no",
      availabilityNote: p.availabilityNote,
    });
  }, [p, form]);
  const save = async (v: Values) => {
    setBusy(true);
    setError(null);
    const r = await poolApi.saveSelf({
      title: v.title?.trim() || null,
      categoryIds: v.categoryIds ?? [],
      tags: v.tags ?? [],
      available: v.available === "unknown" ? null : v.available === "yes",
      availabilityNote: v.availabilityNote?.trim() ?? "",
    });
    setBusy(false);
    if (r.error !== 0 || !r.data) {
      const field = fieldOf(r);
      if (field) form.setFields([{ name: field as keyof Values, errors: [r.info] }]);
      else setError(r.info);
      return;
    }
    message.success(r.info);
    qc.setQueryData(poolKeys.self, r.data);
  };
  return (
    <Form<Values> form={form} layout="vertical" onFinish={save} data-testid="self-form" style={{ maxWidth: 720 }}>
      <Form.Item name="available" label={`${p.year}年参评意愿`}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          options={[
            { value: "yes", label: "可以参评" },
            { value: "no", label: "不能参评" },
            { value: "unknown", label: "暂不确定" },
          ]}
          data-testid="self-available"
        />
      </Form.Item>
      <Form.Item name="availabilityNote" label="说明" rules={[{ max: 200, message: "说明不超过 200 个字" }]}>
        <Input placeholder="例如：7 月中旬可参加现场评审；8 月出差" data-testid="self-note" />
      </Form.Item>
      <Form.Item name="categoryIds" label="可评审的类别" extra="选择大类表示该大类下的所有小类">
        <CategorySelect multiple placeholder="选择大类或小类" data-testid="self-categories" />
      </Form.Item>
      <Form.Item name="tags" label="专业特长">
        <TagSelect />
      </Form.Item>
      <Form.Item name="title" label="职称" rules={[{ max: 30, message: "不超过 30 个字" }]}>
        <Input placeholder="例如：教授、高级工程师" style={{ maxWidth: 300 }} />
      </Form.Item>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={busy} data-testid="self-save">
        保存
      </Button>
    </Form>
  );
}

export function SelfView({ title, invitations }: { title: string; invitations?: ReactNode }) {
  const q = useSelf();
  if (q.isLoading)
    return (
      <Card title={title}>
        <Skeleton active />
      </Card>
    );
  if (q.error || !q.data)
    return (
      <Card title={title}>
        <Alert type="error" showIcon message={q.error?.message ?? "加载失败"} />
      </Card>
    );
  const { person: p, history } = q.data;
  const contact = (
    <Space split="｜">
      <span>邮箱：{p.email ?? "—"}</span>
      <span>手机：{p.phone ?? "—"}</span>
    </Space>
  );
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="judge-self">
      <Card title={`${title}：我的评委信息`}>
        <PersonFacts p={p} contact={contact} />
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          姓名、学校和联系方式由管理员维护；如有变化请联系赛事管理员。
        </Typography.Paragraph>
      </Card>
      {invitations}
      <Card title="参评意愿与专业" size="small">
        <SelfForm data={q.data} />
      </Card>
      <Card title="申报回避" size="small">
        <ConflictsEditor />
      </Card>
      <Card title="我的评审经历" size="small">
        <HistoryView history={history} />
      </Card>
    </Space>
  );
}
