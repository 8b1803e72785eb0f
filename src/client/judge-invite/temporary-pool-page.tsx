/**
 * /judgePool until the pool page lands (TEMPORARY, replaced when merging with the pool's
 * page): root and contest admins get the invitation tab, a judge 「我的邀请」.
 */
import { Card, Tabs } from "antd";
import { ROLE } from "../../shared/roles";
import { useSession } from "../providers/use-session";
import type { PageProps } from "../routing/model";
import { JudgeInviteAdmin } from "./InviteAdmin";
import { MyInvitations } from "./MyInvitations";

export default function TemporaryPoolPage({ route }: PageProps) {
  const { user } = useSession();
  if (user.userType === ROLE.judge) return <MyInvitations />;
  return (
    <Card title={route.label}>
      <Tabs items={[{ key: "invite", label: "评委邀请", children: <JudgeInviteAdmin /> }]} />
    </Card>
  );
}
