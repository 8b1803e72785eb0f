/**
 * /complaint's 查询我的投诉 tab (its own chunk, loaded when the tab opens): a verified visitor's
 * complaints, each with its history and the steps the filer may take.
 */
import { useCallback, useEffect, useState } from "react";
import { Alert, Empty, Space } from "antd";
import type { FilerComplaintView } from "../../shared/complaint/schema";
import { visitorComplaints } from "./api";
import { FilerComplaint } from "./FilerComplaint";
import type { Visitor } from "./VisitorVerify";
import { VisitorGate, type VisitorTabProps } from "./visitor-gate";

function Lookup({ visitor }: { visitor: Visitor }) {
  const [list, setList] = useState<FilerComplaintView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    const reply = await visitorComplaints(visitor.token);
    if (reply.error === 0) {
      setList(reply.data ?? []);
      setError(null);
    } else setError(reply.info || "查询失败");
  }, [visitor.token]);
  useEffect(() => void load(), [load]);
  if (error) return <Alert type="error" showIcon message={error} />;
  if (!list) return null;
  if (!list.length) return <Empty description={`邮箱 ${visitor.email} 没有提交过投诉`} />;
  return (
    <Space direction="vertical" style={{ width: "100%" }} data-testid="visitor-complaints">
      {list.map((c) => (
        <FilerComplaint key={c.id} c={c} token={visitor.token} onChanged={() => void load()} />
      ))}
    </Space>
  );
}

export default function VisitorLookup(props: VisitorTabProps) {
  return <VisitorGate {...props}>{props.visitor && <Lookup key={props.visitor.token} visitor={props.visitor} />}</VisitorGate>;
}
