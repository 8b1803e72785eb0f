/**
 * /complaint-view/view-complaint: the user's own complaints and those about their works,
 * with state, decision, arbitration and history; 申请仲裁 and 撤回 where the server allows.
 * Complaints about the user's works never show who filed them.
 */
import { Link } from "react-router";
import { Alert, Button, Card, Empty, Space, Spin } from "antd";
import type { PageProps } from "../routing/model";
import { useComplaintRefresh, useMyComplaints } from "./api";
import { FilerComplaint } from "./FilerComplaint";

export default function ViewComplaints({ route }: PageProps) {
  const q = useMyComplaints();
  const refresh = useComplaintRefresh();
  const list = q.data ?? [];
  return (
    <Card
      title={route.label}
      extra={
        <Link to="/complaint-view/complaint">
          <Button type="primary">提交申诉或投诉</Button>
        </Link>
      }
    >
      {q.isError && <Alert type="error" showIcon message={q.error.message} />}
      {q.isLoading && <Spin />}
      {q.data && !list.length && <Empty description="暂无申诉或投诉" />}
      <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="my-complaints">
        {list.map((c) => (
          <FilerComplaint key={c.id} c={c} onChanged={refresh} />
        ))}
      </Space>
    </Card>
  );
}
