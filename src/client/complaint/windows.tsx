/**
 * The complaint windows (公示期 and 申诉期 of each contest, in stage order): a table, or one card per
 * window on a phone. Shown by the visitor entry /complaint (its first view) and the logged-in
 * filing page.
 */
import { Card, Empty, Grid, Table, Tag, Typography } from "antd";
import type { ComplaintWindow } from "../../shared/complaint/schema";
import { inStageOrder } from "../../shared/contest/stage-dates";
import { fmtTime } from "../format";

const STAGE_NAMES: Record<string, string> = { publicity: "公示期", complaint: "申诉期" };

const windowKey = (w: ComplaintWindow) => `${w.contestId}-${w.stage}`;
const windowState = (open: boolean) => (open ? <Tag color="green">受理中</Tag> : <Tag>未开放</Tag>);

/** Each contest's windows together, 公示期 before 申诉期 (the contest's stage order), the open ones' contests first. */
function ordered(windows: readonly ComplaintWindow[]): ComplaintWindow[] {
  const contests = [...new Set(windows.map((w) => w.contestId))];
  return contests.flatMap((id) => inStageOrder(windows.filter((w) => w.contestId === id)));
}

export function Windows({ windows: given }: { windows: readonly ComplaintWindow[] }) {
  const windows = ordered(given);
  // On a phone a four-column table squeezed every column to a character (issue 29): one card per window.
  const narrow = !(Grid.useBreakpoint().md ?? true);
  if (narrow)
    return (
      <div className="complaint-window-cards" data-testid="complaint-windows">
        {windows.length ? (
          windows.map((w) => (
            <Card key={windowKey(w)} size="small" title={w.contestName} extra={windowState(w.open)} style={{ marginBottom: 8 }}>
              <Typography.Text strong>{STAGE_NAMES[w.stage] ?? w.stage}</Typography.Text>
              <div>
                {fmtTime(w.startsAt)} 至 {fmtTime(w.endsAt)}
              </div>
            </Card>
          ))
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="当前没有处于公示期或申诉期的赛事" />
        )}
      </div>
    );
  return (
    <Table<ComplaintWindow>
      dataSource={windows}
      rowKey={windowKey}
      size="small"
      pagination={false}
      locale={{ emptyText: "当前没有处于公示期或申诉期的赛事" }}
      data-testid="complaint-windows"
    >
      <Table.Column<ComplaintWindow> dataIndex="contestName" title="赛事" />
      <Table.Column<ComplaintWindow> dataIndex="stage" title="阶段" render={(s: string) => STAGE_NAMES[s] ?? s} />
      <Table.Column<ComplaintWindow> title="受理时间" render={(_, w) => `${fmtTime(w.startsAt)} 至 ${fmtTime(w.endsAt)}`} />
      <Table.Column<ComplaintWindow> dataIndex="open" title="状态" render={windowState} />
    </Table>
  );
}
