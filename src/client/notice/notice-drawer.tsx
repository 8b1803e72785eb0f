/**
 * Writing one notice slot (section × contest, contest null = the whole platform): a new
 * notice when the slot is empty, else the existing one. Title and rich-text content.
 */
import { useForm } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { Button, Drawer, Form, Input, Space, Typography } from "antd";
import type { NoticeCreate, NoticeView } from "../../shared/notice/schema";
import { noticeSectionName } from "../../shared/notice/sections";
import { RichTextEditor } from "../richtext/editor";
import { hasRichContent } from "../richtext/content";

export interface NoticeSlot {
  section: string;
  contestId: number | null;
  contestName: string | null;
  /** the notice in the slot, if written */
  id?: number;
}

export const slotPlace = (s: Pick<NoticeSlot, "contestId" | "contestName">) =>
  s.contestId === null ? "全平台" : (s.contestName ?? `赛事 ${s.contestId}`);

export function NoticeDrawer({ slot, onClose }: { slot: NoticeSlot | null; onClose: () => void }) {
  const title = slot ? `${slot.id ? "编辑" : "编写"}${noticeSectionName(slot.section)} · ${slotPlace(slot)}` : "";
  return (
    <Drawer open={!!slot} onClose={onClose} title={title} width={820} destroyOnHidden>
      {slot && <NoticeForm key={`${slot.section}-${slot.contestId}-${slot.id ?? "new"}`} slot={slot} onDone={onClose} />}
    </Drawer>
  );
}

function NoticeForm({ slot, onDone }: { slot: NoticeSlot; onDone: () => void }) {
  const { formProps, saveButtonProps, formLoading } = useForm<NoticeView, HttpError, NoticeCreate>({
    resource: "notices",
    action: slot.id ? "edit" : "create",
    id: slot.id,
    redirect: false,
    onMutationSuccess: onDone,
  });
  const submit = (values: NoticeCreate) =>
    formProps.onFinish?.(
      slot.id
        ? ({ title: values.title, content: values.content } as NoticeCreate)
        : { ...values, section: slot.section, contestId: slot.contestId },
    );
  return (
    <Form<NoticeCreate>
      {...formProps}
      layout="vertical"
      onFinish={submit}
      initialValues={formProps.initialValues ?? { title: noticeSectionName(slot.section), content: "" }}
    >
      <Form.Item
        name="title"
        label="标题"
        rules={[
          { required: true, whitespace: true, message: "请输入标题" },
          { max: 100, message: "标题不能超过 100 个字" },
        ]}
      >
        <Input data-testid="notice-title" />
      </Form.Item>
      <Form.Item
        name="content"
        label="内容"
        extra="保存时服务器会清理不安全的内容（脚本、外部框架等），保存后显示的即为最终效果。"
        rules={[
          {
            validator: (_, v: string | undefined) =>
              hasRichContent(v) ? Promise.resolve() : Promise.reject(new Error("请输入内容")),
          },
        ]}
      >
        <RichTextEditor data-testid="notice-content" />
      </Form.Item>
      <Space>
        <Button type="primary" {...saveButtonProps} loading={formLoading} data-testid="notice-save">
          保存
        </Button>
        <Button onClick={onDone}>取消</Button>
        <Typography.Text type="secondary">
          栏目：{noticeSectionName(slot.section)}　范围：{slotPlace(slot)}
        </Typography.Text>
      </Space>
    </Form>
  );
}
