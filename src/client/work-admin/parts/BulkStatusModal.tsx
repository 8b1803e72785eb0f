/**
 * 批量更改状态: the chosen action and reason for the selected works, listed for
 * confirmation. The server checks every work and changes all or none
 * (POST /Backend/Admin/work/bulk-status); its per-work results are shown in the list.
 */
import { useEffect, useState } from "react";
import { Alert, Button, Form, Input, Modal, Select, Space, Table, Tag, Typography } from "antd";
import type { BulkReport, WorkListItem } from "../../../shared/work/schema";
import { CONTEST_ACTIONS, SCHOOL_ACTIONS } from "../../../shared/work/schema";
import { TRANSITIONS, WORK_STATES, WORK_STATE_NAMES, type WorkAction } from "../../../shared/work/states";
import { post } from "../../request";
import { StatusTag } from "../../work/components/StatusTag";

type Result = BulkReport["results"][number];

const fromText = (a: WorkAction) => {
  const from = TRANSITIONS[a].from;
  return from.length >= WORK_STATES.length - 1 ? "任一状态" : from.map((s) => WORK_STATE_NAMES[s]).join("、");
};

export function BulkStatusModal({
  works,
  open,
  root,
  onClose,
  onDone,
}: {
  works: WorkListItem[];
  open: boolean;
  root: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const [form] = Form.useForm<{ action: WorkAction; reason?: string }>();
  const action = Form.useWatch("action", form);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; info: string; results: Map<number, Result> } | null>(null);
  // The list as it was when the modal opened: the page clears its selection once done.
  const [list, setList] = useState(works);
  useEffect(() => {
    if (open) {
      setOutcome(null);
      setList(works);
    }
  }, [open]);
  // Root may also take the school's decisions; format review has its own screen (reason codes, deadlines).
  const actions: readonly WorkAction[] = root ? [...SCHOOL_ACTIONS, ...CONTEST_ACTIONS] : CONTEST_ACTIONS;
  const needsReason = !!action && !!TRANSITIONS[action].reason;

  const submit = async (v: { action: WorkAction; reason?: string }) => {
    setBusy(true);
    const reply = await post<BulkReport>(
      "/Backend/Admin/work/bulk-status",
      { ids: list.map((w) => w.id), action: v.action, reason: v.reason?.trim() || undefined },
      { notify: false },
    );
    setBusy(false);
    const results = new Map((reply.data?.results ?? []).map((r) => [r.id, r]));
    setOutcome({ ok: reply.error === 0, info: reply.info || (reply.error === 0 ? "已完成" : "批量操作失败"), results });
    if (reply.error === 0) onDone();
  };

  const done = outcome?.ok;
  return (
    <Modal
      open={open}
      width={820}
      title={`批量更改状态（${list.length} 件作品）`}
      onCancel={onClose}
      destroyOnHidden
      footer={
        done ? (
          <Button type="primary" onClick={onClose}>
            关闭
          </Button>
        ) : (
          <Space>
            <Button onClick={onClose}>取消</Button>
            <Button
              type="primary"
              danger={action === "disqualify"}
              loading={busy}
              onClick={() => form.submit()}
              data-testid="bulk-confirm"
            >
              确认{action ? `「${TRANSITIONS[action].name}」` : "更改"} {list.length} 件作品
            </Button>
          </Space>
        )
      }
    >
      <Form form={form} layout="vertical" onFinish={submit} disabled={done} preserve={false}>
        <Form.Item name="action" label="操作" rules={[{ required: true, message: "请选择操作" }]}>
          <Select
            placeholder="选择要执行的操作"
            data-testid="bulk-action"
            options={actions.map((a) => ({
              value: a,
              label: `${TRANSITIONS[a].name}（${fromText(a)} → ${WORK_STATE_NAMES[TRANSITIONS[a].to]}）`,
            }))}
          />
        </Form.Item>
        <Form.Item
          name="reason"
          label={action === "disqualify" ? "公开原因" : "原因"}
          rules={[
            { required: needsReason, whitespace: true, message: "该操作须填写原因" },
            { max: 500, message: "原因最多 500 字" },
          ]}
        >
          <Input.TextArea rows={3} maxLength={500} placeholder={needsReason ? "必填" : "选填"} data-testid="bulk-reason" />
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary">全部作品通过检查才会执行；只要有一件不能执行，本次全部不执行。</Typography.Paragraph>
      {outcome && (
        <Alert
          style={{ marginBottom: 12 }}
          type={outcome.ok ? "success" : "error"}
          showIcon
          message={outcome.info}
          data-testid="bulk-outcome"
        />
      )}
      <Table<WorkListItem>
        size="small"
        rowKey="id"
        dataSource={list}
        pagination={{ pageSize: 8, hideOnSinglePage: true }}
        data-testid="bulk-works"
      >
        <Table.Column<WorkListItem> dataIndex="id" title="作品编号" width={120} />
        <Table.Column<WorkListItem> dataIndex="name" title="作品名称" />
        <Table.Column<WorkListItem>
          dataIndex="status"
          title={done ? "原状态" : "当前状态"}
          width={120}
          render={(s) => <StatusTag status={s} />}
        />
        {outcome && (
          <Table.Column<WorkListItem>
            title="结果"
            render={(_, w) => {
              const r = outcome.results.get(w.id);
              if (!r) return <Typography.Text type="secondary">—</Typography.Text>;
              if (!r.ok) return <Typography.Text type="danger">{r.info}</Typography.Text>;
              if (!outcome.ok) return <Typography.Text type="secondary">{r.info}</Typography.Text>;
              return (
                <Tag color="green">
                  {r.info}
                  {r.status ? ` → ${WORK_STATE_NAMES[r.status]}` : ""}
                </Tag>
              );
            }}
          />
        )}
      </Table>
    </Modal>
  );
}
