/**
 * The duplicate check on the review sheet and in fast review (format reviewers, contest
 * admins, root): the work's index state and its most similar works with their similarity
 * and level, each with a link to the side by side view. While the work waits for indexing
 * the panel asks again every few seconds.
 */
import { Link } from "react-router";
import { Alert, Card, List, Space, Spin, Typography } from "antd";
import { comparePath } from "../../shared/dupcheck/api";
import { useQuery } from "@tanstack/react-query";
import { sheetDupQuery } from "./api";
import { IndexNotes, IndexStateTag, LevelTag, pct, WorkRefText } from "./parts";

export function SheetDupPanel({ workId, newTab, compact }: { workId: number; newTab?: boolean; compact?: boolean }) {
  const q = useQuery({
    ...sheetDupQuery(workId),
    enabled: workId > 0,
    refetchInterval: (query) => (query.state.data?.index.status === "pending" ? 3000 : false),
  });
  const d = q.data;
  const flagged = d?.matches.filter((m) => m.level !== "none") ?? [];
  const title = (
    <Space>
      <span>查重</span>
      {d && <IndexStateTag index={d.index} />}
      {d && flagged.length > 0 && (
        <Typography.Text type="danger" data-testid="dup-sheet-flag">
          发现 {flagged.length} 件疑似重复
        </Typography.Text>
      )}
    </Space>
  );
  return (
    <Card size="small" title={title} data-testid="dup-sheet">
      {q.isLoading ? (
        <Spin size="small" />
      ) : q.isError || !d ? (
        <Alert type="warning" showIcon message={q.error?.message ?? "查重结果暂不可用"} />
      ) : (
        <Space direction="vertical" style={{ width: "100%" }} size={8}>
          <IndexNotes index={d.index} />
          {!d.index.tooShort && !d.matches.length && (
            <Typography.Text type="secondary" data-testid="dup-sheet-none">
              未发现相似作品（相似度 ≥ 10%）
            </Typography.Text>
          )}
          {d.matches.length > 0 && (
            <List
              size="small"
              split={!compact}
              dataSource={d.matches}
              renderItem={(m) => (
                <List.Item
                  style={{ padding: compact ? "4px 0" : undefined }}
                  data-testid={`dup-sheet-match-${m.workId}`}
                  actions={[
                    <Link
                      key="c"
                      to={comparePath(workId, m.workId)}
                      target={newTab ? "_blank" : undefined}
                      data-testid="dup-sheet-compare"
                    >
                      并排对比
                    </Link>,
                  ]}
                >
                  <Space direction="vertical" size={2}>
                    <WorkRefText w={m} showContest={!compact} />
                    <Space size={4} wrap>
                      <LevelTag level={m.level} similarity={m.similarity} />
                      {m.containmentAB !== null && (
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          本作品 {pct(m.containmentAB, 0)} 的内容见于该作品
                        </Typography.Text>
                      )}
                    </Space>
                  </Space>
                </List.Item>
              )}
            />
          )}
          {d.more > 0 && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              另有 {d.more} 件相似度较低的作品未列出
            </Typography.Text>
          )}
        </Space>
      )}
    </Card>
  );
}
