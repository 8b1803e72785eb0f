/**
 * The 审查结论 card of the fast review page: one button per outcome the sheet allows, each
 * with its keys, the previous/next buttons, the list of shortcuts and the reviewer's choice of
 * how they work (single keys, Alt+key or off: review-keys.ts).
 */
import { Alert, Button, Card, Segmented, Space, Typography } from "antd";
import { CheckOutlined, CloseOutlined, LeftOutlined, RightOutlined, RollbackOutlined, UndoOutlined } from "@ant-design/icons";
import type { ReviewSheet } from "../../../shared/review/schema";
import type { FormatOutcome } from "../../../shared/work/states";
import { KEY_MODES, keysOf, setKeyMode, useKeyMode, type KeyCommand } from "./review-keys";

const KEYS: { command: KeyCommand; label: string; outcome?: FormatOutcome }[] = [
  { command: "format_pass", label: "通过", outcome: "format_pass" },
  { command: "format_return", label: "退回修改", outcome: "format_return" },
  { command: "format_reject", label: "不符合要求", outcome: "format_reject" },
  { command: "format_reopen", label: "撤销结论", outcome: "format_reopen" },
  { command: "next", label: "下一件" },
  { command: "prev", label: "上一件" },
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
      color: "rgba(0,0,0,0.75)",
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
  const mode = useKeyMode();
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
              {keysOf(k.command, mode).map((x) => (
                <Kbd key={x}>{x}</Kbd>
              ))}
            </Space>
          </Button>
        ))}
        <Space.Compact block>
          <Button block icon={<LeftOutlined />} disabled={!hasPrev} onClick={() => onMove("prev")} data-testid="fast-prev">
            上一件 {mode !== "off" && <Kbd>{keysOf("prev", mode)[0]}</Kbd>}
          </Button>
          <Button block disabled={!hasNext} onClick={() => onMove("next")} data-testid="fast-next-btn">
            下一件 {mode !== "off" && <Kbd>{keysOf("next", mode)[0]}</Kbd>} <RightOutlined />
          </Button>
        </Space.Compact>
      </Space>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 8, marginBottom: 0 }} data-testid="fast-keys">
        {mode === "off"
          ? "快捷键已关闭，请用上面的按钮（Tab 键可到达）。"
          : `快捷键：${KEYS.map((k) => `${keysOf(k.command, mode).join("/")} ${k.label}`).join("，")}`}
      </Typography.Paragraph>
      <Space size={8} wrap style={{ marginTop: 8 }}>
        <Typography.Text id="fast-key-mode-label" style={{ fontSize: 12 }}>
          快捷键方式
        </Typography.Text>
        <Segmented
          size="small"
          aria-labelledby="fast-key-mode-label"
          value={mode}
          options={KEY_MODES}
          onChange={(v) => setKeyMode(v)}
          data-testid="fast-key-mode"
        />
      </Space>
    </Card>
  );
}
