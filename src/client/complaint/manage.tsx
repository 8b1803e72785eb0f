/**
 * /ComplaintManagement (root, users with the complaint right): the complaints of the contests
 * the user handles, overdue first, filtered by contest, state, type and overdue, with counts per
 * state; a row opens the detail with the reviewer's opinion / the admin's decision forms.
 */
import { useState } from "react";
import { Badge, Button, Card, Checkbox, Modal, Select, Space, Tag, Typography } from "antd";
import { SettingOutlined } from "@ant-design/icons";
import { COMPLAINT_STATES, COMPLAINT_STATE_NAMES, COMPLAINT_TYPES, COMPLAINT_TYPE_NAMES } from "../../shared/complaint/states";
import type { PageProps } from "../routing/model";
import { useComplaintCounts, useComplaintList, useHandlerContests } from "./api";
import { ComplaintTable } from "./ComplaintTable";
import { HandlerDrawer } from "./HandlerDetail";
import { useListParams } from "./use-list-params";
import { STATE_COLORS } from "./logic";
import { ComplaintSettingsPanel } from "./SettingsPanel";

export default function ComplaintManagement({ route }: PageProps) {
  const { f, id, setFilters, open } = useListParams();
  const contests = useHandlerContests();
  const counts = useComplaintCounts(f.contestId);
  const list = useComplaintList("manage", f);
  const [settingsOf, setSettingsOf] = useState<number | null>(null);
  const contestName = (id: number) => contests.data?.find((c) => c.id === id)?.name ?? "";

  return (
    <Card title={route.label}>
      <Space direction="vertical" size={12} style={{ width: "100%" }}>
        <Space wrap data-testid="complaint-counts">
          <Tag.CheckableTag
            checked={!f.state && !f.overdue}
            onChange={() => setFilters({ state: undefined, overdue: undefined })}
          >
            全部 <Badge count={counts.data?.total ?? 0} showZero color="#8c8c8c" />
          </Tag.CheckableTag>
          {counts.data?.overdue ? (
            <Tag.CheckableTag checked={!!f.overdue} onChange={(on) => setFilters({ overdue: on ? 1 : undefined })}>
              超期 <Badge count={counts.data.overdue} color="red" />
            </Tag.CheckableTag>
          ) : null}
          {(counts.data?.byState ?? [])
            .filter((s) => s.count > 0)
            .map((s) => (
              <Tag.CheckableTag
                key={s.state}
                checked={f.state === s.state}
                onChange={(on) => setFilters({ state: on ? s.state : undefined })}
                data-testid={`count-${s.state}`}
              >
                {s.name}{" "}
                <Badge count={s.count} showZero color={STATE_COLORS[s.state] === "default" ? "#bfbfbf" : STATE_COLORS[s.state]} />
              </Tag.CheckableTag>
            ))}
        </Space>
        <Space wrap>
          <Select
            allowClear
            placeholder="全部赛事"
            aria-label="全部赛事"
            style={{ width: 260 }}
            value={f.contestId}
            loading={contests.isLoading}
            options={(contests.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            onChange={(v) => setFilters({ contestId: v })}
            data-testid="filter-contest"
          />
          <Select
            allowClear
            placeholder="全部状态"
            aria-label="全部状态"
            style={{ width: 200 }}
            value={f.state}
            options={COMPLAINT_STATES.map((s) => ({ value: s, label: COMPLAINT_STATE_NAMES[s] }))}
            onChange={(v) => setFilters({ state: v })}
            data-testid="filter-state"
          />
          <Select
            allowClear
            placeholder="申诉和投诉"
            aria-label="申诉和投诉"
            style={{ width: 140 }}
            value={f.type}
            options={COMPLAINT_TYPES.map((t) => ({ value: t, label: COMPLAINT_TYPE_NAMES[t] }))}
            onChange={(v) => setFilters({ type: v })}
            data-testid="filter-type"
          />
          <Checkbox checked={!!f.overdue} onChange={(e) => setFilters({ overdue: e.target.checked ? 1 : undefined })}>
            仅看超期
          </Checkbox>
          {f.contestId && (
            <Button icon={<SettingOutlined />} onClick={() => setSettingsOf(f.contestId!)} data-testid="open-settings">
              处理期限与人员
            </Button>
          )}
        </Space>
        {list.isError && <Typography.Text type="danger">{list.error.message}</Typography.Text>}
        <ComplaintTable
          data={list.data}
          loading={list.isFetching}
          page={f}
          onPage={(current, pageSize) => setFilters({ current, pageSize })}
          onOpen={open}
        />
      </Space>
      <HandlerDrawer desk="manage" id={id} onClose={() => open(undefined)} />
      <Modal
        open={!!settingsOf}
        width={900}
        footer={null}
        title={settingsOf ? `${contestName(settingsOf)} · 申诉处理期限与人员` : ""}
        onCancel={() => setSettingsOf(null)}
        destroyOnClose
      >
        {settingsOf && <ComplaintSettingsPanel contestId={settingsOf} />}
      </Modal>
    </Card>
  );
}
