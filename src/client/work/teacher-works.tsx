/**
 * /teacher/WorkManagement (teachers): the works I advise, read-only with a link to the
 * full view (/workDetail/:id), and my self-evaluation (指导老师自评) in a drawer; once a
 * result is published, my certificates (获奖证书, e.g. 优秀指导教师: download, verify).
 */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { Alert, Button, Card, Input, Select, Space, Table, Typography } from "antd";
import { FormOutlined } from "@ant-design/icons";
import type { PageOf } from "../../shared/crud/list";
import type { WorkListItem } from "../../shared/work/schema";
import { isEditable, type WorkState } from "../../shared/work/states";
import type { PageProps } from "../routing/model";
import { workKeys } from "./api";
import { fetchData } from "../request";
import { StatusTag, STATUS_OPTIONS } from "./components/StatusTag";
import { TeacherReviewDrawer } from "./TeacherReviewDrawer";
import { fmtTime } from "../format";
import { appealPath, canAppealWork } from "../complaint/logic";
import { MyCertificatesCard, WorkCertificatesButton } from "../certificate/MyCertificates";

export default function TeacherWorks({ route }: PageProps) {
  const [page, setPage] = useState({ current: 1, pageSize: 20 });
  const [keyword, setKeyword] = useState("");
  const [status, setStatus] = useState<WorkState[]>([]);
  // The to-do centre links here with ?review=<work id>: that work's self-evaluation opens.
  const [search] = useSearchParams();
  const [open, setOpen] = useState<number | undefined>(Number(search.get("review")) || undefined);
  const params = { ...page, sort: "-createdAt", keyword: keyword || undefined, status };
  const query = useQuery({
    queryKey: [...workKeys.advised, params],
    queryFn: () => fetchData<PageOf<WorkListItem>>("/Backend/Teacher/work", params),
    placeholderData: (prev) => prev,
  });

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Card title={route.label}>
        <Space style={{ marginBottom: 16 }} wrap>
          <Input.Search
            allowClear
            placeholder="作品编号或名称"
            aria-label="作品编号或名称"
            style={{ width: 240 }}
            onSearch={(v) => (setKeyword(v.trim()), setPage((p) => ({ ...p, current: 1 })))}
          />
          <Select
            mode="multiple"
            allowClear
            placeholder="状态"
            aria-label="状态"
            style={{ minWidth: 200 }}
            options={STATUS_OPTIONS}
            value={status}
            onChange={(v) => (setStatus(v), setPage((p) => ({ ...p, current: 1 })))}
          />
        </Space>
        {query.isError && <Alert type="error" showIcon message={query.error.message} style={{ marginBottom: 16 }} />}
        <Table<WorkListItem>
          dataSource={query.data?.list ?? []}
          rowKey="id"
          loading={query.isFetching}
          size="middle"
          data-testid="advised-works"
          pagination={{
            current: page.current,
            pageSize: page.pageSize,
            total: query.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (t) => `共 ${t} 件`,
            onChange: (current, pageSize) => setPage({ current, pageSize }),
          }}
          scroll={{ x: 960 }}
        >
          <Table.Column<WorkListItem> dataIndex="id" title="作品编号" width={120} />
          <Table.Column<WorkListItem>
            dataIndex="name"
            title="作品名称"
            render={(v, w) => <Link to={`/workDetail/${w.id}`}>{v}</Link>}
          />
          <Table.Column<WorkListItem>
            title="大类 / 小类"
            render={(_, w) => `${w.category.name}${w.subcategory ? ` / ${w.subcategory.name}` : ""}`}
          />
          <Table.Column<WorkListItem> dataIndex="authorNames" title="作者" />
          <Table.Column<WorkListItem>
            title="赛事"
            render={(_, w) => <Typography.Text style={{ fontSize: 12 }}>{w.contest.name}</Typography.Text>}
          />
          <Table.Column<WorkListItem>
            title="状态"
            width={150}
            render={(_, w) => <StatusTag status={w.status} name={w.statusName} />}
          />
          <Table.Column<WorkListItem> dataIndex="updatedAt" title="更新时间" width={140} render={(v: string) => fmtTime(v)} />
          <Table.Column<WorkListItem>
            title="操作"
            width={260}
            render={(_, w) => (
              <Space size={[8, 0]} wrap>
                <Button
                  type="link"
                  size="small"
                  icon={<FormOutlined />}
                  onClick={() => setOpen(w.id)}
                  data-testid="advised-review"
                >
                  {isEditable(w.status) ? "填写自评" : "查看自评"}
                </Button>
                <Link to={`/workDetail/${w.id}`}>详情</Link>
                {canAppealWork(w.status) && (
                  <Link to={appealPath(w.id)} style={{ marginLeft: 8 }} data-testid="work-appeal">
                    申诉
                  </Link>
                )}
                <WorkCertificatesButton workId={w.id} />
              </Space>
            )}
          />
        </Table>
        <TeacherReviewDrawer workId={open} onClose={() => setOpen(undefined)} />
      </Card>
      <MyCertificatesCard />
    </Space>
  );
}
