/**
 * The filters of a user list, per page variant; each change goes to the server as a list filter
 * and into the address (crud/list-address.ts), whose values the controls show, e.g.
 * /admin/UserManagement?userType=100&locked=false&keyword=林&page=2&sort=username&order=asc
 */
import { memo, useState } from "react";
import { Input, Select, Space } from "antd";
import { bool, int, someOf, text, type FilterValue, type ListSpec } from "../crud/list-address";
import { MyContestSelect, SchoolSelect } from "./selects";
import { roleOptions, type UserVariant } from "./variants";

/** What a user list's address carries, by variant. */
export function userListAddress(variant: UserVariant): ListSpec {
  return {
    pageSize: 20,
    sort: { field: "id", order: "desc" },
    sortable: ["username", "userType", "schoolId", "memberNo"],
    filters: {
      keyword: text,
      ...(variant.roles.length > 1 ? { userType: someOf(variant.roles) } : {}),
      ...(variant.key === "all" ? { schoolId: int } : {}),
      ...(variant.contest === "mine" ? { contestId: int } : {}),
      locked: bool,
      archived: bool,
      ...(variant.complaintRight ? { hasComplaintRight: bool } : {}),
      ...(variant.judgeFlag ? { isSchoolContestJudge: bool } : {}),
    },
  };
}

const YES_NO = (yes: string, no: string) => [
  { value: true, label: yes },
  { value: false, label: no },
];

/** Memoised: the list renders again with every answer; the filters only when their props change. */
export const UserFilterBar = memo(function UserFilterBar({
  variant,
  setFilter,
  values,
}: {
  variant: UserVariant;
  setFilter: (field: string, value: unknown, operator?: "eq" | "in") => void;
  /** the address's filters (the list keys this bar by the address, so the search text starts from it) */
  values: Readonly<Record<string, FilterValue | undefined>>;
}) {
  const [keyword, setKeyword] = useState(typeof values.keyword === "string" ? values.keyword : "");
  const shown = (name: string) => values[name] as never;
  return (
    <Space style={{ marginBottom: 16 }} wrap>
      <Input.Search
        allowClear
        placeholder={`用户名、姓名、邮箱或${variant.memberNoLabel}`}
        aria-label="搜索用户"
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        onSearch={(v) => setFilter("keyword", v.trim())}
        style={{ width: 280 }}
        data-testid="user-search"
      />
      {variant.roles.length > 1 && (
        <Select
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          placeholder="身份"
          aria-label="按身份筛选"
          style={{ width: 220 }}
          options={roleOptions(variant.roles)}
          value={shown("userType")}
          onChange={(v) => setFilter("userType", v, "in")}
          data-testid="user-role-filter"
        />
      )}
      {variant.key === "all" && (
        <SchoolSelect
          allowClear
          placeholder="学校"
          aria-label="按学校筛选"
          style={{ width: 240 }}
          value={shown("schoolId")}
          onChange={(v) => setFilter("schoolId", v)}
        />
      )}
      {variant.contest === "mine" && (
        <MyContestSelect
          allowClear
          placeholder="赛事"
          aria-label="按赛事筛选"
          style={{ width: 300 }}
          value={shown("contestId")}
          onChange={(v) => setFilter("contestId", v)}
        />
      )}
      <Select
        allowClear
        placeholder="锁定"
        aria-label="按锁定状态筛选"
        style={{ width: 110 }}
        options={YES_NO("已锁定", "未锁定")}
        value={shown("locked")}
        onChange={(v) => setFilter("locked", v)}
      />
      <Select
        allowClear
        placeholder="归档"
        aria-label="按归档状态筛选"
        style={{ width: 110 }}
        options={YES_NO("已归档", "使用中")}
        value={shown("archived")}
        onChange={(v) => setFilter("archived", v)}
      />
      {variant.complaintRight && (
        <Select
          allowClear
          placeholder="申诉权"
          aria-label="按申诉权筛选"
          style={{ width: 120 }}
          options={YES_NO("有申诉权", "无申诉权")}
          value={shown("hasComplaintRight")}
          onChange={(v) => setFilter("hasComplaintRight", v)}
        />
      )}
      {variant.judgeFlag && (
        <Select
          allowClear
          placeholder="校赛评委"
          aria-label="按校赛评委筛选"
          style={{ width: 130 }}
          options={YES_NO("是校赛评委", "非校赛评委")}
          value={shown("isSchoolContestJudge")}
          onChange={(v) => setFilter("isSchoolContestJudge", v)}
        />
      )}
    </Space>
  );
});
