/**
 * The 证书模板 tab of both print pages: per contest and award kind (作品获奖/优秀指导教师/优秀
 * 组织奖), the orientation, a background image (the scan of the printed form), the field list
 * with each field's properties, and a live preview of the sample certificate through the same
 * CertificateSheet the print view uses (fields can be dragged on it). checkLayout's problems
 * show beside their fields and keep 保存 disabled (the server checks again); 恢复默认 goes back
 * to the built-in layout; 预览 PDF asks the server for the sample certificate as a PDF.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Dropdown,
  Empty,
  Flex,
  List,
  Radio,
  Row,
  Segmented,
  Space,
  Spin,
  Tag,
  Typography,
  Upload,
} from "antd";
import {
  DeleteOutlined,
  EyeOutlined,
  PictureOutlined,
  PlusOutlined,
  SaveOutlined,
  UndoOutlined,
  WarningOutlined,
} from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import {
  AWARD_KINDS,
  AWARD_KIND_CERT_NAMES,
  FIELD_NAMES,
  ORIENTATIONS,
  ORIENTATION_NAMES,
  PAGE_MM,
  TEXT_FIELDS,
  checkLayout,
  defaultLayout,
  type AwardKind,
  type Orientation,
  type TemplateField,
  type TemplateLayout,
} from "../../shared/certificate/layout";
import type { CertContest, TemplateView } from "../../shared/certificate/print-schema";
import { fmtTime } from "../format";
import { backgroundUrl, certApi, certKeys, useTemplates } from "./print-api";
import { FieldForm, newField } from "./FieldForm";
import { ScaledPreview } from "./ScaledPreview";

const MAX_FIELDS = 30;
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export function TemplateTab({ contest }: { contest: CertContest }) {
  const templates = useTemplates(contest.id);
  const [kind, setKind] = useState<AwardKind>("work");
  const view = templates.data?.find((t) => t.awardKind === kind);
  return (
    <Space direction="vertical" size={12} style={{ width: "100%" }}>
      <Segmented<AwardKind>
        value={kind}
        onChange={setKind}
        options={AWARD_KINDS.map((k) => ({ value: k, label: AWARD_KIND_CERT_NAMES[k] }))}
        data-testid="cert-template-kind"
      />
      {templates.isError && <Alert type="error" showIcon message={templates.error.message} />}
      {templates.isPending && <Spin />}
      {view && <TemplateEditor key={`${contest.id}:${kind}:${view.updatedAt ?? "default"}`} contestId={contest.id} view={view} />}
    </Space>
  );
}

const layoutOf = (v: TemplateView): TemplateLayout => ({
  orientation: v.orientation,
  backgroundSha256: v.backgroundSha256,
  fields: v.fields,
});
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields moved to the other orientation: the built-in layout if they were the built-in one, else scaled to the new page. */
export function reorient(kind: AwardKind, t: TemplateLayout, to: Orientation): TemplateLayout {
  if (to === t.orientation) return t;
  if (same(t.fields, defaultLayout(kind, t.orientation).fields))
    return { ...t, orientation: to, fields: defaultLayout(kind, to).fields };
  const from = PAGE_MM[t.orientation];
  const page = PAGE_MM[to];
  const sx = page.width / from.width;
  const sy = page.height / from.height;
  const r = (n: number) => Math.round(n * 2) / 2;
  const fields = t.fields.map((f): TemplateField =>
    f.key === "qr" ? { ...f, x: r(f.x * sx), y: r(f.y * sy) } : { ...f, x: r(f.x * sx), y: r(f.y * sy), width: r(f.width * sx) },
  );
  return { ...t, orientation: to, fields };
}

