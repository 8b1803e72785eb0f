/** A complaint's history, oldest first: each step with who took it and its text. */
import { Empty, Timeline, Typography } from "antd";
import type { HistoryEntry } from "../../shared/complaint/schema";
import { COMPLAINT_STATE_NAMES } from "../../shared/complaint/states";
import { fmtTime } from "../format";
import { TextBlock } from "./parts";

export function ComplaintHistory({ entries }: { entries: readonly HistoryEntry[] }) {
  if (!entries.length) return <Empty description="暂无记录" />;
  return (
    <Timeline
      data-testid="complaint-history"
      items={entries.map((h) => ({
        key: h.id,
        color: h.to === "refused" || h.to === "withdrawn" ? "gray" : h.to === "closed" ? "green" : "blue",
        children: (
          <div>
            <Typography.Text strong>{h.actionName}</Typography.Text>
            <Typography.Text type="secondary" style={{ marginLeft: 8, fontSize: 12 }}>
              {fmtTime(h.at)} · {h.by} · {h.from ? `${COMPLAINT_STATE_NAMES[h.from]} → ` : ""}
              {COMPLAINT_STATE_NAMES[h.to]}
            </Typography.Text>
            {h.text && (
              <div style={{ marginTop: 4 }}>
                <TextBlock text={h.text} />
              </div>
            )}
          </div>
        ),
      }))}
    />
  );
}
