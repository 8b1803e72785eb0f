/** The two tables of the online judging progress (score-admin.tsx): per work (expandable to each judge's score, with 退回) and per judge. */
import { Button, Progress, Table, Typography } from "antd";
import { RollbackOutlined } from "@ant-design/icons";
import type { AdminScoreRow, ScoreAdminView } from "../../../shared/judging/score-schema";
import { ScoreStatusTag } from "./parts";
import { fmtShortTime } from "../../format";

type WorkRow = ScoreAdminView["works"][number];
type JudgeRow = ScoreAdminView["judges"][number];

/** 按作品: each work's progress and raw mean; expanded, each judge's score with 退回 for a submitted one. */
export function ScoreWorksTable({
  works,
  onReopen,
}: {
  works: WorkRow[];
  onReopen: (row: AdminScoreRow & { workName: string }) => void;
}) {
  return (
    <Table<WorkRow>
      size="small"
      rowKey="workId"
      dataSource={works}
      data-testid="score-works"
      pagination={{ defaultPageSize: 20, showSizeChanger: true, showTotal: (n) => `共 ${n} 件` }}
      expandable={{
        expandedRowRender: (w) => (
          <Table<AdminScoreRow> size="small" rowKey="judgeId" pagination={false} dataSource={w.scores}>
            <Table.Column<AdminScoreRow> dataIndex="judgeName" title="评委" />
            <Table.Column<AdminScoreRow> dataIndex="status" title="状态" render={(st) => <ScoreStatusTag status={st} />} />
            <Table.Column<AdminScoreRow> dataIndex="total" title="总分" render={(x: number | null) => x ?? "—"} />
            <Table.Column<AdminScoreRow>
              dataIndex="submittedAt"
              title="提交时间"
              render={(x: string | null) => fmtShortTime(x)}
            />
            <Table.Column<AdminScoreRow> dataIndex="reopenReason" title="退回原因" render={(x: string | null) => x ?? ""} />
            <Table.Column<AdminScoreRow>
              title="操作"
              render={(_, r) =>
                r.status === "submitted" && (
                  <Button
                    size="small"
                    icon={<RollbackOutlined />}
                    onClick={() => onReopen({ ...r, workName: w.name })}
                    data-testid="reopen-score"
                  >
                    退回
                  </Button>
                )
              }
            />
          </Table>
        ),
      }}
    >
      <Table.Column<WorkRow> dataIndex="workId" title="作品编号" width={120} />
      <Table.Column<WorkRow> dataIndex="name" title="作品名称" />
      <Table.Column<WorkRow> dataIndex="category" title="大类" />
      <Table.Column<WorkRow> dataIndex="judgeGroup" title="评审组" render={(x: string | null) => x ?? "—"} />
      <Table.Column<WorkRow>
        title="已提交 / 分配"
        render={(_, w) => (
          <Typography.Text type={w.submitted === w.assigned ? "success" : undefined} data-testid={`work-progress-${w.workId}`}>
            {w.submitted} / {w.assigned}
          </Typography.Text>
        )}
      />
      <Table.Column<WorkRow> dataIndex="mean" title="平均分（原始）" render={(x: number | null) => x ?? "—"} />
    </Table>
  );
}

/** 按评委: each judge's assignments, submitted and draft scores, and progress. */
export function ScoreJudgesTable({ judges }: { judges: JudgeRow[] }) {
  return (
    <Table<JudgeRow> size="small" rowKey="judgeId" dataSource={judges} pagination={false} data-testid="score-judges">
      <Table.Column<JudgeRow> dataIndex="name" title="评委" />
      <Table.Column<JudgeRow> dataIndex="username" title="用户名" />
      <Table.Column<JudgeRow> dataIndex="assigned" title="分配" />
      <Table.Column<JudgeRow> dataIndex="submitted" title="已提交" />
      <Table.Column<JudgeRow> dataIndex="draft" title="草稿" />
      <Table.Column<JudgeRow>
        title="进度"
        width={220}
        render={(_, j) => (
          <Progress
            aria-label="评分提交进度"
            size="small"
            percent={j.assigned ? Math.round((j.submitted / j.assigned) * 100) : 0}
          />
        )}
      />
    </Table>
  );
}
