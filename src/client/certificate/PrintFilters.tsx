/** The filter bar of the 证书打印 tab: keyword, holder kind, group, award, school, status, 仅未打印. */
import { Checkbox, Input, Select, Space } from "antd";
import { CERT_STATUS_NAMES } from "../../shared/certificate/schema";
import { CERT_ROW_STATUS, HOLDER_KINDS, HOLDER_KIND_NAMES, type CertContest } from "../../shared/certificate/print-schema";
import { SchoolPicker } from "../account/SchoolPicker";
import { useGroups } from "../judge-queries/groups";
import { useAwardLevels } from "./print-api";
import type { PrintMode, useCertParams } from "./use-cert-params";

export function PrintFilters({
  mode,
  contestId,
  contestLevel,
  params,
}: {
  mode: PrintMode;
  contestId: number;
  contestLevel: CertContest["level"];
  params: ReturnType<typeof useCertParams>;
}) {
  const { filters } = params;
  const groups = useGroups(contestId);
  const awards = useAwardLevels();
  const levelAwards = (awards.data ?? []).filter((a) => a.contestLevel === contestLevel);
  return (
    <Space wrap data-testid="cert-filters">
      <Input.Search
        key={filters.keyword ?? ""}
        aria-label="搜索证书"
        defaultValue={filters.keyword}
        allowClear
        maxLength={50}
        style={{ width: 260 }}
        placeholder={mode === "contest" ? "学生姓名、证书编号或作品名称" : "姓名、证书编号或作品名称"}
        onSearch={(v) => params.setFilters({ keyword: v.trim() || undefined })}
        data-testid="cert-keyword"
      />
      <Select
        allowClear
        placeholder="全部持证人"
        aria-label="全部持证人"
        style={{ width: 130 }}
        value={filters.holderKind}
        options={HOLDER_KINDS.map((k) => ({ value: k, label: HOLDER_KIND_NAMES[k] }))}
        onChange={(v) => params.setFilters({ holderKind: v })}
        data-testid="cert-holder-kind"
      />
      <Select
        allowClear
        placeholder="全部分组"
        aria-label="全部分组"
        style={{ width: 180 }}
        value={filters.groupId}
        loading={groups.isPending}
        options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
        onChange={(v) => params.setFilters({ groupId: v })}
        data-testid="cert-group"
      />
      <Select
        allowClear
        placeholder="全部奖项"
        aria-label="全部奖项"
        style={{ width: 140 }}
        value={filters.awardLevelId}
        options={levelAwards.map((a) => ({ value: a.id, label: a.name }))}
        onChange={(v) => params.setFilters({ awardLevelId: v })}
        data-testid="cert-award"
      />
      <SchoolPicker
        size="middle"
        allowClear
        placeholder="全部学校"
        aria-label="全部学校"
        style={{ width: 200 }}
        testId="cert-school"
        value={filters.schoolId}
        onChange={(v) => params.setFilters({ schoolId: v ?? undefined })}
      />
      <Select
        allowClear
        placeholder="全部状态"
        aria-label="全部状态"
        style={{ width: 150 }}
        value={filters.status}
        options={CERT_ROW_STATUS.map((s) => ({ value: s, label: CERT_STATUS_NAMES[s] }))}
        onChange={(v) => params.setFilters({ status: v })}
        data-testid="cert-status-filter"
      />
      <Checkbox
        checked={filters.unprinted === true}
        onChange={(e) => params.setFilters({ unprinted: e.target.checked ? true : undefined })}
        data-testid="cert-unprinted"
      >
        仅未打印
      </Checkbox>
    </Space>
  );
}
