/**
 * /Arbitrate (arbitrators, role 7): the complaints sent to arbitration in the contests they
 * arbitrate (the server leaves out their conflicts); the detail carries the ruling form.
 */
import { Card, Select, Space, Typography } from "antd";
import type { PageProps } from "../routing/model";
import { COMPLAINT_STATE_NAMES } from "../../shared/complaint/states";
import { useComplaintList } from "./api";
import { ComplaintTable } from "./ComplaintTable";
import { HandlerDrawer } from "./HandlerDetail";
import { useListParams } from "./use-list-params";

const ARBITRATION_STATES = ["arbitration_requested", "arbitrated", "closed"] as const;

export function ArbitrationList({ desk, title, intro }: { desk: "arbitrate" | "review"; title: string; intro: string }) {
  const { f, id, setFilters, open } = useListParams();
  const list = useComplaintList(desk, f);
  return (
    <Card title={title}>
      <Space direction="vertical" size={12} style={{ width: "100%" }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {intro}
        </Typography.Paragraph>
        <Select
          allowClear
          placeholder="全部状态"
          aria-label="全部状态"
          style={{ width: 200 }}
          value={f.state}
          options={ARBITRATION_STATES.map((s) => ({ value: s, label: COMPLAINT_STATE_NAMES[s] }))}
          onChange={(v) => setFilters({ state: v })}
          data-testid="filter-state"
        />
        {list.isError && <Typography.Text type="danger">{list.error.message}</Typography.Text>}
        <ComplaintTable
          data={list.data}
          loading={list.isFetching}
          page={f}
          onPage={(current, pageSize) => setFilters({ current, pageSize })}
          onOpen={open}
        />
      </Space>
      <HandlerDrawer desk={desk} id={id} onClose={() => open(undefined)} />
    </Card>
  );
}

export default function Arbitrate({ route }: PageProps) {
  return (
    <ArbitrationList
      desk="arbitrate"
      title={route.label}
      intro="以下为已申请仲裁的申诉/投诉。您曾审核或决定的、以及涉及本校作品的不会分配给您。仲裁裁决为最终结果，经超级管理员确认后生效。"
    />
  );
}
