/** The changes of one work-log entry in a table cell: field, old value → new value. */
import { Space, Typography } from "antd";
import type { WorkLogEntry } from "../../../shared/work/schema";
import { logValueText } from "../../work/components/WorkLogTimeline";

function Value({ field, value, old }: { field: string; value: unknown; old?: boolean }) {
  const text = logValueText(field, value);
  return (
    <Typography.Text type={old ? "secondary" : undefined} ellipsis={{ tooltip: text }} style={{ maxWidth: 320 }}>
      {text}
    </Typography.Text>
  );
}

export function ChangeList({ changes }: { changes: WorkLogEntry["changes"] }) {
  return (
    <Space direction="vertical" size={0}>
      {changes.map((c) => (
        <span key={c.field}>
          <Typography.Text type="secondary">{c.fieldName}：</Typography.Text>
          {c.old === null || c.old === undefined ? (
            <Value field={c.field} value={c.new} />
          ) : (
            <>
              <Value field={c.field} value={c.old} old /> → <Value field={c.field} value={c.new} />
            </>
          )}
        </span>
      ))}
    </Space>
  );
}
