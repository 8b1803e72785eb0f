/**
 * /complaint-view/complaint: a logged-in user files a 申诉 about an own work (?type=appeal&workId=,
 * the work page's action) or a 投诉 about a work of a published result.
 */
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { Button, Card, Result } from "antd";
import type { FilerComplaintView } from "../../shared/complaint/schema";
import type { ComplaintType } from "../../shared/complaint/states";
import type { PageProps } from "../routing/model";
import { useComplaintInfo, useComplaintRefresh } from "./api";
import { ComplaintForm } from "./ComplaintForm";
import { Windows } from "./windows";

export default function ComplaintFilePage({ route }: PageProps) {
  const [params] = useSearchParams();
  const info = useComplaintInfo();
  const refresh = useComplaintRefresh();
  const [filed, setFiled] = useState<FilerComplaintView | null>(null);
  const type = (params.get("type") === "appeal" ? "appeal" : params.get("type") === "complaint" ? "complaint" : undefined) as
    ComplaintType | undefined;
  const workId = Number(params.get("workId")) || undefined;

  if (filed)
    return (
      <Card title={route.label}>
        <div data-testid="complaint-filed">
          <Result
            status="success"
            title={`${filed.type === "appeal" ? "申诉" : "投诉"}已提交（编号 ${filed.id}）`}
            subTitle="处理进度可在「查看申诉」中查看，处理结果也会通过邮件通知您。"
            extra={[
              <Link key="v" to="/complaint-view/view-complaint">
                <Button type="primary">查看申诉</Button>
              </Link>,
              <Button key="n" onClick={() => setFiled(null)}>
                继续提交
              </Button>,
            ]}
          />
        </div>
      </Card>
    );

  return (
    <Card title={route.label}>
      {info.data && (
        <div style={{ marginBottom: 16 }}>
          <Windows windows={info.data.windows} />
        </div>
      )}
      <ComplaintForm
        key={`${type}-${workId}`}
        info={info.data}
        initial={{ type: type ?? (workId ? "appeal" : "complaint"), workId }}
        onFiled={(v) => (setFiled(v), refresh())}
      />
    </Card>
  );
}
