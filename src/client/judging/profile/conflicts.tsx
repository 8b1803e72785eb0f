/**
 * The judge's declared conflicts (申报回避), shared by /judge/Info and the judge's view of
 * /judgePool: listed, added (a work by its 10-digit id, a school, or a student of a school —
 * every work the student authors is then avoided), withdrawn. GET/POST/DELETE
 * /Backend/Judging/conflicts; students are found through /Backend/JudgePool/self/students.
 */
import { useEffect, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Form, Input, Popconfirm, Radio, Select, Space, Spin, Table, Tag, Typography } from "antd";
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import type { DeclaredConflictView } from "../../../shared/judging/schema";
import type { StudentOption } from "../../../shared/judge-pool/schema";
import { SchoolPicker } from "../../account/SchoolPicker";
import { fieldOf, get, request } from "../../request";
import { fetchData } from "../../request";
import { timeText } from "../defence/api";

const C = "/Backend/Judging/conflicts";
export const conflictKey = ["judge", "conflicts"] as const;

interface ConflictValues {
  target: "work" | "school" | "student";
  workId?: string;
  schoolId?: number;
  studentSchoolId?: number;
  userId?: number;
  note?: string;
}

/** Students of the chosen school by name (the server returns at most 20). */
export function StudentPicker({
  schoolId,
  value,
  onChange,
}: {
  schoolId?: number;
  value?: number;
  onChange?: (id: number, label?: string) => void;
}) {
  const [keyword, setKeyword] = useState("");
  const [options, setOptions] = useState<StudentOption[]>([]);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    if (!schoolId || !keyword.trim()) {
      setOptions([]);
      return;
    }
    setLoading(true);
    const timer = setTimeout(
      () =>
        void (async () => {
          const r = await get<StudentOption[]>(
            "/Backend/JudgePool/self/students",
            { schoolId, keyword: keyword.trim() },
            { silent: true },
          );
          if (mine !== seq.current) return;
          setLoading(false);
          setOptions(r.error === 0 && r.data ? r.data : []);
        })(),
      300,
    );
    return () => clearTimeout(timer);
  }, [keyword, schoolId]);
  return (
    <Select<number>
      showSearch
      value={value}
      onChange={(v, o) => onChange?.(v, (o as { label?: string } | undefined)?.label)}
      disabled={!schoolId}
      placeholder={schoolId ? "输入学生全名或学号" : "请先选择学校"}
      filterOption={false}
      onSearch={setKeyword}
      notFoundContent={loading ? <Spin size="small" /> : keyword ? "没有找到该学生" : "输入姓名"}
      options={options.map((s) => ({
        value: s.id,
        label: `${s.name}（${s.school}）`,
      }))}
      style={{ width: 240 }}
      data-testid="conflict-student"
    />
  );
}

export function ConflictsEditor() {
  const q = useQuery({ queryKey: conflictKey, queryFn: () => fetchData<DeclaredConflictView[]>(C) });
  const [form] = Form.useForm<ConflictValues>();
  const target = Form.useWatch("target", form) ?? "work";
  const studentSchool = Form.useWatch("studentSchoolId", form);
  const [busy, setBusy] = useState(false);
  const { message } = App.useApp();
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: conflictKey });

  const add = async (v: ConflictValues) => {
    setBusy(true);
    const note = v.note?.trim() || undefined;
    const body =
      v.target === "work"
        ? { workId: Number(v.workId), note }
        : v.target === "school"
          ? { schoolId: v.schoolId, note }
          : { userId: v.userId, note };
    const r = await request<DeclaredConflictView>(C, { method: "POST", data: body, notify: false });
    setBusy(false);
    if (r.error !== 0) {
      const field = fieldOf(r);
      if (field === "workId" || field === "schoolId" || field === "userId" || field === "note")
        form.setFields([{ name: field, errors: [r.info] }]);
      else message.error(r.info);
      return;
    }
    message.success(r.info);
    form.resetFields(["workId", "schoolId", "userId", "note"]);
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
      <Typography.Text type="secondary">
        本校的作品系统会自动回避；如与其他作品、学校或学生有利害关系（曾指导的学生、亲属所在学校、原工作单位等），请在此申报，系统不会再把这些作品分配给您。申报学生后，该学生参与的所有作品都会回避。
      </Typography.Text>
      <Form<ConflictValues>
        form={form}
        layout="inline"
        onFinish={add}
        initialValues={{ target: "work" }}
        data-testid="conflict-form"
        style={{ rowGap: 8 }}
      >
        <Form.Item name="target">
          <Radio.Group
            optionType="button"
            options={[
              { label: "作品", value: "work" },
              { label: "学校", value: "school" },
              { label: "学生", value: "student" },
            ]}
          />
        </Form.Item>
        {target === "work" && (
          <Form.Item
            name="workId"
            rules={[
              { required: true, message: "请填写作品编号" },
              { pattern: /^\d{10}$/, message: "作品编号为 10 位数字" },
            ]}
          >
            <Input placeholder="作品编号（10 位）" style={{ width: 180 }} data-testid="conflict-work" />
          </Form.Item>
        )}
        {target === "school" && (
          <Form.Item name="schoolId" rules={[{ required: true, message: "请选择学校" }]} style={{ minWidth: 240 }}>
            <SchoolPicker />
          </Form.Item>
        )}
        {target === "student" && (
          <>
            <Form.Item
              name="studentSchoolId"
              rules={[{ required: true, message: "请选择学生所在学校" }]}
              style={{ minWidth: 240 }}
              data-testid="conflict-student-school"
            >
              <SchoolPicker />
            </Form.Item>
            <Form.Item name="userId" rules={[{ required: true, message: "请选择学生" }]}>
              <StudentPicker schoolId={studentSchool} />
            </Form.Item>
          </>
        )}
        <Form.Item name="note" rules={[{ max: 200, message: "说明不能超过 200 个字" }]}>
          <Input placeholder="说明（选填），例如：曾指导该学生" style={{ width: 260 }} data-testid="conflict-note" />
        </Form.Item>
        <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={busy} data-testid="conflict-add">
          申报回避
        </Button>
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
          {
            title: "回避对象",
            render: (_, c) =>
              c.work ? (
                <span>
                  <Tag>作品</Tag>
                  {c.work.id} {c.work.name}
                </span>
              ) : c.student ? (
                <span>
                  <Tag color="orange">学生</Tag>
                  {c.student.name}
                  {c.student.school ? `（${c.student.school}）` : ""}
                </span>
              ) : (
                <span>
                  <Tag color="purple">学校</Tag>
                  {c.school?.name}
                </span>
              ),
          },
          { title: "说明", dataIndex: "note", render: (n: string) => n || "—" },
          { title: "申报人", render: (_, c) => c.createdBy?.name ?? "—", width: 100 },
          { title: "申报时间", dataIndex: "createdAt", render: (t: string) => timeText(t), width: 180 },
          {
            title: "操作",
            width: 90,
            render: (_, c) => (
              <Popconfirm title="撤销这条回避申报？" okText="撤销" cancelText="取消" onConfirm={() => remove(c.id)}>
                <Button size="small" danger icon={<DeleteOutlined />}>
                  撤销
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Space>
  );
}
