/**
 * The 审查结论 card of the fast review page: one button per outcome the sheet allows, each
 * with its keys, the previous/next buttons and the list of shortcuts.
 */
import { Alert, Button, Card, Space, Typography } from "antd";
import { CheckOutlined, CloseOutlined, LeftOutlined, RightOutlined, RollbackOutlined, UndoOutlined } from "@ant-design/icons";
import type { ReviewSheet } from "../../../shared/review/schema";
import type { FormatOutcome } from "../../../shared/work/states";

const KEYS: { keys: string[]; label: string; outcome?: FormatOutcome; nav?: "next" | "prev" }[] = [
  { keys: ["P", "Enter"], label: "通过", outcome: "format_pass" },
  { keys: ["R"], label: "退回修改", outcome: "format_return" },
  { keys: ["X"], label: "不符合要求", outcome: "format_reject" },
  { keys: ["U"], label: "撤销结论", outcome: "format_reopen" },
  { keys: ["J", "→"], label: "下一件", nav: "next" },
  { keys: ["K", "←"], label: "上一件", nav: "prev" },
];

const Kbd = ({ children }: { children: string }) => (
  <kbd
    style={{
      display: "inline-block",
      minWidth: 22,
      padding: "0 6px",
      border: "1px solid #d9d9d9",
      borderBottomWidth: 2,
      borderRadius: 4,
      background: "#fafafa",
      color: "rgba(0,0,0,0.65)",
      fontFamily: "monospace",
      fontSize: 12,
      lineHeight: "20px",
      textAlign: "center",
    }}
  >
    {children}
  </kbd>
);

export function ActionPanel({
  sheet,
  busy,
  onDecide,
  onMove,
  hasPrev,
  hasNext,
}: {
  sheet: ReviewSheet;
  busy: boolean;
  onDecide: (o: FormatOutcome) => void;
  onMove: (d: "next" | "prev") => void;
  hasPrev: boolean;
  hasNext: boolean;
}) {
  const icon: Record<FormatOutcome, React.ReactNode> = {
    format_pass: <CheckOutlined />,
    format_return: <RollbackOutlined />,
    format_reject: <CloseOutlined />,
    format_reopen: <UndoOutlined />,
  };
  return (
    <Card size="small" title="审查结论" data-testid="fast-actions">
      {!sheet.outcomes.length && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 8 }}
          message={`该作品为「${sheet.statusName}」，当前没有可给出的结论`}
        />
      )}
      <Space direction="vertical" style={{ width: "100%" }}>
        {KEYS.filter((k) => k.outcome && sheet.outcomes.includes(k.outcome)).map((k) => (
          <Button
            key={k.label}
            block
            size="large"
            loading={busy && k.outcome === "format_pass"}
            type={k.outcome === "format_pass" ? "primary" : "default"}
            danger={k.outcome === "format_reject"}
            icon={icon[k.outcome!]}
            onClick={() => onDecide(k.outcome!)}
            data-testid={`fast-${k.outcome}`}
            style={{ display: "flex", justifyContent: "space-between", alignItems: "center" }}
          >
            <span style={{ flex: 1, textAlign: "left" }}>{k.label}</span>
            <Space size={4}>
              {k.keys.map((x) => (
                <Kbd key={x}>{x}</Kbd>
              ))}
            </Space>
          </Button>
        ))}
        <Space.Compact block>
          <Button block icon={<LeftOutlined />} disabled={!hasPrev} onClick={() => onMove("prev")} data-testid="fast-prev">
            上一件 <Kbd>K</Kbd>
          </Button>
          <Button block disabled={!hasNext} onClick={() => onMove("next")} data-testid="fast-next-btn">
            下一件 <Kbd>J</Kbd> <RightOutlined />
          </Button>
        </Space.Compact>
      </Space>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 8, marginBottom: 0 }} data-testid="fast-keys">
        快捷键：{KEYS.map((k) => `${k.keys.join("/")} ${k.label}`).join("，")}
      </Typography.Paragraph>
    </Card>
  );
}
