/** Shows rich text as the server stored it (sanitised on every write, so safe to render). */
import { Empty } from "antd";
import "./rich-text.css";

export function RichTextView({
  html,
  empty = "暂无内容",
  "data-testid": testId,
}: {
  html: string | null | undefined;
  empty?: string;
  "data-testid"?: string;
}) {
  if (!html?.trim()) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />;
  return <div className="rich-text" data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
}