function TemplateEditor({ contestId, view }: { contestId: number; view: TemplateView }) {
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const kind = view.awardKind;
  const [draft, setDraft] = useState<TemplateLayout>(() => layoutOf(view));
  const [selected, setSelected] = useState<number | null>(0);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  // Images uploaded in this session are shown from the file until a saved template names them.
  const localImages = useRef(new Map<string, string>());
  useEffect(() => () => localImages.current.forEach((u) => URL.revokeObjectURL(u)), []);

  const problems = useMemo(() => checkLayout(draft), [draft]);
  const problemFields = useMemo(() => new Set(problems.map((p) => p.field)), [problems]);
  const dirty = !same(draft, layoutOf(view));
  const page = PAGE_MM[draft.orientation];
  const bgUrl = draft.backgroundSha256
    ? (localImages.current.get(draft.backgroundSha256) ?? backgroundUrl(draft.backgroundSha256))
    : null;
  const field = selected !== null ? draft.fields[selected] : undefined;

  const update = (next: TemplateLayout) => {
    setServerError(null);
    setDraft(next);
  };
  const setField = (i: number, f: TemplateField) => update({ ...draft, fields: draft.fields.map((g, j) => (j === i ? f : g)) });
  const moveField = (i: number, x: number, y: number) => {
    setServerError(null);
    setDraft((d) => ({ ...d, fields: d.fields.map((g, j) => (j === i ? { ...g, x, y } : g)) }));
  };
  const removeField = (i: number) => {
    update({ ...draft, fields: draft.fields.filter((_, j) => j !== i) });
    setSelected(null);
  };
  const addField = (key: string) => {
    const f = newField(key as TemplateField["key"], page);
    update({ ...draft, fields: [...draft.fields, f] });
    setSelected(draft.fields.length);
  };

  const body = () => ({ contestId, awardKind: kind, ...draft });
  const save = async () => {
    setSaving(true);
    const reply = await certApi.saveTemplate(body());
    setSaving(false);
    if (reply.error !== 0 || !reply.data) {
      setServerError(reply.info || "保存失败");
      return;
    }
    message.success(reply.info || "模板已保存");
    qc.setQueryData<TemplateView[]>(certKeys.templates(contestId), (old) =>
      old?.map((t) => (t.awardKind === kind ? reply.data! : t)),
    );
  };
  const restore = () =>
    modal.confirm({
      title: "恢复默认",
      content: `把「${AWARD_KIND_CERT_NAMES[kind]}」恢复为内置的${ORIENTATION_NAMES[draft.orientation]}模板（不含底图）？保存后生效。`,
      okText: "恢复",
      cancelText: "取消",
      onOk: () => {
        update(defaultLayout(kind, draft.orientation));
        setSelected(0);
      },
    });
  const previewPdf = async () => {
    const win = window.open("", "_blank");
    const out = await certApi.previewPdf(body());
    if (!out.blob) {
      win?.close();
      setServerError(out.error ?? "预览失败");
      return;
    }
    const url = URL.createObjectURL(out.blob);
    if (win) win.location.href = url;
    else window.location.href = url;
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
  const upload = async (file: File) => {
    if (!/^image\/(png|jpeg)$/.test(file.type)) return void message.error("底图只能是 PNG 或 JPEG 图片");
    if (file.size > MAX_IMAGE_BYTES) return void message.error("底图不能超过 10 MB");
    setUploading(true);
    const reply = await certApi.uploadBackground(file);
    setUploading(false);
    if (reply.error !== 0 || !reply.data) return void message.error(reply.info || "上传失败");
    localImages.current.set(reply.data.sha256, URL.createObjectURL(file));
    update({ ...draft, backgroundSha256: reply.data.sha256 });
    message.success(`底图已上传（${reply.data.width} × ${reply.data.height} 像素），保存后生效`);
  };

  const general = problems.filter((p) => p.field < 0);
  const addable = [...TEXT_FIELDS, ...(draft.fields.some((f) => f.key === "qr") ? [] : (["qr"] as const))];

  return (
    <Row gutter={16} data-testid="cert-template-editor">
      <Col xs={24} xl={9}>
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
      </Col>
      <Col xs={24} xl={15}>
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
      </Col>
    </Row>
  );
}
