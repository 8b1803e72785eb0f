/**
 * An advised work for its teacher: a read-only summary and the teacher's self-evaluation
 * (指导老师自评), editable while the work is a draft or returned and the field is not
 * locked; saved with the work's version.
 */
import { useEffect, useRef, useState } from "react";
import { Alert, Button, Descriptions, Drawer, Form, Input, Result, Skeleton, Space, Typography } from "antd";
import { Link } from "react-router";
import type { WorkView } from "../../shared/work/schema";
import { useWork, useWorkRefresh, workApi } from "./api";
import { StatusTag } from "./components/StatusTag";
import { lockOf, lockText } from "./components/WorkForm";
import { newerOf, useSaveConflict } from "./components/save-conflict";
import { useWorkAction } from "./use-work-action";

const text = (v: string | null) =>
  v ? (
    <Typography.Paragraph
      style={{ whiteSpace: "pre-wrap", margin: 0 }}
      ellipsis={{ rows: 4, expandable: "collapsible", symbol: (e) => (e ? "收起" : "展开") }}
    >
      {v}
    </Typography.Paragraph>
  ) : (
    <Typography.Text type="secondary">未填写</Typography.Text>
  );

function ReviewForm({ work, reload }: { work: WorkView; reload: () => void }) {
  const [form] = Form.useForm<{ teacherReview: string }>();
  const run = useWorkAction();
  const refresh = useWorkRefresh();
  const conflict = useSaveConflict();
  const [busy, setBusy] = useState(false);
  const lock = lockOf(work, "teacherReview");
  const editable = work.viewer.canEditTeacherReview && !lock;
  /** the text to keep when the newer version of a refused save arrives with another 自评 */
  const keep = useRef<{ teacherReview: string } | null>(null);
  useEffect(() => {
    form.setFieldsValue(keep.current ?? { teacherReview: work.teacherReview ?? "" });
    keep.current = null;
  }, [work.id, work.teacherReview, form]);

  const save = async ({ teacherReview }: { teacherReview: string }) => {
    setBusy(true);
    const sent = await workApi.teacherReview(work.id, teacherReview.trim() ? teacherReview.trim() : null, work.version);
    const newer = newerOf(sent);
    if (newer) {
      setBusy(false);
      // Someone saved first (the first author, another teacher): the text typed here is not lost.
      return conflict({
        info: sent.info,
        base: { teacherReview: work.teacherReview ?? "" },
        mine: { teacherReview },
        theirs: { teacherReview: newer.teacherReview ?? "" },
        label: () => "指导老师自评",
        apply: (values) => {
          if ((newer.teacherReview ?? "") !== (work.teacherReview ?? "")) keep.current = values;
          form.setFieldsValue(values);
          refresh(work.id, newer);
        },
      });
    }
    const r = await run(Promise.resolve(sent), { reload, form });
    setBusy(false);
    if (r.error === 0 && r.data) refresh(work.id, r.data);
  };
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={save}
      disabled={!editable}
      initialValues={{ teacherReview: work.teacherReview ?? "" }}
    >
      {lock && <Alert type="warning" showIcon message={lockText(lock)} style={{ marginBottom: 12 }} />}
      {!lock && !work.viewer.canEditTeacherReview && (
        <Alert
          type="info"
          showIcon
          message={`作品当前状态为「${work.statusName}」，指导老师自评只能在草稿或退回修改时填写`}
          style={{ marginBottom: 12 }}
        />
      )}
      <Form.Item name="teacherReview" label="指导老师自评" rules={[{ max: 5000, message: "最多 5000 个字" }]}>
        <Input.TextArea
          autoSize={{ minRows: 6, maxRows: 16 }}
          showCount
          maxLength={5000}
          placeholder="对作品的选题、完成情况、创新点和学生工作的评价"
          data-testid="teacher-review"
        />
      </Form.Item>
      {editable && (
        <Button type="primary" htmlType="submit" loading={busy} data-testid="teacher-review-save">
          保存自评
        </Button>
      )}
    </Form>
  );
}

export function TeacherReviewDrawer({ workId, onClose }: { workId?: number; onClose: () => void }) {
  const query = useWork(workId);
  const [gen, setGen] = useState(0);
  const w = query.data;
  const reload = () => void query.refetch().then(() => setGen((g) => g + 1));
  return (
    <Drawer
      open={!!workId}
      onClose={onClose}
      width={820}
      destroyOnHidden
      data-testid="teacher-drawer"
      title={
        w ? (
          <Space wrap>
            {w.name}
            <StatusTag status={w.status} name={w.statusName} />
          </Space>
        ) : (
          "作品"
        )
      }
      extra={w && <Link to={`/workDetail/${w.id}`}>查看作品详情</Link>}
    >
      {query.isLoading ? (
        <Skeleton active />
      ) : !w ? (
        <Result status="warning" title="作品无法打开" subTitle={query.error?.message} />
      ) : (
        <Space direction="vertical" size={16} style={{ width: "100%" }}>
          <Descriptions bordered size="small" column={2}>
            <Descriptions.Item label="作品编号">{w.id}</Descriptions.Item>
            <Descriptions.Item label="赛事">{w.contest.name}</Descriptions.Item>
            <Descriptions.Item label="大类 / 小类">
              {w.category.name}
              {w.subcategory ? ` / ${w.subcategory.name}` : ""}
            </Descriptions.Item>
            <Descriptions.Item label="组别">{w.groupName}</Descriptions.Item>
            <Descriptions.Item label="作者" span={2}>
              {w.authors.map((a) => `${a.name}${a.confirmed ? "" : "（待确认）"}`).join("、")}
            </Descriptions.Item>
            <Descriptions.Item label="指导教师" span={2}>
              {w.teachers.map((t) => t.name).join("、") || "—"}
            </Descriptions.Item>
            <Descriptions.Item label="作品简介" span={2}>
              {text(w.summary)}
            </Descriptions.Item>
            <Descriptions.Item label="设计思路" span={2}>
              {text(w.designIdea)}
            </Descriptions.Item>
            <Descriptions.Item label="设计重点和难点" span={2}>
              {text(w.keyPoints)}
            </Descriptions.Item>
          </Descriptions>
          {w.returnReason && (w.status === "returned" || w.status === "format_returned") && (
            <Alert type="warning" showIcon message="作品被退回修改" description={`原因：${w.returnReason}`} />
          )}
          <ReviewForm key={`${w.id}-${gen}`} work={w} reload={reload} />
        </Space>
      )}
    </Drawer>
  );
}
