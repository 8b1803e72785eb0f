/**
 * Small pieces of the duplicate-check screens: percentages, the level tag, a work as a
 * result shows it (in scope: its name and contest; outside: only its id and year) and the
 * index state of a checked work with the parts that were not checked.
 */
import { Alert, Space, Tag, Tooltip, Typography } from "antd";
import type { DupIndexState, DupWorkRef } from "../../shared/dupcheck/api";
import { DUP_LEVEL_NAMES, type DupLevel, type DupReason } from "../../shared/dupcheck/schema";

export const pct = (x: number | null | undefined, digits = 1) =>
  x === null || x === undefined ? "—" : `${(x * 100).toFixed(digits)}%`;

const LEVEL_COLOR: Record<DupLevel, string> = { likely: "red", suspect: "orange", none: "default" };

export function LevelTag({ level, similarity }: { level: DupLevel; similarity?: number }) {
  return (
    <Tag color={LEVEL_COLOR[level]} bordered={level !== "none"} data-testid="dup-level" data-level={level}>
      {DUP_LEVEL_NAMES[level]}
      {similarity !== undefined ? ` ${pct(similarity)}` : ""}
    </Tag>
  );
}

/** A matched work: in scope its name (and contest); outside only the fact. */
export function WorkRefText({ w, showContest }: { w: DupWorkRef; showContest?: boolean }) {
  if (!w.inScope) {
    return (
      <Tooltip title="该作品不在您的查重范围内，只显示编号和年度">
        <Typography.Text type="secondary" data-testid="dup-outside">
          范围外作品 {w.workId}（{w.year} 年）
        </Typography.Text>
      </Tooltip>
    );
  }
  return (
    <Space direction="vertical" size={0}>
      <Typography.Text strong>《{w.name}》</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {w.workId} · {w.year} 年{showContest && w.contestName ? ` · ${w.contestName}` : ""}
      </Typography.Text>
    </Space>
  );
}

const STATUS_COLOR: Record<DupIndexState["status"], string> = {
  indexed: "green",
  pending: "processing",
  failed: "red",
  missing: "default",
  text: "blue",
};

export function IndexStateTag({ index }: { index: DupIndexState }) {
  return (
    <Tag color={STATUS_COLOR[index.status]} data-testid="dup-index-status" data-status={index.status}>
      {index.statusName}
    </Tag>
  );
}

/** Why the text could not be checked (too short: never a false 0 %) and the parts left out. */
export function IndexNotes({ index }: { index: DupIndexState }) {
  return (
    <Space direction="vertical" style={{ width: "100%" }} size={8}>
      {index.tooShort && (
        <Alert
          type="warning"
          showIcon
          message="无法有意义地查重"
          description={index.reason ?? "文字太少"}
          data-testid="dup-too-short"
        />
      )}
      {!index.tooShort && index.reason && <Alert type="warning" showIcon message={index.reason} />}
      {index.status === "pending" && (
        <Alert type="info" showIcon message="该作品的文字或附件刚有变化，正在后台重新建立索引；下面是按上一次索引比较的结果" />
      )}
      <SkippedParts reasons={index.reasons} />
    </Space>
  );
}

/**
 * Parts of a work that were not checked: files of types without text (video, archives) in one
 * quiet line; files that could not be read (broken, encrypted, too large, missing) as a warning.
 */
export function SkippedParts({ reasons }: { reasons: DupReason[] }) {
  if (!reasons.length) return null;
  const routine = reasons.filter((r) => r.code === "unsupported");
  const failed = reasons.filter((r) => r.code !== "unsupported");
  const text = (r: DupReason) => `${r.filename ? `「${r.filename}」` : ""}${r.message}`;
  return (
    <div data-testid="dup-skipped">
      {failed.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: routine.length ? 6 : 0 }}
          message="以下文档未能读取，未参与查重（作品其余部分照常比较）"
          description={failed.map((r, i) => (
            <div key={i}>{text(r)}</div>
          ))}
        />
      )}
      {routine.length > 0 && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          未参与查重（无文字内容的文件类型）：{routine.map((r) => r.filename ?? r.message).join("、")}
        </Typography.Text>
      )}
    </div>
  );
}
