/**
 * /school/SchoolContest (school admin): the own school's school-level contest — where its
 * recommendations go, its quota in all and per 大类, and the school's works in it with the
 * school's decisions. The server gives school admins no contest read (stages are set by
 * the provincial contest's admins), so the contest is shown from its quota view.
 */
import { useState } from "react";
import { Alert, Card, Empty, Select, Skeleton, Space } from "antd";
import type { PageProps } from "../routing/model";
import { QuotaPanel, useQuotas } from "./parts/QuotaPanel";
import { SchoolWorksTable } from "./parts/SchoolWorksTable";

export default function SchoolContest({ route }: PageProps) {
  const { data, isLoading, error } = useQuotas();
  const contests = (data ?? []).filter((q) => q.level === "school");
  const [picked, setPicked] = useState<number | undefined>();
  const current = contests.find((c) => c.contestId === picked) ?? contests[0];

  if (isLoading)
    return (
      <Card title={route.label}>
        <Skeleton active />
      </Card>
    );
  if (error)
    return (
      <Card title={route.label}>
        <Alert type="error" showIcon message={error.message} />
      </Card>
    );
  if (!current)
    return (
      <Card title={route.label}>
        <Empty description="本校目前没有校级赛，请联系省级赛管理员设立" />
      </Card>
    );

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Card
        title={route.label}
        extra={
          contests.length > 1 && (
            <Select
              style={{ width: 320 }}
              value={current.contestId}
              onChange={setPicked}
              options={contests.map((c) => ({ value: c.contestId, label: c.contestName }))}
            />
          )
        }
      >
        <Alert
          style={{ marginBottom: 12 }}
          type="info"
          showIcon
          message="校级赛的阶段时间和推荐名额由省级赛管理员设置；本校在报名和学校审核阶段审核作品，并在名额内推荐至省级赛。"
        />
        <QuotaPanel contestId={current.contestId} />
      </Card>
      <Card title="校级赛作品">
        <SchoolWorksTable key={current.contestId} contestId={current.contestId} />
      </Card>
    </Space>
  );
}
