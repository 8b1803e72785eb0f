/**
 * The AI-tool usage declaration inside a work form (Form.Item name `name`, default
 * "aiDeclaration"): whether AI tools were used and, if so, each tool with its version,
 * access and time, stage and purpose, key prompts and output, human edits and adoption %.
 */
import { Button, Card, Col, ConfigProvider, Form, Input, InputNumber, Radio, Row, Space, Typography } from "antd";
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import type { AiDeclaration, AiToolUse } from "../../../shared/work/schema";

export const EMPTY_TOOL: AiToolUse = {
  tool: "",
  version: "",
  access: "",
  purpose: "",
  prompts: "",
  output: "",
  edits: "",
  adoption: 0,
};

/** Form values → the API's declaration: unanswered → null; no tools when not used; strings trimmed. */
export function toAiDeclaration(
  v: { used?: boolean | null; tools?: Partial<AiToolUse>[] } | null | undefined,
): AiDeclaration | null {
  if (!v || v.used === undefined || v.used === null) return null;
  if (!v.used) return { used: false, tools: [] };
  return {
    used: true,
    tools: (v.tools ?? []).map((t) => ({
      tool: (t.tool ?? "").trim(),
      version: (t.version ?? "").trim(),
      access: (t.access ?? "").trim(),
      purpose: (t.purpose ?? "").trim(),
      prompts: t.prompts ?? "",
      output: t.output ?? "",
      edits: t.edits ?? "",
      adoption: t.adoption ?? 0,
    })),
  };
}

const req = (label: string) => ({ required: true, whitespace: true, message: `请填写${label}` });

function ToolCard({
  index,
  field,
  onRemove,
  disabled,
}: {
  index: number;
  field: number;
  onRemove: () => void;
  disabled?: boolean;
}) {
  return (
    <Card
      size="small"
      title={`AI工具 ${index + 1}`}
      extra={
        !disabled && (
          <Button type="text" danger size="small" icon={<DeleteOutlined />} onClick={onRemove}>
            删除
          </Button>
        )
      }
      data-testid="ai-tool"
    >
      <Row gutter={12}>
        <Col xs={24} md={8}>
          <Form.Item name={[field, "tool"]} label="工具名称" rules={[req("工具名称"), { max: 60 }]}>
            <Input placeholder="如：通义千问" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name={[field, "version"]} label="版本" rules={[{ max: 60 }]}>
            <Input placeholder="如：Qwen2.5" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name={[field, "adoption"]} label="采纳比例（%）" rules={[{ required: true, message: "请填写采纳比例" }]}>
            <InputNumber min={0} max={100} precision={0} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name={[field, "access"]} label="访问方式与使用时间" rules={[{ max: 200 }]}>
            <Input placeholder="如：网页版，2026 年 2 月" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name={[field, "purpose"]} label="使用阶段与用途" rules={[req("使用阶段与用途"), { max: 500 }]}>
            <Input placeholder="如：需求分析阶段整理访谈要点" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name={[field, "prompts"]} label="关键提示词" rules={[{ max: 2000 }]}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name={[field, "output"]} label="关键输出" rules={[{ max: 2000 }]}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name={[field, "edits"]} label="人工修改情况" rules={[{ max: 2000 }]} style={{ marginBottom: 0 }}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} placeholder="对 AI 输出做了哪些核对、修改和取舍" />
          </Form.Item>
        </Col>
      </Row>
    </Card>
  );
}

export function AiDeclarationForm({
  name = "aiDeclaration",
  disabled,
  extra,
}: {
  name?: string;
  disabled?: boolean;
  extra?: React.ReactNode;
}) {
  const used = Form.useWatch([name, "used"]);
  return (
    <ConfigProvider componentDisabled={disabled}>
      <div data-testid="ai-declaration">
        <Form.Item
          name={[name, "used"]}
          label="AI工具使用声明"
          extra={extra ?? "如实填写作品创作中使用 AI 工具的情况；虚假声明可能导致降低或取消奖项。"}
          rules={[{ required: false }]}
        >
          <Radio.Group>
            <Radio value={false}>未使用AI工具</Radio>
            <Radio value={true}>使用了AI工具</Radio>
          </Radio.Group>
        </Form.Item>
        {used === true && (
          <Form.List
            name={[name, "tools"]}
            rules={[
              {
                validator: async (_, tools?: unknown[]) =>
                  tools?.length ? undefined : Promise.reject(new Error("已声明使用 AI 工具，请至少填写一项工具的使用情况")),
              },
            ]}
          >
            {(fields, { add, remove }, { errors }) => (
              <Space direction="vertical" style={{ width: "100%", marginBottom: 16 }}>
                {fields.map((f, i) => (
                  <ToolCard key={f.key} index={i} field={f.name} disabled={disabled} onRemove={() => remove(f.name)} />
                ))}
                {!disabled && fields.length < 10 && (
                  <Button
                    type="dashed"
                    block
                    icon={<PlusOutlined />}
                    onClick={() => add({ ...EMPTY_TOOL })}
                    data-testid="ai-add-tool"
                  >
                    添加AI工具
                  </Button>
                )}
                <Form.ErrorList errors={errors} />
                {!fields.length && disabled && <Typography.Text type="secondary">未填写工具</Typography.Text>}
              </Space>
            )}
          </Form.List>
        )}
      </div>
    </ConfigProvider>
  );
}
