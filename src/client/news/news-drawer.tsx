/**
 * Writing a news item in a drawer: contest (root may leave it empty for national news),
 * title, cover, status, publish time (a future time schedules it) and the rich-text body.
 */
import { useEffect } from "react";
import { useForm } from "@refinedev/antd";
import type { BaseKey, HttpError } from "@refinedev/core";
import { Button, DatePicker, Drawer, Form, Input, Radio, Space } from "antd";
import type { Dayjs } from "dayjs";
import type { NewsCreate, NewsView } from "../../shared/news/schema";
import { RichTextEditor } from "../richtext/editor";
import { hasRichContent } from "../richtext/content";
import { ContestSelect, useIsRoot, useMyContests } from "../notice/contest-select";
import { CoverInput } from "./cover-input";
import { bj, pickerIso } from "../format";

/** What the drawer edits: a new item, or the one with this id. */
export type NewsTarget = { id?: BaseKey } | null;

export function NewsDrawer({ target, onClose }: { target: NewsTarget; onClose: () => void }) {
  return (
    <Drawer open={!!target} onClose={onClose} title={target?.id ? "编辑新闻" : "新建新闻"} width={860} destroyOnHidden>
      {target && <NewsForm key={String(target.id ?? "new")} id={target.id} onDone={onClose} />}
    </Drawer>
  );
}

function NewsForm({ id, onDone }: { id?: BaseKey; onDone: () => void }) {
  const isRoot = useIsRoot();
  const { formProps, saveButtonProps, formLoading } = useForm<NewsView, HttpError, NewsCreate>({
    resource: "news",
    action: id ? "edit" : "create",
    id,
    redirect: false,
    onMutationSuccess: onDone,
  });
  const record = formProps.initialValues as NewsView | undefined;
  const mine = useMyContests(!isRoot && !id);
  // A contest admin writes for the own contest: a new item starts with the first one chosen.
  useEffect(() => {
    const form = formProps.form;
    if (mine.data?.length && form && form.getFieldValue("contestId") == null) form.setFieldValue("contestId", mine.data[0].id);
  }, [mine.data, formProps.form]);
  return (
    <Form<NewsCreate>
      {...formProps}
      layout="vertical"
      initialValues={record ?? { status: "draft", body: "", cover: null, publishAt: null, contestId: null }}
      onFinish={(v) =>
        formProps.onFinish?.({ ...v, contestId: v.contestId ?? null, cover: v.cover || null, publishAt: v.publishAt ?? null })
      }
    >
      <Form.Item
        name="contestId"
        label="所属赛事"
        extra={isRoot ? "留空为全国新闻（平台首页显示）" : undefined}
        rules={isRoot ? [] : [{ required: true, message: "请选择赛事" }]}
      >
        <ContestSelect
          allowClear={isRoot}
          defaultContestId={record?.contestId}
          placeholder={isRoot ? "全国新闻（不属于某个赛事）" : "选择您负责的赛事"}
        />
      </Form.Item>
      <Form.Item
        name="title"
        label="标题"
        rules={[
          { required: true, whitespace: true, message: "请输入标题" },
          { max: 100, message: "标题不能超过 100 个字" },
        ]}
      >
        <Input data-testid="news-title" />
      </Form.Item>
      <Form.Item name="cover" label="封面" extra="PNG、JPEG、GIF、WebP 或 BMP 图片，不超过 500 KB">
        <CoverInput />
      </Form.Item>
      <Space size="large" align="start" wrap>
        <Form.Item name="status" label="状态">
          <Radio.Group
            optionType="button"
            options={[
              { value: "draft", label: "草稿" },
              { value: "published", label: "发布" },
            ]}
            data-testid="news-status"
          />
        </Form.Item>
        <Form.Item
          name="publishAt"
          label="发布时间"
          extra="发布时留空即立即公开；选择将来的时间则定时发布"
          getValueProps={(v: string | null) => ({ value: v ? bj(v) : null })}
          normalize={(d: Dayjs | null) => (d ? pickerIso(d) : null)}
        >
          <DatePicker showTime={{ format: "HH:mm" }} format="YYYY-MM-DD HH:mm" placeholder="立即" style={{ width: 220 }} />
        </Form.Item>
      </Space>
      <Form.Item
        name="body"
        label="正文"
        rules={[
          {
            validator: (_, v: string | undefined) =>
              hasRichContent(v) ? Promise.resolve() : Promise.reject(new Error("请输入正文")),
          },
        ]}
      >
        <RichTextEditor data-testid="news-body" />
      </Form.Item>
      <Space>
        <Button type="primary" {...saveButtonProps} loading={formLoading} data-testid="news-save">
          保存
        </Button>
        <Button onClick={onDone}>取消</Button>
      </Space>
    </Form>
  );
}
