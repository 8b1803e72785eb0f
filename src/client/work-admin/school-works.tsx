/**
 * /school/WorkManagement (school admin; root sees every school's works): the school's
 * recommendation quotas, then its works by status with the school's decisions.
 */
import { Card, Space } from "antd";
import { ROLE } from "../../shared/roles";
import { useSession } from "../providers/use-session";
import type { PageProps } from "../routing/model";
import { QuotaPanel } from "./parts/QuotaPanel";
import { SchoolWorksTable } from "./parts/SchoolWorksTable";

export default function SchoolWorks({ route }: PageProps) {
  const { user } = useSession();
  const root = user.userType === ROLE.root;
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      {!root && (
        <Card title="推荐名额" size="small">
          <QuotaPanel />
        </Card>
      )}
      <Card title={route.label}>
        <SchoolWorksTable />
      </Card>
    </Space>
  );
}
