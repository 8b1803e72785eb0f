/** The materials a work of the 大类 must or may submit: key, name, required, size limit, file types. */
import { Button, Checkbox, Form, Input, InputNumber, Select, Space } from "antd";
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";

const COMMON_TYPES = ["pdf", "doc", "docx", "ppt", "pptx", "zip", "rar", "7z", "mp4", "jpg", "png"];

export function AttachmentsField() {
  return (
    <Form.List name="requiredAttachments">
      {(fields, { add, remove }, { errors }) => (
        <div data-testid="attachments">
          {fields.map((f) => (
            <Space key={f.key} align="start" wrap style={{ display: "flex" }}>
              <Form.Item
                name={[f.name, "key"]}
                rules={[{ required: true, pattern: /^[a-z][a-z0-9_]{0,31}$/, message: "小写字母开头，字母、数字或 _" }]}
                style={{ marginBottom: 8 }}
              >
                <Input placeholder="标识，如 video" style={{ width: 120 }} />
              </Form.Item>
              <Form.Item
                name={[f.name, "name"]}
                rules={[{ required: true, whitespace: true, message: "请输入材料名称" }]}
                style={{ marginBottom: 8 }}
              >
                <Input placeholder="名称，如 作品演示视频" style={{ width: 170 }} maxLength={30} />
              </Form.Item>
              <Form.Item name={[f.name, "required"]} valuePropName="checked" style={{ marginBottom: 8 }}>
                <Checkbox>必交</Checkbox>
              </Form.Item>
              <Form.Item
                name={[f.name, "maxSizeMB"]}
                rules={[{ required: true, message: "请输入大小上限" }]}
                style={{ marginBottom: 8 }}
              >
                <InputNumber min={1} max={4096} precision={0} addonAfter="MB" style={{ width: 130 }} />
              </Form.Item>
              <Form.Item
                name={[f.name, "types"]}
                rules={[{ required: true, type: "array", min: 1, message: "请填写文件类型" }]}
                style={{ marginBottom: 8 }}
              >
                <Select
                  mode="tags"
                  placeholder="文件类型"
                  style={{ width: 200 }}
                  tokenSeparators={[",", "，", " "]}
                  options={COMMON_TYPES.map((t) => ({ value: t, label: t }))}
                />
              </Form.Item>
              <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label="删除材料" />
            </Space>
          ))}
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            onClick={() => add({ key: "", name: "", required: true, maxSizeMB: 100, types: ["pdf"] })}
          >
            添加提交材料
          </Button>
          <Form.ErrorList errors={errors} />
        </div>
      )}
    </Form.List>
  );
}
