/**
 * The properties of one template field: position and width in mm, font size in points,
 * alignment, bold, lines, colour, and for 标题/正文 the fixed text with placeholders (a click
 * on a placeholder inserts it). Every change goes straight to the draft (the preview follows).
 */
import { useRef, type ReactNode } from "react";
import { ColorPicker, Flex, Input, InputNumber, Radio, Select, Space, Switch, Tag, Typography } from "antd";
import type { TextAreaRef } from "antd/es/input/TextArea";
import {
  FIELD_NAMES,
  TEXT_FIELDS,
  type Align,
  type TemplateField,
  type TextField,
  type TextFieldKey,
} from "../../shared/certificate/layout";

/** The placeholders a 标题/正文 text may use. */
export const PLACEHOLDERS = [
  "holderName",
  "schoolName",
  "workTitle",
  "categoryName",
  "awardName",
  "contestName",
  "contestDate",
  "number",
] as const;

const Row = ({ label, children }: { label: string; children: ReactNode }) => (
  <Flex align="center" gap={8} style={{ marginBottom: 8 }}>
    <Typography.Text type="secondary" style={{ width: 72, flex: "none" }}>
      {label}
    </Typography.Text>
    <div style={{ flex: 1 }}>{children}</div>
  </Flex>
);

const mmInput = (value: number, onChange: (v: number) => void, testId: string, min = -1000, max = 1000) => (
  <InputNumber
    size="small"
    value={value}
    min={min}
    max={max}
    step={0.5}
    precision={1}
    addonAfter="mm"
    style={{ width: 130 }}
    onChange={(v) => v !== null && onChange(v)}
    data-testid={testId}
  />
);

export function FieldForm({
  field,
  onChange,
  problems,
}: {
  field: TemplateField;
  onChange: (f: TemplateField) => void;
  problems: string[];
}) {
  const text = useRef<TextAreaRef>(null);
  const set = (patch: Partial<TextField>) => onChange({ ...(field as TextField), ...patch });
  return (
    <div data-testid="cert-field-form">
      {field.key === "qr" ? (
        <>
          <Row label="字段">
            <Typography.Text strong>{FIELD_NAMES.qr}</Typography.Text>
          </Row>
          <Row label="位置">
            <Space>
              {mmInput(field.x, (x) => onChange({ ...field, x }), "cert-field-x")}
              {mmInput(field.y, (y) => onChange({ ...field, y }), "cert-field-y")}
            </Space>
          </Row>
          <Row label="边长">{mmInput(field.size, (size) => onChange({ ...field, size }), "cert-field-size", 0)}</Row>
          <Typography.Text type="secondary">扫描二维码打开证书核验页，编号和验证码已填好；边长不小于 15 mm。</Typography.Text>
        </>
      ) : (
        <>
          <Row label="字段">
            <Select<TextFieldKey>
              size="small"
              style={{ width: 160 }}
              value={field.key}
              options={TEXT_FIELDS.map((k) => ({ value: k, label: FIELD_NAMES[k] }))}
              onChange={(key) => set({ key, text: key === "title" || key === "body" ? (field.text ?? "") : undefined })}
              data-testid="cert-field-key"
            />
          </Row>
          <Row label="位置">
            <Space>
              {mmInput(field.x, (x) => set({ x }), "cert-field-x")}
              {mmInput(field.y, (y) => set({ y }), "cert-field-y")}
            </Space>
          </Row>
          <Row label="宽度">{mmInput(field.width, (width) => set({ width }), "cert-field-width", 0)}</Row>
          <Row label="字号">
            <Space>
              <InputNumber
                size="small"
                value={field.fontSize}
                min={1}
                max={200}
                step={1}
                precision={1}
                addonAfter="磅"
                style={{ width: 110 }}
                onChange={(v) => v !== null && set({ fontSize: v })}
                data-testid="cert-field-font"
              />
              <Switch size="small" checked={!!field.bold} onChange={(bold) => set({ bold: bold || undefined })} />
              <span>加粗</span>
            </Space>
          </Row>
          <Row label="对齐">
            <Radio.Group
              size="small"
              value={field.align}
              onChange={(e) => set({ align: e.target.value as Align })}
              optionType="button"
              options={[
                { value: "left", label: "左" },
                { value: "center", label: "居中" },
                { value: "right", label: "右" },
              ]}
            />
          </Row>
          <Row label="行数">
            <Space>
              <InputNumber
                size="small"
                value={field.maxLines ?? 1}
                min={1}
                max={4}
                precision={0}
                style={{ width: 70 }}
                onChange={(v) => v !== null && set({ maxLines: v > 1 ? v : undefined })}
                data-testid="cert-field-lines"
              />
              <Typography.Text type="secondary">最多换行到这么多行，仍放不下时缩小字号</Typography.Text>
            </Space>
          </Row>
          <Row label="颜色">
            <ColorPicker
              size="small"
              disabledAlpha
              value={field.color ?? "#000000"}
              onChangeComplete={(c) => set({ color: c.toHexString() === "#000000" ? undefined : c.toHexString() })}
              presets={[{ label: "常用", colors: ["#000000", "#a8071a", "#ad6800", "#003a8c", "#595959"] }]}
            />
          </Row>
          {(field.key === "title" || field.key === "body") && (
            <>
              <Row label="文字">
                <Input.TextArea
                  ref={text}
                  rows={2}
                  maxLength={200}
                  showCount
                  value={field.text ?? ""}
                  onChange={(e) => set({ text: e.target.value })}
                  data-testid="cert-field-text"
                />
              </Row>
              <Row label="插入">
                <Flex wrap gap={4}>
                  {PLACEHOLDERS.map((p) => (
                    <Tag
                      key={p}
                      style={{ cursor: "pointer" }}
                      onClick={() => {
                        const el = text.current?.resizableTextArea?.textArea;
                        const cur = field.text ?? "";
                        const at = el ? el.selectionStart : cur.length;
                        const end = el ? el.selectionEnd : cur.length;
                        set({ text: `${cur.slice(0, at)}{${p}}${cur.slice(end)}`.slice(0, 200) });
                      }}
                    >
                      {FIELD_NAMES[p]}
                    </Tag>
                  ))}
                </Flex>
              </Row>
            </>
          )}
        </>
      )}
      {problems.map((p) => (
        <Typography.Paragraph key={p} type="danger" style={{ margin: "4px 0 0" }} data-testid="cert-field-problem">
          {p}
        </Typography.Paragraph>
      ))}
    </div>
  );
}

/** A new field of `key` somewhere in the middle of the page. */
export function newField(key: TextFieldKey | "qr", page: { width: number; height: number }): TemplateField {
  if (key === "qr") return { key, x: 25, y: page.height - 50, size: 26 };
  const text = key === "title" ? "荣誉证书" : key === "body" ? "{holderName}" : undefined;
  return {
    key,
    x: 25,
    y: Math.round(page.height / 2),
    width: page.width - 50,
    fontSize: 16,
    align: "center",
    ...(text ? { text } : {}),
  };
}
