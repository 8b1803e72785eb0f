/**
 * The conflict declaration part of the accept form (AcceptForm.tsx): schools to avoid (several,
 * searched by name), works by their 10-digit id, and students (advised students, relatives)
 * whose works are then avoided, with a note. Rendered inside the accept form's Form.
 */
import { useEffect, useRef, useState } from "react";
import { Button, Divider, Form, Input, Select, Space, Spin, Tag, Typography } from "antd";
import type { SchoolOption } from "../../shared/account/schema";
import { MAX_CONFLICT_SCHOOLS, MAX_CONFLICT_STUDENTS, MAX_CONFLICT_WORKS } from "../../shared/judge-invite/schema";
import { accountApi } from "../account/api";
import { SchoolPicker } from "../account/SchoolPicker";
import { StudentPicker } from "../judging/profile/conflicts";

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
    const search = async () => {
      const reply = await accountApi.schoolOptions(keyword.trim());
      if (mine !== seq.current) return;
      setLoading(false);
      if (reply.error === 0 && reply.data) {
        setOptions(reply.data);
        setKnown((k) => new Map([...k, ...reply.data!.map((s) => [s.id, `${s.name}（${s.province}）`] as const)]));
      }
    };
    const timer = setTimeout(() => void search(), 300);
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

/** 申报回避: the conflict fields of the accept form. */
export function ConflictFields() {
  return (
    <>
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
    </>
  );
}
