/** A co-author's answer to an invitation: confirm taking part, or decline. */
import { useState } from "react";
import { Button, Popconfirm, Space } from "antd";
import { CheckOutlined, CloseOutlined } from "@ant-design/icons";
import { workApi, useWorkForget, useWorkRefresh } from "./api";
import { useWorkAction } from "./use-work-action";

export function InvitationActions({
  workId,
  version,
  onDone,
}: {
  workId: number;
  version?: number;
  onDone?: (joined: boolean) => void;
}) {
  const run = useWorkAction();
  const refresh = useWorkRefresh();
  const forget = useWorkForget();
  const [busy, setBusy] = useState<"confirm" | "decline">();
  const act = async (kind: "confirm" | "decline") => {
    setBusy(kind);
    const r =
      kind === "confirm"
        ? await run(workApi.confirm(workId, version), { reload: () => refresh(workId) })
        : await run(workApi.decline(workId, version), { reload: () => refresh(workId) });
    setBusy(undefined);
    if (r.error === 0) {
      onDone?.(kind === "confirm");
      if (kind === "confirm") refresh(workId, r.data as never);
      else forget(workId);
    }
  };
  return (
    <Space>
      <Button
        type="primary"
        size="small"
        icon={<CheckOutlined />}
        loading={busy === "confirm"}
        onClick={() => act("confirm")}
        data-testid="invite-confirm"
      >
        确认参赛
      </Button>
      <Popconfirm
        title="拒绝参加该作品？"
        description="拒绝后您将不在作者名单中，需由第一作者重新添加。"
        okText="拒绝"
        okButtonProps={{ danger: true }}
        onConfirm={() => act("decline")}
      >
        <Button size="small" danger icon={<CloseOutlined />} loading={busy === "decline"} data-testid="invite-decline">
          拒绝
        </Button>
      </Popconfirm>
    </Space>
  );
}
