/**
 * A light rich-text editor (tiptap) for antd forms: value/onChange carry HTML; an empty
 * document is "". Images are inlined as data: URLs (raster types only, like the
 * server's sanitiser); the server cleans whatever arrives, so this only shapes input.
 */
import { useEffect, useState, type ReactNode } from "react";
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import Image from "@tiptap/extension-image";
import { App, Button, Divider, Input, Popover, Select, Space, Tooltip, Upload } from "antd";
import {
  BoldOutlined,
  ClearOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from "@ant-design/icons";
import { ImageReadError, readImage } from "./read-image";
import "./rich-text.css";

/** Inline images are stored in the text; keep each small (the whole text is limited too). */
const IMAGE_MAX_BYTES = 300 * 1024;

const htmlOf = (editor: Editor) => (editor.isEmpty && !editor.getHTML().includes("<img") ? "" : editor.getHTML());

export interface RichTextEditorProps {
  value?: string;
  onChange?: (html: string) => void;
  "data-testid"?: string;
}

export function RichTextEditor({ value, onChange, ...rest }: RichTextEditorProps) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ link: { openOnClick: false, autolink: true, defaultProtocol: "https" } }),
      Image.configure({ allowBase64: true }),
    ],
    content: value ?? "",
    onUpdate: ({ editor }) => onChange?.(htmlOf(editor)),
  });

  // A value set from outside (the form loading a record, a reset) replaces the document.
  useEffect(() => {
    if (editor && (value ?? "") !== htmlOf(editor)) editor.commands.setContent(value ?? "", { emitUpdate: false });
  }, [editor, value]);

  return (
    <div className="rich-text-editor" data-testid={rest["data-testid"]}>
      <Toolbar editor={editor} />
      <EditorContent editor={editor} className="rich-text" />
    </div>
  );
}

function Tool({
  title,
  icon,
  active,
  disabled,
  onClick,
}: {
  title: string;
  icon: ReactNode;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <Tooltip title={title}>
      <Button
        size="small"
        type={active ? "primary" : "text"}
        ghost={active}
        icon={icon}
        disabled={disabled}
        onClick={onClick}
        aria-label={title}
      />
    </Tooltip>
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const { message } = App.useApp();
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive("bold"),
      italic: e.isActive("italic"),
      underline: e.isActive("underline"),
      strike: e.isActive("strike"),
      bullet: e.isActive("bulletList"),
      ordered: e.isActive("orderedList"),
      link: e.isActive("link"),
      block: e.isActive("heading", { level: 2 })
        ? "h2"
        : e.isActive("heading", { level: 3 })
          ? "h3"
          : e.isActive("blockquote")
            ? "quote"
            : "p",
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();

  const setBlock = (b: string) => {
    if (b === "h2" || b === "h3")
      chain()
        .setHeading({ level: b === "h2" ? 2 : 3 })
        .run();
    else if (b === "quote") chain().setParagraph().setBlockquote().run();
    else chain().setParagraph().unsetBlockquote().run();
  };

  const addImage = async (file: File) => {
    try {
      chain()
        .setImage({ src: await readImage(file, IMAGE_MAX_BYTES), alt: file.name })
        .run();
    } catch (e) {
      message.error(e instanceof ImageReadError ? e.message : "图片插入失败");
    }
  };

  return (
    <Space className="rich-text-toolbar" size={2} wrap>
      <Select
        size="small"
        variant="borderless"
        style={{ width: 92 }}
        value={state.block}
        onChange={setBlock}
        aria-label="段落格式"
        options={[
          { value: "p", label: "正文" },
          { value: "h2", label: "标题 1" },
          { value: "h3", label: "标题 2" },
          { value: "quote", label: "引用" },
        ]}
      />
      <Divider type="vertical" />
      <Tool title="加粗" icon={<BoldOutlined />} active={state.bold} onClick={() => chain().toggleBold().run()} />
      <Tool title="斜体" icon={<ItalicOutlined />} active={state.italic} onClick={() => chain().toggleItalic().run()} />
      <Tool
        title="下划线"
        icon={<UnderlineOutlined />}
        active={state.underline}
        onClick={() => chain().toggleUnderline().run()}
      />
      <Tool title="删除线" icon={<StrikethroughOutlined />} active={state.strike} onClick={() => chain().toggleStrike().run()} />
      <Divider type="vertical" />
      <Tool
        title="无序列表"
        icon={<UnorderedListOutlined />}
        active={state.bullet}
        onClick={() => chain().toggleBulletList().run()}
      />
      <Tool
        title="有序列表"
        icon={<OrderedListOutlined />}
        active={state.ordered}
        onClick={() => chain().toggleOrderedList().run()}
      />
      <LinkTool editor={editor} active={state.link} />
      <Upload
        accept="image/png,image/jpeg,image/gif,image/webp,image/bmp"
        showUploadList={false}
        beforeUpload={(f) => (void addImage(f), false)}
      >
        <Tool title={`插入图片（不超过 ${IMAGE_MAX_BYTES / 1024} KB）`} icon={<PictureOutlined />} onClick={() => undefined} />
      </Upload>
      <Divider type="vertical" />
      <Tool title="清除格式" icon={<ClearOutlined />} onClick={() => chain().unsetAllMarks().clearNodes().run()} />
      <Tool title="撤销" icon={<UndoOutlined />} disabled={!state.canUndo} onClick={() => chain().undo().run()} />
      <Tool title="重做" icon={<RedoOutlined />} disabled={!state.canRedo} onClick={() => chain().redo().run()} />
    </Space>
  );
}

function LinkTool({ editor, active }: { editor: Editor; active: boolean }) {
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState("");
  const apply = () => {
    const url = href.trim();
    const chain = editor.chain().focus().extendMarkRange("link");
    if (!url) chain.unsetLink().run();
    else chain.setLink({ href: /^(https?:|mailto:|\/)/i.test(url) ? url : `https://${url}` }).run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      onOpenChange={(o) => {
        if (o) setHref(String(editor.getAttributes("link").href ?? ""));
        setOpen(o);
      }}
      trigger="click"
      content={
        <Space.Compact>
          <Input
            autoFocus
            placeholder="https://…（留空则去掉链接）"
            value={href}
            onChange={(e) => setHref(e.target.value)}
            onPressEnter={apply}
            style={{ width: 260 }}
          />
          <Button type="primary" onClick={apply}>
            确定
          </Button>
        </Space.Compact>
      }
    >
      <span>
        <Tool title="链接" icon={<LinkOutlined />} active={active} onClick={() => undefined} />
      </span>
    </Popover>
  );
}
