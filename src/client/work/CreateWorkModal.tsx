/**
 * A new work (a draft, the caller first author): an open contest, its 大类 and 小类, the
 * group when the 大类 splits into 普通组/专业组, the name, and optionally co-authors and
 * teachers found by name, 学号/工号 or username in the caller's school (each co-author
 * confirms on their own).
 */
import { useEffect, useState } from "react";
import { Alert, Form, Input, Modal, Radio, Select, Typography } from "antd";
import type { WorkCreate, WorkListItem, WorkView } from "../../shared/work/schema";
import { GROUP_NAMES, type WorkGroupKey } from "../../shared/work/fields";
import { useOpenContests, useWorkRefresh, workApi } from "./api";
import { useWorkAction } from "./use-work-action";
import { fmtTime } from "../format";
import { PeoplePicker } from "./components/PeoplePicker";

type Values = Pick<WorkCreate, "contestId" | "categoryId" | "subcategoryId" | "group" | "name" | "coAuthors" | "teachers">;

/** The create request for the form's values: trimmed names, 普通组 unless the 大类 has a 专业组. */
function createBody(v: Values, hasProfessionalGroup: boolean): WorkCreate {
  return {
    contestId: v.contestId,
    categoryId: v.categoryId,
    subcategoryId: v.subcategoryId ?? null,
    group: hasProfessionalGroup ? (v.group ?? "normal") : "normal",
    name: v.name.trim(),
    coAuthors: (v.coAuthors ?? []).map((s) => s.trim()).filter(Boolean),
    teachers: (v.teachers ?? []).map((s) => s.trim()).filter(Boolean),
  };
}

/** `afterClose` runs once the modal has closed and handed focus back to what opened it. */
export function CreateWorkModal({
  open,
  mine,
  onClose,
  onCreated,
  afterClose,
}: {
  open: boolean;
  mine: WorkListItem[];
  onClose: () => void;
  onCreated: (w: WorkView) => void;
  afterClose?: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const contests = useOpenContests(open);
  const run = useWorkAction();
  const refresh = useWorkRefresh();
  const [busy, setBusy] = useState(false);
  const contestId = Form.useWatch("contestId", form);
  const categoryId = Form.useWatch("categoryId", form);
  const list = contests.data ?? [];
  const contest = list.find((c) => c.id === contestId);
  const category = contest?.categories.find((c) => c.id === categoryId);

  useEffect(() => {
    if (open && list.length === 1 && !form.getFieldValue("contestId")) form.setFieldsValue({ contestId: list[0].id });
  }, [open, list, form]);

  /** 大类 in which I already have a work this year: one work per author per 大类. */
  const taken = (catId: number) =>
    mine.find((w) => w.category.id === catId && w.year === contest?.year && w.status !== "disqualified");

  const submit = async (v: Values) => {
    const body = createBody(v, !!category?.hasProfessionalGroup);
    setBusy(true);
    const reply = await run(workApi.create(body), { form });
    setBusy(false);
    if (reply.error === 0 && reply.data) {
      refresh(reply.data.id, reply.data);
      form.resetFields();
      onCreated(reply.data);
    }
  };

  return (
    <Modal
      open={open}
      title="新建作品"
      okText="创建作品"
      onOk={() => form.submit()}
      confirmLoading={busy}
      onCancel={onClose}
      afterClose={afterClose}
      destroyOnHidden
      width={640}
      data-testid="work-create-modal"
    >
      {contests.isError && <Alert type="error" showIcon message={contests.error.message} style={{ marginBottom: 16 }} />}
      {contests.data && !list.length && (
        <Alert
          type="warning"
          showIcon
          message="目前没有可以报名的赛事"
          description="报名期开始后再来创建作品；如有疑问请联系学校管理员。"
          style={{ marginBottom: 16 }}
        />
      )}
      <Form<Values> form={form} layout="vertical" onFinish={submit} initialValues={{ group: "normal" }} preserve={false}>
        <Form.Item
          name="contestId"
          label="参加赛事"
          rules={[{ required: true, message: "请选择赛事" }]}
          extra={contest && `报名截止：${fmtTime(contest.registrationEndsAt)}`}
        >
          <Select
            loading={contests.isLoading}
            options={list.map((c) => ({ value: c.id, label: c.name }))}
            onChange={() => form.setFieldsValue({ categoryId: undefined, subcategoryId: null })}
            data-testid="create-contest"
          />
        </Form.Item>
        <Form.Item
          name="categoryId"
          label="作品大类"
          rules={[{ required: true, message: "请选择作品大类" }]}
          extra="每位作者每个大类只能参加一件作品"
        >
          <Select
            disabled={!contest}
            showSearch
            optionFilterProp="label"
            options={(contest?.categories ?? []).map((c) => {
              const w = taken(c.id);
              return { value: c.id, label: w ? `${c.name}（已有作品《${w.name}》）` : c.name, disabled: !!w };
            })}
            onChange={() => form.setFieldsValue({ subcategoryId: null, group: "normal" })}
            data-testid="create-category"
          />
        </Form.Item>
        {!!category?.subcategories.length && (
          <Form.Item name="subcategoryId" label="作品小类" rules={[{ required: true, message: "请选择作品小类" }]}>
            <Select
              options={category.subcategories.map((s) => ({ value: s.id, label: s.name }))}
              data-testid="create-subcategory"
            />
          </Form.Item>
        )}
        {category?.hasProfessionalGroup && (
          <Form.Item
            name="group"
            label="组别"
            rules={[{ required: true }]}
            extra="有作者的专业属于本大类专业组专业的，须报专业组；否则报普通组"
          >
            <Radio.Group
              options={(Object.keys(GROUP_NAMES) as WorkGroupKey[]).map((g) => ({ value: g, label: GROUP_NAMES[g] }))}
            />
          </Form.Item>
        )}
        <Form.Item
          name="name"
          label="作品名称"
          rules={[
            { required: true, whitespace: true, message: "请填写作品名称" },
            { max: 100, message: "最多 100 个字" },
          ]}
        >
          <Input data-testid="create-name" />
        </Form.Item>
        <Form.Item
          name="coAuthors"
          label="合作作者（可稍后添加）"
          extra="按姓名、学号或用户名查找同校同学；您是第一作者，合作作者须本人登录确认。对方还没有账号的，创建作品后可在「团队」中用邮件邀请"
        >
          <PeoplePicker role="author" multiple maxCount={4} testId="create-coauthors" />
        </Form.Item>
        <Form.Item name="teachers" label="指导教师（可稍后添加）" extra="按姓名、工号或用户名查找本校教师">
          <PeoplePicker role="teacher" multiple maxCount={2} testId="create-teachers" />
        </Form.Item>
        <Typography.Text type="secondary">创建后为草稿，可继续填写作品信息、上传附件，全部完成后提交。</Typography.Text>
      </Form>
    </Modal>
  );
}
