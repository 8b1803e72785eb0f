/**
 * The format review decisions on one work: 通过 (asks to confirm), 退回修改 and 不符合要求
 * (open the reasons modal, owned by the page), 撤销结论 for a passed or rejected work.
 * Which ones show follows the documented state machine (src/shared/work/states.ts); the
 * server has the last word and its message is shown.
 */
import { useState } from "react";
import { Button } from "antd";
import { Inline } from "../../components/light";
import { OnDemand } from "../../components/on-demand";
import type { OutcomeResult } from "../../../shared/review/schema";
import { FORMAT_OUTCOMES, TRANSITIONS, type FormatOutcome, type WorkState } from "../../../shared/work/states";
import { giveOutcome } from "./api";
import type { OutcomeTarget, ReasonOutcome } from "./OutcomeModal";

export const LABELS: Record<FormatOutcome, string> = {
  format_pass: "通过",
  format_return: "退回修改",
  format_reject: "不符合要求",
  format_reopen: "撤销结论",
};

/** The outcomes a reviewer may give a work in this state. */
export const outcomesFor = (status: WorkState): FormatOutcome[] =>
  FORMAT_OUTCOMES.filter((o) => (TRANSITIONS[o].from as readonly WorkState[]).includes(status));

export function OutcomeButtons({
  work,
  outcomes,
  size = "small",
  onDone,
  onReason,
}: {
  work: OutcomeTarget & { status: WorkState };
  /** default: by the state machine */
  outcomes?: FormatOutcome[];
  size?: "small" | "middle";
  onDone: (r: OutcomeResult) => void;
  onReason: (work: OutcomeTarget, outcome: ReasonOutcome) => void;
}) {
  const [busy, setBusy] = useState<FormatOutcome | null>(null);
  const run = async (o: FormatOutcome) => {
    setBusy(o);
    const reply = await giveOutcome(work.id, o, { version: work.version });
    setBusy(null);
    if (reply.error === 0 && reply.data) onDone(reply.data);
  };
  const list = outcomes ?? outcomesFor(work.status);
  if (!list.length) return null;
  return (
    <Inline gap={4}>
      {list.map((o) =>
        o === "format_return" || o === "format_reject" ? (
          <Button
            key={o}
            size={size}
            danger={o === "format_reject"}
            onClick={() => onReason(work, o)}
            data-testid={`outcome-${o}`}
          >
            {LABELS[o]}
          </Button>
        ) : (
          <OnDemand
            key={o}
            confirm={{
              title: o === "format_pass" ? `确认《${work.name}》形式审查通过？` : "撤销形式审查结论后作品回到待审查，确认？",
              okText: "确认",
              cancelText: "取消",
              onConfirm: () => run(o),
            }}
          >
            <Button
              size={size}
              type={o === "format_pass" ? "primary" : "default"}
              loading={busy === o}
              data-testid={`outcome-${o}`}
            >
              {LABELS[o]}
            </Button>
          </OnDemand>
        ),
      )}
    </Inline>
  );
}
