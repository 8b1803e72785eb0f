/**
 * /judge/Info: the judge's profile — name, account, school and province (kept by the
 * admins; they decide the own-school avoidance), the contests and groups the judge is in,
 * the expertise the judge edits, and the declared conflicts (申报回避) with a work or a
 * school: listed, added, withdrawn (GET/POST/DELETE /Backend/Judging/conflicts).
 */
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Descriptions, Form, Input, Popconfirm, Radio, Skeleton, Space, Table, Tag, Typography } from "antd";
import { DeleteOutlined, PlusOutlined, SaveOutlined } from "@ant-design/icons";
import type { DeclaredConflictView } from "../../shared/judging/schema";
import { SchoolPicker } from "../account/SchoolPicker";
import { fieldOf, request } from "../request";
import type { PageProps } from "../routing/model";
import { fetchData } from "../work/api";
import { defenceApi, defenceKeys, timeText, useJudgeProfile } from "../defence/api";

const C = "/Backend/Judging/conflicts";
const conflictKey = ["judge", "conflicts"] as const;

function Expertise({ value }: { value: string | null }) {
  const [text, setText] = useState(value ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { message } = App.useApp();
  const qc = useQueryClient();
  const save = async () => {
    setBusy(true);
    setError(null);
    const r = await defenceApi.saveProfile({ expertise: text.trim() || null });
    setBusy(false);
    if (r.error !== 0) return setError(r.info);
    message.success(r.info);
    qc.setQueryData(defenceKeys.profile, r.data);
  };
  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      <Input.TextArea rows={3} maxLength={500} showCount value={text} onChange={(e) => setText(e.target.value)} placeholder="例如：大数据分析、机器学习、Web 系统架构" data-testid="expertise" />
      {error && <Alert type="error" showIcon message={error} />}
      <Button type="primary" icon={<SaveOutlined />} loading={busy} disabled={(value ?? "") === text.trim()} onClick={save} data-testid="expertise-save">保存专业特长</Button>
    </Space>
  );
}

interface ConflictValues {
  target: "work" | "school";
  workId?: string;
  schoolId?: number;
  note?: string;
}

function Conflicts() {
  const q = useQuery({ queryKey: conflictKey, queryFn: () => fetchData<DeclaredConflictView[]>(C) });
  const [form] = Form.useForm<ConflictValues>();
  const target = Form.useWatch("target", form) ?? "work";
  const [busy, setBusy] = useState(false);
  const { message } = App.useApp();
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: conflictKey });

  const add = async (v: ConflictValues) => {
    setBusy(true);
    const body = v.target === "work" ? { workId: Number(v.workId), note: v.note?.trim() || undefined } : { schoolId: v.schoolId, note: v.note?.trim() || undefined };
    const r = await request<DeclaredConflictView>(C, { method: "POST", data: body, notify: false });
    setBusy(false);
    if (r.error !== 0) {
      const field = fieldOf(r);
      if (field === "workId" || field === "schoolId" || field === "note") form.setFields([{ name: field, errors: [r.info] }]);
      else message.error(r.info);
      return;
    }
    message.success(r.info);
    form.resetFields(["workId", "schoolId", "note"]);
    await refresh();
  };
  const remove = async (id: number) => {
    const r = await request(`${C}/${id}`, { method: "DELETE", notify: false });
    if (r.error !== 0) return void message.error(r.info);
    message.success(r.info);
    await refresh();
  };

  return (
    <Space direction="vertical" style={{ width: "100%" }} size={12}>
      <Typography.Text type="secondary">本校的作品系统会自动回避；如与其他作品或学校有利害关系（曾指导、亲属、原工作单位等），请在此申报，系统不会再把这些作品分配给您。</Typography.Text>
      <Form<ConflictValues> form={form} layout="inline" onFinish={add} initialValues={{ target: "work" }} data-testid="conflict-form">
        <Form.Item name="target">
          <Radio.Group optionType="button" options={[{ label: "作品", value: "work" }, { label: "学校", value: "school" }]} />
        </Form.Item>
        {target === "work" ? (
          <Form.Item name="workId" rules={[{ required: true, message: "请填写作品编号" }, { pattern: /^\d{10}$/, message: "作品编号为 10 位数字" }]}>
            <Input placeholder="作品编号（10 位）" style={{ width: 180 }} data-testid="conflict-work" />
          </Form.Item>
        ) : (
          <Form.Item name="schoolId" rules={[{ required: true, message: "请选择学校" }]} style={{ minWidth: 240 }}>
            <SchoolPicker />
          </Form.Item>
        )}
        <Form.Item name="note" rules={[{ max: 200, message: "说明不能超过 200 个字" }]}>
          <Input placeholder="说明（选填），例如：曾指导该团队" style={{ width: 260 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={busy} data-testid="conflict-add">申报回避</Button>
      </Form>
      {q.error && <Alert type="error" showIcon message={q.error.message} />}
      <Table<DeclaredConflictView>
        size="small"
        rowKey="id"
        loading={q.isLoading}
        pagination={false}
        dataSource={q.data ?? []}
        locale={{ emptyText: "尚未申报回避" }}
        data-testid="conflicts"
        columns={[
          { title: "回避对象", render: (_, c) => (c.work ? <span><Tag>作品</Tag>{c.work.id} {c.work.name}</span> : <span><Tag color="purple">学校</Tag>{c.school?.name}</span>) },
          { title: "说明", dataIndex: "note", render: (n: string) => n || "—" },
          { title: "申报人", render: (_, c) => c.createdBy?.name ?? "—", width: 100 },
          { title: "申报时间", dataIndex: "createdAt", render: (t: string) => timeText(t), width: 180 },
          {
            title: "操作",
            width: 90,
            render: (_, c) => (
              <Popconfirm title="撤销这条回避申报？" okText="撤销" cancelText="取消" onConfirm={() => remove(c.id)}>
                <Button size="small" danger icon={<DeleteOutlined />}>撤销</Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Space>
  );
}

export default function JudgeInfo({ route }: PageProps) {
  const q = useJudgeProfile();
  if (q.isLoading) return <Card title={route.label}><Skeleton active /></Card>;
  if (q.error || !q.data) return <Card title={route.label}><Alert type="error" showIcon message={q.error?.message ?? "加载失败"} /></Card>;
  const p = q.data;
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="judge-info">
      <Card title={route.label}>
        <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label="姓名">{p.name}</Descriptions.Item>
          <Descriptions.Item label="账号">{p.username}</Descriptions.Item>
          <Descriptions.Item label="所在学校">{p.school?.name ?? "无（行业专家）"}</Descriptions.Item>
          <Descriptions.Item label="所在省份">{p.province ?? "—"}</Descriptions.Item>
          <Descriptions.Item label="邮箱">{p.email ?? "—"}</Descriptions.Item>
          <Descriptions.Item label="手机">{p.phone ?? "—"}</Descriptions.Item>
          <Descriptions.Item label="参加评审" span={2}>
            {p.contests.length ? (
              <Space direction="vertical" size={2}>
                {p.contests.map((c) => <span key={c.id}>{c.name}{c.groups.length ? `：${c.groups.join("、")}` : "（未分组）"}</span>)}
              </Space>
            ) : "暂无"}
          </Descriptions.Item>
        </Descriptions>
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>学校、姓名和联系方式由管理员维护；邮箱和密码可在“账号安全”中修改。</Typography.Paragraph>
      </Card>
      <Card title="专业特长" size="small">
        <Expertise value={p.expertise} />
      </Card>
      <Card title="申报回避" size="small">
        <Conflicts />
      </Card>
    </Space>
  );
}
