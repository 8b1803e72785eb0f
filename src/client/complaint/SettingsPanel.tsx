/**
 * A contest's complaint settings: the due days of every stage (the arbitration request
 * deadline among them) and the reminder lead time, and who handles the contest's complaints
 * (complaint reviewers/admins with the complaint right) and arbitrates them. Editing follows
 * the policy through refine's access control (api.complaintSettings update: root and the
 * contest's admins; the server checks the contest); choosing handlers needs the user list
 * (api.users read).
 */
import { useEffect, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Descriptions, Form, InputNumber, Select, Skeleton, Space, Tag, Typography } from "antd";
import type { PageOf } from "../../shared/crud/list";
import type { ComplaintSettings, ContestHandler } from "../../shared/complaint/schema";
import { DUE_KEYS, DUE_NAMES } from "../../shared/complaint/states";
import type { UserView } from "../../shared/user/schema";
import { useCan } from "@refinedev/core";
import { put } from "../request";
import { fetchData } from "../request";
import { MANAGE } from "./api";

const keys = {
  settings: (id: number) => ["complaints", "settings", id] as const,
  handlers: (id: number) => ["complaints", "handlers", id] as const,
  candidates: ["complaints", "handler-candidates"] as const,
};

export function ComplaintSettingsPanel({ contestId }: { contestId: number }) {
  const canEdit = !!useCan({ resource: "api.complaintSettings", action: "update" }).data?.can;
  const readsUsers = !!useCan({ resource: "api.users", action: "read" }).data?.can;
  const canPick = canEdit && readsUsers;
  const qc = useQueryClient();
  const settings = useQuery({
    queryKey: keys.settings(contestId),
    queryFn: () => fetchData<ComplaintSettings>(`${MANAGE}/contests/${contestId}/settings`),
  });
  const handlers = useQuery({
    queryKey: keys.handlers(contestId),
    queryFn: () => fetchData<ContestHandler[]>(`${MANAGE}/contests/${contestId}/handlers`),
  });
  const candidates = useQuery({
    queryKey: keys.candidates,
    queryFn: async () =>
      (await fetchData<PageOf<UserView>>("/Backend/Admin/user", { userType: [5, 6, 7], pageSize: 200 })).list.filter(
        (u) => u.userType === 7 || u.hasComplaintRight,
      ),
    enabled: canPick,
  });
  const [editing, setEditing] = useState(false);
  const [picked, setPicked] = useState<number[]>([]);
  const [form] = Form.useForm<ComplaintSettings["dueDays"] & { remindHours: number }>();
  useEffect(() => setPicked((handlers.data ?? []).map((h) => h.userId)), [handlers.data]);

  if (settings.isError) return <Alert type="error" showIcon message={settings.error.message} />;
  if (!settings.data) return <Skeleton active paragraph={{ rows: 3 }} />;
  const s = settings.data;

  const save = async () => {
    const v = await form.validateFields();
    const { remindHours, ...dueDays } = v;
    const reply = await put<ComplaintSettings>(`${MANAGE}/contests/${contestId}/settings`, { dueDays, remindHours });
    if (reply.error === 0) {
      qc.setQueryData(keys.settings(contestId), reply.data);
      setEditing(false);
    }
  };
  const saveHandlers = async () => {
    const reply = await put<ContestHandler[]>(`${MANAGE}/contests/${contestId}/handlers`, { userIds: picked });
    if (reply.error === 0) qc.setQueryData(keys.handlers(contestId), reply.data);
  };

  return (
    <Space direction="vertical" size={12} style={{ width: "100%" }} data-testid={`complaint-settings-${contestId}`}>
      {editing ? (
        <Form form={form} layout="inline" initialValues={{ ...s.dueDays, remindHours: s.remindHours }}>
          {DUE_KEYS.map((k) => (
            <Form.Item
              key={k}
              label={DUE_NAMES[k]}
              name={k}
              rules={[{ required: true, message: "请填写" }]}
              style={{ marginBottom: 8 }}
            >
              <InputNumber min={1} max={60} addonAfter="天" style={{ width: 110 }} />
            </Form.Item>
          ))}
          <Form.Item
            label="到期前提醒"
            name="remindHours"
            rules={[{ required: true, message: "请填写" }]}
            style={{ marginBottom: 8 }}
          >
            <InputNumber min={1} max={168} addonAfter="小时" style={{ width: 130 }} />
          </Form.Item>
          <Space>
            <Button type="primary" onClick={() => void save()}>
              保存
            </Button>
            <Button onClick={() => setEditing(false)}>取消</Button>
          </Space>
        </Form>
      ) : (
        <Descriptions
          size="small"
          bordered
          column={3}
          extra={
            canEdit && (
              <Button size="small" onClick={() => setEditing(true)}>
                修改期限
              </Button>
            )
          }
        >
          {DUE_KEYS.map((k) => (
            <Descriptions.Item key={k} label={DUE_NAMES[k]}>
              {s.dueDays[k]} 天
            </Descriptions.Item>
          ))}
          <Descriptions.Item label="到期前提醒">{s.remindHours} 小时</Descriptions.Item>
        </Descriptions>
      )}
      <div>
        <Typography.Text strong>处理人员与仲裁员：</Typography.Text>
        {canPick ? (
          <Space.Compact style={{ width: "100%", marginTop: 8 }}>
            <Select
              mode="multiple"
              style={{ width: "100%" }}
              value={picked}
              onChange={setPicked}
              loading={candidates.isLoading}
              optionFilterProp="label"
              options={(candidates.data ?? []).map((u) => ({ value: u.id, label: `${u.name}（${u.roleName}）` }))}
            />
            <Button type="primary" onClick={() => void saveHandlers()}>
              保存
            </Button>
          </Space.Compact>
        ) : (
          <Space wrap>
            {(handlers.data ?? []).map((h) => (
              <Tag key={h.userId} color={h.role === "arbitrator" ? "gold" : "blue"}>
                {h.name}（{h.role === "arbitrator" ? "仲裁员" : "申诉处理"}）
              </Tag>
            ))}
            {handlers.data && !handlers.data.length && <Typography.Text type="secondary">尚未指定</Typography.Text>}
          </Space>
        )}
      </div>
    </Space>
  );
}
