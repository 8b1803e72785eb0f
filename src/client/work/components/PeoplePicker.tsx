/**
 * Finding a co-author or teacher: an antd Select searching the work's school on the server
 * (name, 学号/工号 or username) as one types, each option showing name, number and major.
 * The value is the username (what the team endpoints take). Single (the team editor) or
 * multiple (a new work, where the school is the caller's own).
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { Select, Space, Typography } from "antd";
import type { PeopleRole, PersonHit } from "../../../shared/work/people";
import { searchPeople } from "../api";

const DEBOUNCE_MS = 250;

export const personLabel = (p: Pick<PersonHit, "name" | "memberNo" | "username">) => `${p.name}（${p.memberNo ?? p.username}）`;

interface Props {
  role: PeopleRole;
  workId?: number;
  value?: string | string[] | null;
  onChange?: (value: any) => void;
  multiple?: boolean;
  maxCount?: number;
  placeholder?: string;
  testId?: string;
  style?: React.CSSProperties;
}

export function PeoplePicker({ role, workId, value, onChange, multiple, maxCount, placeholder, testId, style }: Props) {
  const [hits, setHits] = useState<PersonHit[]>([]);
  const [chosen, setChosen] = useState<Map<string, PersonHit>>(new Map());
  const [loading, setLoading] = useState(false);
  const [note, setNote] = useState<string>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const seq = useRef(0);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onSearch = (text: string) => {
    clearTimeout(timer.current);
    const q = text.trim();
    if (!q) {
      setHits([]);
      setNote(undefined);
      return;
    }
    timer.current = setTimeout(
      () =>
        void (async () => {
          const mine = ++seq.current;
          setLoading(true);
          try {
            const r = await searchPeople(role, q.slice(0, 64), workId);
            if (mine !== seq.current) return;
            setHits(r.items);
            setNote(
              r.items.length
                ? r.more
                  ? "符合条件的人较多，只显示前 20 位；请输入更完整的姓名或学号/工号"
                  : undefined
                : `${r.schoolName}没有符合条件的${role === "author" ? "学生" : "教师"}`,
            );
          } catch (e) {
            if (mine === seq.current) {
              setHits([]);
              setNote((e as Error).message);
            }
          } finally {
            if (mine === seq.current) setLoading(false);
          }
        })(),
      DEBOUNCE_MS,
    );
  };

  const options = useMemo(() => {
    const all = new Map<string, PersonHit>(chosen);
    for (const h of hits) all.set(h.username, h);
    const shown = hits.length ? hits : [...chosen.values()];
    return shown.map((h) => ({
      value: h.username,
      disabled: h.onTeam,
      label: personLabel(h),
      hit: h,
    }));
  }, [hits, chosen]);

  const remember = (v: string | string[] | undefined) => {
    const keys = v === undefined ? [] : Array.isArray(v) ? v : [v];
    setChosen((prev) => {
      const next = new Map<string, PersonHit>();
      for (const k of keys) {
        const h = hits.find((x) => x.username === k) ?? prev.get(k);
        if (h) next.set(k, h);
      }
      return next;
    });
  };

  return (
    <Select
      showSearch
      allowClear
      mode={multiple ? "multiple" : undefined}
      maxCount={maxCount}
      value={value ?? (multiple ? [] : undefined)}
      onChange={(v) => {
        remember(v);
        onChange?.(v);
      }}
      filterOption={false}
      onSearch={onSearch}
      loading={loading}
      placeholder={placeholder ?? (role === "author" ? "输入同校同学的姓名、学号或用户名" : "输入本校教师的姓名、工号或用户名")}
      notFoundContent={loading ? "正在查找…" : (note ?? "输入姓名、学号/工号或用户名查找")}
      options={options}
      optionRender={(o) => {
        const h = (o.data as { hit: PersonHit }).hit;
        return (
          <Space size={8} wrap data-testid="people-option">
            <Typography.Text strong>{h.name}</Typography.Text>
            <Typography.Text type="secondary">
              {role === "author" ? "学号" : "工号"} {h.memberNo ?? "未填写"}
            </Typography.Text>
            {h.majorName && <Typography.Text type="secondary">{h.majorName}</Typography.Text>}
            <Typography.Text type="secondary">@{h.username}</Typography.Text>
            {h.onTeam && <Typography.Text type="warning">已在团队中</Typography.Text>}
          </Space>
        );
      }}
      popupMatchSelectWidth={480}
      style={style ?? { width: "100%" }}
      data-testid={testId}
    />
  );
}
