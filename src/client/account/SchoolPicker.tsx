/** A searchable school select over GET /Backend/Common/school/options (a form field, or a clearable list filter). */
import { useEffect, useRef, useState, type CSSProperties } from "react";
import { Select, Spin } from "antd";
import type { SchoolOption } from "../../shared/account/schema";
import { accountApi } from "./api";

interface Props {
  value?: number;
  /** undefined when a filter is cleared */
  onChange?: (id: number | undefined) => void;
  id?: string;
  size?: "small" | "middle" | "large";
  allowClear?: boolean;
  placeholder?: string;
  style?: CSSProperties;
  testId?: string;
  /** The accessible name where no <label> points at the field (a filter bar). */
  "aria-label"?: string;
}

export function SchoolPicker({
  value,
  onChange,
  id,
  size = "large",
  allowClear,
  placeholder = "输入学校名称搜索",
  style,
  testId,
  "aria-label": ariaLabel,
}: Props) {
  const [keyword, setKeyword] = useState("");
  const [options, setOptions] = useState<SchoolOption[]>([]);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);

  useEffect(() => {
    const mine = ++seq.current;
    setLoading(true);
    const timer = setTimeout(
      () =>
        void (async () => {
          const reply = await accountApi.schoolOptions(keyword.trim());
          if (mine !== seq.current) return;
          setLoading(false);
          if (reply.error === 0 && reply.data) setOptions(reply.data);
        })(),
      300,
    );
    return () => clearTimeout(timer);
  }, [keyword]);

  return (
    <Select<number>
      id={id}
      showSearch
      value={value}
      onChange={onChange}
      placeholder={placeholder}
      filterOption={false}
      onSearch={setKeyword}
      notFoundContent={loading ? <Spin size="small" /> : "没有找到该学校"}
      options={options.map((s) => ({ value: s.id, label: `${s.name}（${s.province}）` }))}
      size={size}
      allowClear={allowClear}
      style={style}
      data-testid={testId}
      aria-label={ariaLabel}
    />
  );
}
