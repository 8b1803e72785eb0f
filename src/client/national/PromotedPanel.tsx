/**
 * 晋级国赛的作品 (a provincial contest's results page): the works its published result entered
 * in the national contest, their national format review, and 撤回晋级 with a reason (logged on
 * the work) until the national registration closes
 * (POST /Backend/ContestAdmin/national/:contestId/promoted/:workId/withdraw). The national
 * admin sees the withdrawal and its reason in IncomingPanel.
 */
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Input, Modal, Spin, Table, Tag, Typography } from "antd";
import type { IncomingEntry, PromotedOut } from "../../shared/national/types";
import { post } from "../request";
import { fetchData } from "../request";
import { FORMAT } from "./IncomingPanel";
import { fmtTimeLabelled } from "../format";

const N = "/Backend/ContestAdmin/national";

export function PromotedPanel({ contestId }: { contestId: number }) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const q = useQuery({
    queryKey: ["national", contestId, "promoted"],
    queryFn: () => fetchData<PromotedOut>(`${N}/${contestId}/promoted`),
  });
  const [target, setTarget] = useState<IncomingEntry | null>(null);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  if (q.isPending) return <Spin />;
  if (q.isError) return <Alert type="error" showIcon message={q.error.message} />;
  const d = q.data;
  if (!d.nationalContestId || !d.entries.length) return null;
  const withdraw = async () => {
    if (!target) return;
    if (reason.trim().length < 2) {
      void message.error("请填写撤回晋级的原因");
      return;
    }
    setBusy(true);
    const reply = await post(`${N}/${contestId}/promoted/${target.workId}/withdraw`, { reason: reason.trim() });
    setBusy(false);
    if (reply.error === 0) {
      setTarget(null);
      setReason("");
      void qc.invalidateQueries({ queryKey: ["national"] });
    }
  };
  const deadline = d.registrationEndsAt ? fmtTimeLabelled(d.registrationEndsAt) : null;
  return (
    <Card size="small" title={`晋级国赛的作品（${d.nationalContestName}）`} data-testid="national-promoted">
      <Typography.Paragraph type="secondary">
        {d.open
          ? `国赛报名截止${deadline ? `（${deadline}）` : ""}前可以撤回晋级作品，须填写原因，记入作品日志；撤回的作品不会因再次发布结果而恢复晋级。`
          : `国赛报名已于 ${deadline} 截止，不能再撤回晋级作品。`}
      </Typography.Paragraph>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={d.entries}
        columns={[
          { title: "作品编号", dataIndex: "workId" },
          { title: "作品名称", dataIndex: "workName" },
          { title: "大类", dataIndex: "categoryName" },
          { title: "国赛形式审查", dataIndex: "formatStatus", render: (s: string) => FORMAT[s] ?? s },
          {
            title: "状态",
            dataIndex: "status",
            render: (s: string, r) =>
              s === "entered" ? <Tag color="green">已进入国赛</Tag> : <Tag>已撤回：{r.withdrawReason}</Tag>,
          },
          {
            title: "操作",
            key: "op",
            render: (_: unknown, r) =>
              r.status === "entered" && (
                <Button
                  size="small"
                  danger
                  disabled={!d.open}
                  onClick={() => setTarget(r)}
                  data-testid={`promoted-withdraw-${r.workId}`}
                >
                  撤回晋级
                </Button>
              ),
          },
        ]}
      />
      <Modal
        title={`撤回晋级：${target?.workName ?? ""}`}
        open={!!target}
        okText="撤回晋级"
        okButtonProps={{ danger: true }}
        cancelText="取消"
        confirmLoading={busy}
        onCancel={() => setTarget(null)}
        onOk={withdraw}
      >
        <Typography.Paragraph>
          撤回后该作品退出国赛（国赛的形式审查、评审和结果中不再出现），省赛结果和奖项保留。国赛管理员可在“晋级作品（各省）”中看到撤回原因。
        </Typography.Paragraph>
        <Input.TextArea
          rows={3}
          maxLength={500}
          placeholder="撤回原因（必填）"
          aria-label="撤回原因（必填）"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          data-testid="promoted-withdraw-reason"
        />
      </Modal>
    </Card>
  );
}
