/**
 * The cards of the certificate template editor (TemplateTab.tsx): 纸张与底图, the field list,
 * the selected field's properties and the live preview with 保存 / 恢复默认 / 预览 PDF.
 */
import { Alert, Button, Card, Dropdown, Empty, Flex, List, Radio, Space, Tag, Typography, Upload } from "antd";
import {
  DeleteOutlined,
  EyeOutlined,
  PictureOutlined,
  PlusOutlined,
  SaveOutlined,
  UndoOutlined,
  WarningOutlined,
} from "@ant-design/icons";
import { FIELD_NAMES, ORIENTATIONS, ORIENTATION_NAMES, type Orientation } from "../../shared/certificate/layout";
import type { TemplateView } from "../../shared/certificate/print-schema";
import { fmtTime } from "../format";
import { FieldForm } from "./FieldForm";
import { ScaledPreview } from "./ScaledPreview";
import { reorient, type TemplateEditorState } from "./use-template-editor";

const MAX_FIELDS = 30;

/** Orientation and background image. */
export function PaperCard({ ed }: { ed: TemplateEditorState }) {
  const { kind, draft, update, upload, uploading } = ed;
  return (
    <Card size="small" title="纸张与底图" style={{ marginBottom: 12 }}>
      <Space direction="vertical" style={{ width: "100%" }}>
        <Radio.Group
          value={draft.orientation}
          optionType="button"
          options={ORIENTATIONS.map((o) => ({ value: o, label: ORIENTATION_NAMES[o] }))}
          onChange={(e) => update(reorient(kind, draft, e.target.value as Orientation))}
          data-testid="cert-template-orientation"
        />
        <Space wrap>
          <Upload accept="image/png,image/jpeg" showUploadList={false} beforeUpload={(f) => (void upload(f), false)}>
            <Button icon={<PictureOutlined />} loading={uploading} data-testid="cert-template-upload">
              {draft.backgroundSha256 ? "更换底图" : "上传底图"}
            </Button>
          </Upload>
          {draft.backgroundSha256 && (
            <Button icon={<DeleteOutlined />} onClick={() => update({ ...draft, backgroundSha256: null })}>
              去掉底图
            </Button>
          )}
        </Space>
        <Typography.Text type="secondary">
          底图为印好的空白证书扫描件（PNG 或 JPEG，≤ 10
          MB，按整页铺满），字段叠印在上面；打印到印好的证书纸上时，打印前可去掉底图。
        </Typography.Text>
      </Space>
    </Card>
  );
}

/** The field list: 添加字段, layout-wide problems, select or remove a field. */
export function FieldsCard({ ed }: { ed: TemplateEditorState }) {
  const { draft, addable, addField, general, selected, setSelected, removeField, problemFields } = ed;
  return (
    <Card
      size="small"
      title={`字段（${draft.fields.length}）`}
      style={{ marginBottom: 12 }}
      extra={
        <Dropdown
          disabled={draft.fields.length >= MAX_FIELDS}
          menu={{ items: addable.map((k) => ({ key: k, label: FIELD_NAMES[k] })), onClick: (e) => addField(e.key) }}
        >
          <Button size="small" icon={<PlusOutlined />} data-testid="cert-field-add">
            添加字段
          </Button>
        </Dropdown>
      }
    >
      {general.map((p) => (
        <Alert
          key={p.message}
          type="error"
          showIcon
          message={p.message}
          style={{ marginBottom: 8 }}
          data-testid="cert-template-problem"
        />
      ))}
      <List
        size="small"
        dataSource={draft.fields}
        data-testid="cert-field-list"
        renderItem={(f, i) => (
          <List.Item
            onClick={() => setSelected(i)}
            style={{ cursor: "pointer", background: selected === i ? "#e6f4ff" : undefined, paddingLeft: 8 }}
            actions={[
              <Button
                key="del"
                size="small"
                type="text"
                danger
                icon={<DeleteOutlined />}
                onClick={(e) => (e.stopPropagation(), removeField(i))}
                aria-label="删除字段"
                data-testid="cert-field-remove"
              />,
            ]}
          >
            <Flex gap={8} align="center" style={{ width: "100%", minWidth: 0 }}>
              {problemFields.has(i) && <WarningOutlined style={{ color: "#ff4d4f" }} />}
              <Typography.Text strong={selected === i} style={{ flex: "none" }}>
                {FIELD_NAMES[f.key]}
              </Typography.Text>
              <Typography.Text type="secondary" ellipsis style={{ flex: 1, minWidth: 0 }}>
                {f.key === "title" || f.key === "body" ? f.text : ""}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: 12, flex: "none" }}>
                {f.x}, {f.y} mm
              </Typography.Text>
            </Flex>
          </List.Item>
        )}
      />
    </Card>
  );
}

