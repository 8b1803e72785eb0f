/**
 * The invitation tab of /judgePool for root and contest admins: the contest (kept in the
 * address, ?contestId=), 「邀请评委」 for new people by email (pool persons are invited from the
 * pool table's selection, see InviteDialog), the dashboard and the list.
 */
import { useState } from "react";
import { Button, Space } from "antd";
import { UserAddOutlined } from "@ant-design/icons";
import { ContestBar, useChosenContest } from "../judging/admin/ContestBar";
import { InviteDialog } from "./InviteDialog";
import { InvitationsTable, InviteDashboardCard } from "./InvitationsPanel";
import { useInviteRefresh } from "./api";

/** The invite button, for a selection of pool persons (the pool table's selectionActions; the contest is chosen in the dialog) or for new people of a contest. */
export function InviteSelectedButton({
  contestId,
  personIds,
  onSent,
}: {
  contestId?: number;
  personIds: number[];
  onSent?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const refresh = useInviteRefresh();
  return (
    <>
      <Button type="primary" icon={<UserAddOutlined />} onClick={() => setOpen(true)} data-testid="invite-open">
        {personIds.length ? `邀请所选 ${personIds.length} 人` : "邀请评委"}
      </Button>
      {open && (
        <InviteDialog
          open
          contestId={contestId}
          personIds={personIds}
          onClose={() => setOpen(false)}
          onSent={() => {
            refresh();
            onSent?.();
          }}
        />
      )}
    </>
  );
}

export function JudgeInviteAdmin() {
  const state = useChosenContest();
  const { contestId } = state;
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="invite-admin">
      <ContestBar state={state} />
      {contestId && (
        <>
          <Space>
            <InviteSelectedButton contestId={contestId} personIds={[]} />
          </Space>
          <InviteDashboardCard contestId={contestId} />
          <InvitationsTable contestId={contestId} />
        </>
      )}
    </Space>
  );
}
