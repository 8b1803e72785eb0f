/**
 * /complaint's 我要投诉 tab (its own chunk, loaded when the tab opens: the form, its evidence
 * upload and the email verification are not needed to read the rules): a verified visitor files
 * a 投诉, then sees its number.
 */
import { useState } from "react";
import { Button, Result } from "antd";
import type { ComplaintInfo, FilerComplaintView } from "../../shared/complaint/schema";
import { ComplaintForm } from "./ComplaintForm";
import { VisitorGate, type VisitorTabProps } from "./visitor-gate";

export default function VisitorFile({
  info,
  workId,
  onLookup,
  ...gate
}: VisitorTabProps & { info: ComplaintInfo | undefined; workId: number | undefined; onLookup: () => void }) {
  const [filed, setFiled] = useState<FilerComplaintView | null>(null);
  if (filed)
    return (
      <div data-testid="complaint-filed">
        <Result
          status="success"
          title={`投诉已提交（编号 ${filed.id}）`}
          subTitle="处理进度和结果将发送到您验证的邮箱，也可以在「查询我的投诉」中查看。"
          extra={[
            <Button key="l" type="primary" onClick={() => (setFiled(null), onLookup())}>
              查询我的投诉
            </Button>,
            <Button key="n" onClick={() => setFiled(null)}>
              继续投诉
            </Button>,
          ]}
        />
      </div>
    );
  return (
    <VisitorGate {...gate}>
      {gate.visitor && (
        <ComplaintForm info={info} token={gate.visitor.token} initial={{ type: "complaint", workId }} onFiled={setFiled} />
      )}
    </VisitorGate>
  );
}
