/** A searchable school select over GET /Backend/Common/school/options. */
import { useEffect, useRef, useState } from "react";
import { Select, Spin } from "antd";
import type { SchoolOption } from "../../shared/account/schema";
import { accountApi } from "./api";

interface Props {
  value?: number;
  onChange?: (id: number) => void;
  id?: string;
  size?: "small" | "middle" | "large";
  allowClear?: boolean;
}

export function SchoolPicker({ value, onChange, id, size = "large", allowClear }: Props) {
  const [keyword, setKeyword] = useState("");
  const [options, setOptions] = useState<SchoolOption[]>([]);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);

  useEffect(() => {
    const mine = ++seq.current;
    setLoading(true);
    const timer = setTimeout(async () => {
      const reply = await accountApi.schoolOptions(keyword.trim());
      if (mine !== seq.current) return;
      setLoading(false);
      if (reply.error === 0 && reply.data) setOptions(reply.data);
    }, 300);
    return () => clearTimeout(timer);
  }, [keyword]);

  return (
    <Select<number>
      id={id}
      showSearch
      value={value}
      onChange={onChange}
      placeholder="输入学校名称搜索"
      filterOption={false}
      onSearch={setKeyword}
      notFoundContent={loading ? <Spin size="small" /> : "没有找到该学校"}
      options={options.map((s) => ({ value: s.id, label: `${s.name}（${s.province}）` }))}
      size={size}
      allowClear={allowClear}
    />
  );
}
