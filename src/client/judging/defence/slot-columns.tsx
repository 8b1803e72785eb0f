/** The columns of a defence session's slots (AdminSessionPanel.tsx): order, time, work, scores, files and the author's reply link. */
import { Tag, Typography } from "antd";
import type { TableColumnsType } from "antd";
import type { AdminSlot } from "../../../shared/judging/defence-schema";
import { replyPath, timeText } from "./api";

export const slotColumns: TableColumnsType<AdminSlot> = [
  { title: "顺序", dataIndex: "position", width: 60, render: (p: number | null) => p ?? "—" },
  { title: "时间", dataIndex: "time", width: 80, render: (t: string | null) => timeText(t, false) },
  {
    title: "作品",
    render: (_, x) => (
      <span>
        {x.work.id} {x.work.name}
      </span>
    ),
  },
  { title: "学校", width: 160, render: (_, x) => x.work.school },
  {
    title: "评分",
    width: 80,
    render: (_, x) => (
      <Tag color={x.scores >= x.expected ? "green" : "default"}>
        {x.scores}/{x.expected}
      </Tag>
    ),
  },
  {
    title: "材料",
    width: 64,
    render: (_, x) => (x.files ? <Tag color="blue">已传</Tag> : <Typography.Text type="secondary">未传</Typography.Text>),
  },
  {
    title: "作者答辩链接",
    width: 220,
    render: (_, x) => {
      const url = `${window.location.origin}${replyPath(x.code)}`;
      return (
        <Typography.Text copyable={{ text: url, tooltips: ["复制链接", "已复制"] }}>
          <a href={replyPath(x.code)} target="_blank" rel="noreferrer">
            打开链接
          </a>
        </Typography.Text>
      );
    },
  },
];
