/** The visitor tabs of /complaint: the verified email above the tab's content, or the verification alone. */
import { Space } from "antd";
import { VisitorVerify, type Visitor } from "./VisitorVerify";

export interface VisitorTabProps {
  visitor: Visitor | null;
  setVisitor: (v: Visitor | null) => void;
}

export function VisitorGate({ visitor, setVisitor, children }: VisitorTabProps & { children?: React.ReactNode }) {
  return visitor ? (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <VisitorVerify visitor={visitor} onVerified={setVisitor} onForget={() => setVisitor(null)} />
      {children}
    </Space>
  ) : (
    <VisitorVerify visitor={null} onVerified={setVisitor} onForget={() => setVisitor(null)} />
  );
}
