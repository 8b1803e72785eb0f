/**
 * A 大类 in a drawer: name, sort, team size, teachers, 普通组/专业组 with the 专业组 majors,
 * required attachments, description and the scoring standard. Server refusals (e.g. the
 * rubric sum) land on the field they name.
 */
import { useDrawerForm } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { Button, Col, Divider, Drawer, Form, Input, InputNumber, Row, Space, Switch } from "antd";
import {
  MAX_AUTHORS,
  MAX_TEACHERS,
  type WorkTypeCreate,
  type WorkTypeUpdate,
  type WorkTypeView,
} from "../../shared/work-type/schema";
import { formNotices } from "../crud/notify";
import { AttachmentsField } from "./AttachmentsField";
import { MajorSelect } from "./MajorSelect";
import { DeductionsField, RubricField } from "./ScoringFields";

type Values = Required<
  Pick<
    WorkTypeCreate,
    | "name"
    | "minAuthors"
    | "maxAuthors"
    | "maxTeachers"
    | "hasProfessionalGroup"
    | "professionalMajors"
    | "requiredAttachments"
    | "rubric"
    | "deductions"
  >
> &
  Pick<WorkTypeCreate, "sort" | "description" | "teacherReviewRequired">;

export function useCategoryDrawer(action: "create" | "edit", onSaved: () => void) {
  return useDrawerForm<WorkTypeView, HttpError, WorkTypeCreate | WorkTypeUpdate>({
    resource: "workTypes",
    action,
    redirect: false,
    ...formNotices("作品大类"),
    onMutationSuccess: onSaved,
  });
}

const DEFAULTS: Partial<Values> = {
  minAuthors: 2,
  maxAuthors: MAX_AUTHORS,
  maxTeachers: MAX_TEACHERS,
  hasProfessionalGroup: false,
  professionalMajors: [],
  requiredAttachments: [],
  rubric: [],
  deductions: [],
};

function toBody(v: Values): WorkTypeCreate {
  return {
    name: v.name.trim(),
    ...(typeof v.sort === "number" ? { sort: v.sort } : {}),
    description: v.description?.trim() || null,
    minAuthors: v.minAuthors,
    maxAuthors: v.maxAuthors,
    maxTeachers: v.maxTeachers,
    hasProfessionalGroup: !!v.hasProfessionalGroup,
    professionalMajors: v.hasProfessionalGroup ? (v.professionalMajors ?? []) : [],
    requiredAttachments: (v.requiredAttachments ?? []).map((a) => ({
      ...a,
      required: !!a.required,
      types: a.types.map((t) => t.trim().replace(/^\./, "").toLowerCase()),
    })),
    rubric: (v.rubric ?? []).map((r, i) => ({
      ...(r.id ? { id: r.id } : {}),
      name: r.name.trim(),
      maxPoints: r.maxPoints,
      description: r.description?.trim() || null,
      sort: i + 1,
    })),
    deductions: (v.deductions ?? []).map((d) => ({ name: d.name.trim(), points: d.points })),
    teacherReviewRequired: !!v.teacherReviewRequired,
  };
}

export function CategoryDrawer({ drawer, name }: { drawer: ReturnType<typeof useCategoryDrawer>; name: string }) {
  const record = drawer.query?.data?.data;
  const editing = drawer.id !== undefined;
  const form = drawer.form;
  const professional = Form.useWatch("hasProfessionalGroup", form) as boolean | undefined;
  return (
    <Drawer
      {...drawer.drawerProps}
      width={860}
      title={editing ? `编辑大类：${record?.name ?? ""}` : "新建大类"}
      extra={
        <Space>
          <Button onClick={drawer.close}>取消</Button>
          <Button type="primary" {...drawer.saveButtonProps} data-testid="category-save">
            保存
          </Button>
        </Space>
      }
    >
      <Form
        {...drawer.formProps}
        name={name}
        initialValues={editing ? record : DEFAULTS}
        layout="vertical"
        onFinish={(v) => Promise.resolve(drawer.formProps.onFinish?.(toBody(v as unknown as Values))).catch(() => undefined)}
        data-testid="category-form"
      >
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              name="name"
              label="大类名称"
              rules={[{ required: true, whitespace: true, max: 40, message: "请输入不超过 40 个字的名称" }]}
            >
              <Input />
            </Form.Item>
          </Col>
          <Col span={4}>
            <Form.Item name="sort" label="排序">
              <InputNumber min={0} max={9999} precision={0} style={{ width: "100%" }} placeholder="自动" />
            </Form.Item>
          </Col>
          <Col span={4}>
            <Form.Item name="minAuthors" label="最少作者" rules={[{ required: true, message: "必填" }]}>
              <InputNumber min={1} max={MAX_AUTHORS} precision={0} style={{ width: "100%" }} addonAfter="人" />
            </Form.Item>
          </Col>
          <Col span={4}>
            <Form.Item
              name="maxAuthors"
              label="最多作者"
              dependencies={["minAuthors"]}
              rules={[
                { required: true, message: "必填" },
                ({ getFieldValue }) => ({
                  validator: async (_, v: number) => {
                    if (typeof v === "number" && v < getFieldValue("minAuthors")) throw new Error("不能少于最少作者人数");
                  },
                }),
              ]}
            >
              <InputNumber min={1} max={MAX_AUTHORS} precision={0} style={{ width: "100%" }} addonAfter="人" />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="maxTeachers" label="最多指导教师" rules={[{ required: true, message: "必填" }]}>
              <InputNumber min={0} max={MAX_TEACHERS} precision={0} style={{ width: "100%" }} addonAfter="人" />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="hasProfessionalGroup" label="分普通组和专业组" valuePropName="checked">
              <Switch checkedChildren="分组" unCheckedChildren="不分" />
            </Form.Item>
          </Col>
          <Col span={12}>
            {professional && (
              <Form.Item
                name="professionalMajors"
                label="专业组专业"
                extra="作者的专业属于这些专业时归入专业组"
                rules={[{ required: true, type: "array", min: 1, message: "分组时至少选择一个专业" }]}
              >
                <MajorSelect />
              </Form.Item>
            )}
          </Col>
        </Row>
        <Form.Item
          name="teacherReviewRequired"
          label="指导老师自评"
          valuePropName="checked"
          extra="开启后，有指导教师的作品须先由指导教师填写「指导老师自评」才能提交；指导教师会在用户中心看到待办提醒"
        >
          <Switch checkedChildren="提交前必填" unCheckedChildren="不要求" data-testid="teacher-review-required" />
        </Form.Item>
        <Form.Item name="description" label="说明">
          <Input.TextArea rows={2} maxLength={2000} showCount />
        </Form.Item>
        <Divider orientation="left">提交材料</Divider>
        <AttachmentsField />
        <Divider orientation="left">评分标准（满分 100）</Divider>
        <RubricField />
        <Divider orientation="left">扣分项</Divider>
        <DeductionsField />
      </Form>
    </Drawer>
  );
}
