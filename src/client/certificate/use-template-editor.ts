/**
 * State and actions of the certificate template editor (TemplateTab.tsx): the draft layout,
 * the selected field, checkLayout's problems, field edits, 保存, 恢复默认, 预览 PDF and the
 * background upload; and reorient, which moves a layout to the other orientation.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { App } from "antd";
import { useQueryClient } from "@tanstack/react-query";
import {
  AWARD_KIND_CERT_NAMES,
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
import type { TemplateView } from "../../shared/certificate/print-schema";
import { backgroundUrl, certApi, certKeys } from "./print-api";
import { newField } from "./FieldForm";

const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

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

export function useTemplateEditor(contestId: number, view: TemplateView) {
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

  return {
    kind,
    draft,
    selected,
    setSelected,
    saving,
    uploading,
    serverError,
    problems,
    problemFields,
    dirty,
    bgUrl,
    field,
    update,
    setField,
    moveField,
    removeField,
    addField,
    save,
    restore,
    previewPdf,
    upload,
    general,
    addable,
  };
}

export type TemplateEditorState = ReturnType<typeof useTemplateEditor>;