/** The selected field's properties and its problems. */
export function FieldPropsCard({ ed }: { ed: TemplateEditorState }) {
  const { field, selected, setField, problems } = ed;
  return (
    <Card size="small" title={field ? `字段属性：${FIELD_NAMES[field.key]}` : "字段属性"}>
      {field && selected !== null ? (
        <FieldForm
          field={field}
          onChange={(f) => setField(selected, f)}
          problems={problems.filter((p) => p.field === selected).map((p) => p.message)}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="在列表或预览中点选一个字段" />
      )}
    </Card>
  );
}

/** The live preview of the sample certificate, the problems, 保存, 恢复默认 and 预览 PDF. */
export function PreviewCard({ ed, view }: { ed: TemplateEditorState; view: TemplateView }) {
  const {
    draft,
    bgUrl,
    selected,
    problemFields,
    setSelected,
    moveField,
    problems,
    serverError,
    dirty,
    saving,
    save,
    restore,
    previewPdf,
  } = ed;
  return (
    <Card
      style={{ position: "sticky", top: 16 }}
      size="small"
      title="实时预览（示例数据）"
      extra={
        view.isDefault ? (
          <Tag>内置默认模板</Tag>
        ) : (
          <Typography.Text type="secondary">
            已保存于 {fmtTime(view.updatedAt)}
            {view.updatedBy ? `（${view.updatedBy}）` : ""}
          </Typography.Text>
        )
      }
    >
      <ScaledPreview
        layout={draft}
        backgroundUrl={bgUrl}
        selected={selected}
        problems={problemFields}
        onSelect={setSelected}
        onMove={moveField}
      />
      <Typography.Paragraph type="secondary" style={{ margin: "8px 0" }}>
        拖动字段可调整位置（步长 0.5 mm）；二维码在预览中为示意图案，打印时为每张证书的核验码。
      </Typography.Paragraph>
      {problems.length > 0 && (
        <Alert
          type="error"
          showIcon
          message={`模板有 ${problems.length} 处问题，修正后才能保存`}
          description={
            <ul style={{ margin: 0, paddingLeft: 18 }}>
              {problems.map((p, i) => (
                <li key={i}>{p.message}</li>
              ))}
            </ul>
          }
          style={{ marginBottom: 8 }}
          data-testid="cert-template-problems"
        />
      )}
      {serverError && (
        <Alert type="error" showIcon message={serverError} style={{ marginBottom: 8 }} data-testid="cert-template-error" />
      )}
      <Space wrap>
        <Button
          type="primary"
          icon={<SaveOutlined />}
          disabled={problems.length > 0 || !dirty}
          loading={saving}
          onClick={save}
          data-testid="cert-template-save"
        >
          保存
        </Button>
        <Button icon={<UndoOutlined />} onClick={restore} data-testid="cert-template-restore">
          恢复默认
        </Button>
        <Button icon={<EyeOutlined />} disabled={problems.length > 0} onClick={previewPdf} data-testid="cert-template-pdf">
          预览 PDF
        </Button>
        {dirty && <Typography.Text type="warning">有未保存的修改</Typography.Text>}
      </Space>
    </Card>
  );
}
