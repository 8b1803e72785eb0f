/**
 * The scoring standard of a 大类: rubric items (name, max points, description) whose max
 * points must sum to 100 — shown live and checked before saving — and deductions.
 */
import { Button, Form, Input, InputNumber, Space, Typography } from "antd";
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { RUBRIC_TOTAL, type RubricItemInput } from "../../shared/work-type/schema";

export const rubricSum = (items: (Partial<RubricItemInput> | undefined)[] | undefined) =>
  (items ?? []).reduce((s, i) => s + (typeof i?.maxPoints === "number" ? i.maxPoints : 0), 0);

export function RubricField() {
  const form = Form.useFormInstance();
  const items = Form.useWatch("rubric", form) as Partial<RubricItemInput>[] | undefined;
  const sum = rubricSum(items);
  return (
    <Form.List
      name="rubric"
      rules={[
        {
          validator: async (_, list: Partial<RubricItemInput>[] | undefined) => {
            if (!list?.length) throw new Error("请至少填写一个评分项");
            const total = rubricSum(list);
            if (total !== RUBRIC_TOTAL) throw new Error(`各评分项满分之和须为 ${RUBRIC_TOTAL} 分，当前为 ${total} 分`);
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <div data-testid="rubric">
          {fields.map((f, i) => (
            <Space key={f.key} align="start" style={{ display: "flex" }}>
              <Typography.Text type="secondary" style={{ lineHeight: "32px", width: 20 }}>
                {i + 1}
              </Typography.Text>
              <Form.Item
                name={[f.name, "name"]}
                rules={[{ required: true, whitespace: true, message: "请输入评分项名称" }]}
                style={{ marginBottom: 8 }}
              >
                <Input placeholder="评分项，如 主题与内容" style={{ width: 180 }} maxLength={40} />
              </Form.Item>
              <Form.Item
                name={[f.name, "maxPoints"]}
                rules={[{ required: true, message: "请输入满分" }]}
                style={{ marginBottom: 8 }}
              >
                <InputNumber min={1} max={100} precision={0} addonAfter="分" style={{ width: 110 }} placeholder="满分" />
              </Form.Item>
              <Form.Item name={[f.name, "description"]} style={{ marginBottom: 8 }}>
                <Input placeholder="评分说明" style={{ width: 270 }} maxLength={1000} />
              </Form.Item>
              <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label="删除评分项" />
            </Space>
          ))}
          <Space>
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() => add({ name: "", maxPoints: undefined, description: "" })}
            >
              添加评分项
            </Button>
            <Typography.Text type={sum === RUBRIC_TOTAL ? "success" : "danger"} data-testid="rubric-sum">
              合计 {sum} / {RUBRIC_TOTAL} 分
            </Typography.Text>
          </Space>
          <Form.ErrorList errors={errors} />
        </div>
      )}
    </Form.List>
  );
}

export function DeductionsField() {
  return (
    <Form.List name="deductions">
      {(fields, { add, remove }, { errors }) => (
        <div data-testid="deductions">
          {fields.map((f) => (
            <Space key={f.key} align="start" style={{ display: "flex" }}>
              <Form.Item
                name={[f.name, "name"]}
                rules={[{ required: true, whitespace: true, message: "请输入扣分项" }]}
                style={{ marginBottom: 8 }}
              >
                <Input placeholder="扣分项，如 非原创" style={{ width: 220 }} maxLength={40} />
              </Form.Item>
              <Form.Item
                name={[f.name, "points"]}
                rules={[{ required: true, message: "请输入扣分" }]}
                style={{ marginBottom: 8 }}
              >
                <InputNumber min={1} max={100} precision={0} addonBefore="−" addonAfter="分" style={{ width: 150 }} />
              </Form.Item>
              <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label="删除扣分项" />
            </Space>
          ))}
          <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: "", points: 10 })}>
            添加扣分项
          </Button>
          <Form.ErrorList errors={errors} />
        </div>
      )}
    </Form.List>
  );
}
