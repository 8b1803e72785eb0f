/** A news item's state as the admins see it: 草稿, 已发布, or 定时发布 (published with a future time). */
import { Tag, Tooltip } from "antd";
import type { NewsView } from "../../shared/news/schema";
import { fmtTime } from "../format";

export function isScheduled(n: Pick<NewsView, "status" | "publishAt">, now = Date.now()) {
  return n.status === "published" && !!n.publishAt && new Date(n.publishAt).getTime() > now;
}

export function NewsStatusTag({ news }: { news: Pick<NewsView, "status" | "publishAt"> }) {
  if (news.status === "draft") return <Tag>草稿</Tag>;
  if (isScheduled(news)) {
    return (
      <Tooltip title={`将于 ${fmtTime(news.publishAt)} 公开`}>
        <Tag color="orange">定时发布</Tag>
      </Tooltip>
    );
  }
  return <Tag color="green">已发布</Tag>;
}
