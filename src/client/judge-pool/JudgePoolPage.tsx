/**
 * /judgePool (评委库): root and contest admins get the pool (tabs in POOL_TABS; the pool
 * table takes selection actions), a judge their own record (SelfView, with a slot for the
 * invitations section). The policy decides which: api.judgePool vs api.judgePoolSelf.
 */
import type { ReactNode } from "react";
import { Card, Result, Tabs } from "antd";
import { useCanNow } from "../providers/use-can-now";
import type { PageProps } from "../routing/model";
import { PoolTable } from "./PoolTable";
import { SelfView } from "./SelfView";
import { InviteSelectedButton, JudgeInviteAdmin } from "../judge-invite/InviteAdmin";
import { MyInvitations } from "../judge-invite/MyInvitations";

export interface PoolTab {
  key: string;
  label: string;
  render: () => ReactNode;
}

/** Buttons for the selected pool records (person ids): 「邀请所选」 (the contest is chosen in the dialog). */
export const poolSelectionActions = (selectedPersonIds: number[]): ReactNode =>
  selectedPersonIds.length ? <InviteSelectedButton personIds={selectedPersonIds} /> : null;

/** The admin page's tabs, in order: the pool, and the invitations of a contest (dashboard and list). */
export const POOL_TABS: PoolTab[] = [
  { key: "pool", label: "评委库", render: () => <PoolTable selectionActions={poolSelectionActions} /> },
  { key: "invitations", label: "评委邀请", render: () => <JudgeInviteAdmin /> },
];

/** The judge view's 「我的邀请」 section. */
export const selfInvitations = (): ReactNode => <MyInvitations />;

export default function JudgePoolPage({ route }: PageProps) {
  // Answered while rendering from the loaded permission set: the pool's first page is asked for at once.
  const can = useCanNow();
  if (can("api.judgePool", "read")) {
    return (
      <Card title={route.label} data-testid="judge-pool-admin">
        <Tabs items={POOL_TABS.map((t) => ({ key: t.key, label: t.label, children: t.render() }))} destroyOnHidden />
      </Card>
    );
  }
  if (can("api.judgePoolSelf", "read")) return <SelfView title={route.label} invitations={selfInvitations()} />;
  return <Result status="403" title="无权访问" subTitle="评委库仅对管理员和评委开放" />;
}
