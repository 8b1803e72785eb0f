/**
 * The body of the fast review page for one work: the review sheet on the left; on the
 * right the outcome buttons, duplicate-check matches, checklist, what comes next and the
 * review history.
 */
import { Link } from "react-router";
import { Card, Col, Collapse, Empty, Row, Space, Tag, Typography } from "antd";
import type { Neighbours, ReviewSheet } from "../../../shared/review/schema";
import type { FormatOutcome } from "../../../shared/work/states";
import { reviewDetailPath } from "./api";
import { ActionPanel } from "./FastActionPanel";
import { Checklist, CurrentDecision, SheetFacts, SheetFields, SheetFiles, SheetHistory } from "./SheetView";
import { SheetDupPanel } from "../../dupcheck/SheetPanel";

export function FastSheet({
  s,
  busy,
  decide,
  move,
  position,
  nextSheet,
  nextPending,
}: {
  s: ReviewSheet;
  busy: boolean;
  decide: (o: FormatOutcome) => void;
  move: (d: "next" | "prev") => void;
  position: Neighbours | undefined;
  /** The sheet of the next work in the filter, once preloaded. */
  nextSheet: ReviewSheet | undefined;
  nextPending: number | null;
}) {
  return (
    <Row gutter={16}>
      <Col xs={24} lg={16}>
        <Card
          title={
            <Space wrap>
              <Tag>{s.id}</Tag>
              <span data-testid="fast-work-name">{s.name}</span>
            </Space>
          }
          extra={
            <Link to={reviewDetailPath(s.id)} target="_blank">
              在新窗口打开审核单
            </Link>
          }
          data-testid="fast-work"
          data-work-id={s.id}
        >
          <CurrentDecision sheet={s} />
          <SheetFacts sheet={s} column={2} />
          <Typography.Title level={5} style={{ marginTop: 8 }}>
            附件
          </Typography.Title>
          <SheetFiles sheet={s} />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            作品信息
          </Typography.Title>
          <SheetFields sheet={s} />
        </Card>
      </Col>
      <Col xs={24} lg={8}>
        <div style={{ position: "sticky", top: 16 }}>
          <ActionPanel
            sheet={s}
            busy={busy}
            onDecide={decide}
            onMove={move}
            hasPrev={!!position?.prev}
            hasNext={!!position?.next}
          />
          <div style={{ marginTop: 16 }}>
            <SheetDupPanel workId={s.id} newTab compact />
          </div>
          <Card size="small" title="检查清单" style={{ marginTop: 16 }}>
            <Checklist items={s.checklist} compact />
          </Card>
          <Card size="small" style={{ marginTop: 16 }} data-testid="fast-next">
            {position?.next ? (
              <Typography.Text type="secondary">
                下一件：{nextSheet ? `《${nextSheet.name}》` : position.next}
                {nextSheet ? (
                  <Tag color="green" style={{ marginInlineStart: 8 }}>
                    已预加载
                  </Tag>
                ) : (
                  <Tag style={{ marginInlineStart: 8 }}>加载中</Tag>
                )}
              </Typography.Text>
            ) : (
              <Typography.Text type="secondary">这是筛选中的最后一件</Typography.Text>
            )}
            {nextPending && nextPending !== position?.next && (
              <div>
                <Typography.Text type="secondary">下一件待审查：{nextPending}</Typography.Text>
              </div>
            )}
          </Card>
          <Collapse
            size="small"
            style={{ marginTop: 16 }}
            items={[
              {
                key: "h",
                label: `审查记录（${s.history.length}）`,
                children: s.history.length ? (
                  <SheetHistory sheet={s} />
                ) : (
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无" />
                ),
              },
            ]}
          />
        </div>
      </Col>
    </Row>
  );
}
