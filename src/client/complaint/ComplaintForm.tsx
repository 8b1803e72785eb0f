/**
 * Filing a 申诉 or 投诉. A logged-in user chooses the kind (申诉 only for an own work); a
 * visitor files a 投诉 with real name and phone under the verified email's token. The work is
 * named by its number and shown as the public result shows it, with the filing window
 * (WorkSummary.tsx).
 */
import { useState } from "react";
import { Alert, Button, Form, Input, InputNumber, Radio, Select } from "antd";
import type { ComplaintInfo, EvidenceView, FilerComplaintView } from "../../shared/complaint/schema";
import {
  CATEGORIES_OF,
  COMPLAINT_CATEGORY_NAMES,
  TEXT_MAX,
  type ComplaintCategory,
  type ComplaintType,
} from "../../shared/complaint/states";
import { isWorkId } from "../../shared/work/states";
import { fieldOf, post } from "../request";
import { FILING, PUBLIC, useComplaintWork } from "./api";
import { EvidenceUpload } from "./EvidenceUpload";
import { WorkSummary } from "./WorkSummary";
import { DEFAULT_LIMITS, textProblem } from "./logic";

interface Values {
  type: ComplaintType;
  workId: number;
  category: ComplaintCategory;
  text: string;
  name?: string;
  phone?: string;
}

interface Props {
  info?: ComplaintInfo;
  /** a visitor's token; none = the logged-in user files */
  token?: string;
  initial?: { type?: ComplaintType; workId?: number };
  onFiled: (v: FilerComplaintView) => void;
}

export function ComplaintForm({ info, token, initial, onFiled }: Props) {
  const [form] = Form.useForm<Values>();
  const [files, setFiles] = useState<EvidenceView[]>([]);
  const [busy, setBusy] = useState(false);
  const visitor = !!token;
  const type: ComplaintType = Form.useWatch("type", form) ?? initial?.type ?? "complaint";
  const workId: number | undefined = Form.useWatch("workId", form);
  const work = useComplaintWork(workId && isWorkId(workId) ? workId : undefined);
  const limits = info?.evidence ?? DEFAULT_LIMITS;

  const submit = async (v: Values) => {
    setBusy(true);
    const common = { workId: v.workId, category: v.category, text: v.text.trim(), evidence: files.map((f) => f.id) };
    const reply = visitor
      ? await post<FilerComplaintView>(PUBLIC, { ...common, token, name: v.name!.trim(), phone: v.phone!.trim() })
      : await post<FilerComplaintView>(`${FILING}/mine`, { ...common, type: v.type });
    setBusy(false);
    if (reply.error === 0 && reply.data) {
      form.resetFields();
      setFiles([]);
      onFiled(reply.data);
    } else {
      const field = fieldOf(reply) as keyof Values | undefined;
      if (field && ["workId", "category", "text", "name", "phone"].includes(field))
        form.setFields([{ name: field, errors: [reply.info] }]);
    }
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      style={{ maxWidth: 720 }}
      initialValues={{ type: initial?.type ?? "complaint", workId: initial?.workId }}
      onFinish={(v) => void submit(v)}
      onValuesChange={(c) => c.type && form.setFieldValue("category", undefined)}
      data-testid="complaint-form"
    >
      {!visitor && (
        <Form.Item
          label="类型"
          name="type"
          extra={
            type === "appeal"
              ? "申诉：作品的作者或指导教师对本作品的审查、评审结果或奖项提出异议。"
              : "投诉：对已公示结果中的作品反映违规问题（抄袭、重复参赛、材料虚假等）。您的身份不会告知被投诉作品的作者、教师和学校。"
          }
        >
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={[
              { value: "appeal", label: "申诉（本人作品）" },
              { value: "complaint", label: "投诉（他人作品）" },
            ]}
          />
        </Form.Item>
      )}
      <Form.Item
        label="作品编号"
        name="workId"
        rules={[
          { required: true, message: "请输入作品编号" },
          {
            validator: (_, v) =>
              !v || isWorkId(Number(v)) ? Promise.resolve() : Promise.reject(new Error("作品编号为 10 位数字，如 2026000123")),
          },
        ]}
      >
        <InputNumber style={{ width: 240 }} controls={false} placeholder="如 2026000123" data-testid="complaint-work-id" />
      </Form.Item>
      {work.data && <WorkSummary w={work.data} />}
      {work.isError && type === "complaint" && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={work.error.message} />
      )}
      <Form.Item label="事由" name="category" rules={[{ required: true, message: "请选择事由" }]}>
        <Select
          style={{ width: 320 }}
          placeholder="请选择"
          options={CATEGORIES_OF[visitor ? "complaint" : type].map((c) => ({ value: c, label: COMPLAINT_CATEGORY_NAMES[c] }))}
          data-testid="complaint-category"
        />
      </Form.Item>
      <Form.Item
        label={type === "appeal" && !visitor ? "申诉内容" : "投诉内容"}
        name="text"
        required
        rules={[
          {
            validator: (_, v) => {
              const p = textProblem(v, "内容");
              return p ? Promise.reject(new Error(p)) : Promise.resolve();
            },
          },
        ]}
        extra="请写明事实、理由和请求；涉及他人作品的，请说明与哪件作品、哪些内容相同或相似。"
      >
        <Input.TextArea rows={6} maxLength={TEXT_MAX} showCount data-testid="complaint-text" />
      </Form.Item>
      {visitor && (
        <>
          <Form.Item
            label="真实姓名"
            name="name"
            rules={[
              { required: true, message: "请输入真实姓名" },
              { min: 2, max: 30, message: "姓名为 2–30 个字" },
            ]}
          >
            <Input style={{ width: 240 }} autoComplete="name" data-testid="complaint-name" />
          </Form.Item>
          <Form.Item
            label="手机号"
            name="phone"
            rules={[
              { required: true, message: "请输入手机号" },
              { pattern: /^1[3-9][0-9]{9}$/, message: "请输入 11 位手机号" },
            ]}
          >
            <Input style={{ width: 240 }} maxLength={11} autoComplete="tel" data-testid="complaint-phone" />
          </Form.Item>
        </>
      )}
      <Form.Item label="证据材料">
        <EvidenceUpload
          url={visitor ? `${PUBLIC}/evidence` : `${FILING}/evidence`}
          fields={visitor ? { token: token! } : {}}
          limits={limits}
          files={files}
          onChange={setFiles}
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} data-testid="complaint-submit">
        提交{visitor || type === "complaint" ? "投诉" : "申诉"}
      </Button>
    </Form>
  );
}
