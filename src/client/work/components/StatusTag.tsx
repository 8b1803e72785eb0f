/**
 * A work's status as a coloured tag (states.ts names), shared by every works screen:
 * authors, teachers, schools, contest admins, the detail and log views.
 */
import { Tag } from "antd";
import { OnDemand } from "../../components/on-demand";
import { WORK_STATE_NAMES, type WorkState } from "../../../shared/work/states";

export const STATUS_COLORS: Record<WorkState, string> = {
  draft: "default",
  submitted: "processing",
  returned: "warning",
  school_approved: "cyan",
  recommended: "geekblue",
  accepted: "success",
  format_returned: "warning",
  format_resubmitted: "processing",
  format_passed: "success",
  format_rejected: "error",
  disqualified: "error",
};

export interface StatusTagProps {
  status: WorkState;
  /** the server's statusName; defaults to the shared name of the state */
  name?: string;
  /** a return or disqualification reason, shown on hover */
  reason?: string | null;
}

export function StatusTag({ status, name, reason }: StatusTagProps) {
  const tag = (
    <Tag color={STATUS_COLORS[status] ?? "default"} data-testid="work-status" style={{ marginInlineEnd: 0 }}>
      {name ?? WORK_STATE_NAMES[status] ?? status}
    </Tag>
  );
  // The tooltip is mounted when the pointer comes to the tag (lists show a tag per row).
  return reason ? <OnDemand tip={`原因：${reason}`}>{tag}</OnDemand> : tag;
}

/** Select options of every state, e.g. for a status filter. */
export const STATUS_OPTIONS = (Object.keys(WORK_STATE_NAMES) as WorkState[]).map((s) => ({
  value: s,
  label: WORK_STATE_NAMES[s],
}));
