/**
 * A work's log as a timeline, oldest first: who, when, what, and each changed field with
 * its old and new value. Pass `workId` to load GET /Backend/Work/work/:id/log, or
 * `entries` when the caller already has them (e.g. the root's log of all works).
 */
import { Alert, Empty, Skeleton, Space, Timeline, Typography } from "antd";
import type { AiDeclaration, WorkLogEntry } from "../../../shared/work/schema";
import { GROUP_NAMES, type WorkGroupKey } from "../../../shared/work/fields";
import { WORK_STATE_NAMES, type WorkState } from "../../../shared/work/states";
import { sizeText } from "../../../shared/work/files";
import { useWorkLog } from "../api";
import { fmtTimeSec } from "../../format";

const EMPTY = "（空）";

/** A logged value as text: states and groups by name, lists joined, the AI declaration summarised. */
export function logValueText(field: string, v: unknown): string {
  if (v === null || v === undefined || v === "") return EMPTY;
  if (field === "status" && typeof v === "string") return WORK_STATE_NAMES[v as WorkState] ?? v;
  if (field === "group" && typeof v === "string") return GROUP_NAMES[v as WorkGroupKey] ?? v;
  if (field === "aiDeclaration" && typeof v === "object") {
    const d = v as AiDeclaration;
    return d.used
      ? `使用了 ${d.tools.length} 个AI工具：${d.tools.map((t) => `${t.tool}${t.version ? ` ${t.version}` : ""}（采纳 ${t.adoption}%）`).join("；")}`
      : "未使用AI工具";
  }
  if (typeof v === "object" && !Array.isArray(v) && typeof (v as { filename?: unknown }).filename === "string") {
    const f = v as { kindName?: string; filename: string; size?: number; sha256?: string };
    const facts = [typeof f.size === "number" ? sizeText(f.size) : null, f.sha256 ? `SHA-256 ${f.sha256.slice(0, 12)}…` : null]
      .filter(Boolean)
      .join("，");
    return `${f.kindName ? `${f.kindName}：` : ""}${f.filename}${facts ? `（${facts}）` : ""}`;
  }
  if (typeof v === "boolean") return v ? "是" : "否";
  if (Array.isArray(v))
    return v.length ? v.map((x) => (typeof x === "object" ? JSON.stringify(x) : String(x))).join("、") : EMPTY;
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

function Value({ field, v, old }: { field: string; v: unknown; old?: boolean }) {
  const text = logValueText(field, v);
  return (
    <Typography.Paragraph
      style={{ margin: 0, display: "inline", whiteSpace: "pre-wrap" }}
      type={text === EMPTY || old ? "secondary" : undefined}
      delete={old && text !== EMPTY}
      ellipsis={
        text.length > 120 ? { rows: 2, expandable: "collapsible", symbol: (expanded) => (expanded ? "收起" : "展开") } : false
      }
    >
      {text}
    </Typography.Paragraph>
  );
}

function Entry({ e }: { e: WorkLogEntry }) {
  return (
    <Space direction="vertical" size={2} style={{ width: "100%" }} data-testid="work-log-entry">
      <Space wrap size={8}>
        <Typography.Text strong>{e.actionName}</Typography.Text>
        <Typography.Text type="secondary">{fmtTimeSec(e.at)}</Typography.Text>
        <Typography.Text type="secondary">{e.user ? `${e.user.name}（${e.user.username}）` : "系统"}</Typography.Text>
      </Space>
      {e.changes.map((c) => (
        <div key={c.field} style={{ fontSize: 13 }}>
          <Typography.Text type="secondary">{c.fieldName}：</Typography.Text>
          {c.old === null || c.old === undefined ? (
            <Value field={c.field} v={c.new} />
          ) : (
            <>
              <Value field={c.field} v={c.old} old />
              <Typography.Text type="secondary"> → </Typography.Text>
              <Value field={c.field} v={c.new} />
            </>
          )}
        </div>
      ))}
    </Space>
  );
}

const COLORS: Record<string, string> = {
  submit: "blue",
  approve: "green",
  recommend: "green",
  accept: "green",
  return: "orange",
  reject: "orange",
  disqualify: "red",
  delete: "red",
};

export function WorkLogTimeline({ workId, entries }: { workId?: number; entries?: WorkLogEntry[] }) {
  const query = useWorkLog(entries ? undefined : workId);
  const list = entries ?? query.data;
  if (!entries && query.isLoading) return <Skeleton active />;
  if (!entries && query.isError) return <Alert type="error" showIcon message={query.error.message} />;
  if (!list?.length) return <Empty description="暂无日志" />;
  return (
    <Timeline
      data-testid="work-log"
      items={list.map((e) => ({ key: e.id, color: COLORS[e.action] ?? "gray", children: <Entry e={e} /> }))}
    />
  );
}
