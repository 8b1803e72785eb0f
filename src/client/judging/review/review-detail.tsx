/**
 * /reviewer/reviewDetail/:workId: the review sheet of one work — facts, the checklist
 * (the category's required attachments present or missing, required fields, team rules),
 * the text fields, the attachments with download links, the duplicate check's top matches
 * (with the side by side view) and the format review history —
 * with the decisions the server says the caller may give now. Whoever does not review the
 * work gets the server's 404 text.
 */
import { useState } from "react";
import { useNavigate, useParams } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Col, Result, Row, Skeleton, Space } from "antd";
import { ArrowLeftOutlined, ThunderboltOutlined } from "@ant-design/icons";
import type { PageProps } from "../../routing/model";
import { fastReviewPath, reviewKeys, reviewListPath, sheetQuery } from "./api";
import { OutcomeButtons } from "./OutcomeButtons";
import { OutcomeModal, type OutcomeTarget, type ReasonOutcome } from "./OutcomeModal";
import { Checklist, CurrentDecision, SheetFacts, SheetFields, SheetFiles, SheetHistory } from "./SheetView";
import { SheetDupPanel } from "../../dupcheck/SheetPanel";

export default function ReviewDetail({ route }: PageProps) {
  const { workId } = useParams();
  const id = /^\d{10}$/.test(workId ?? "") ? Number(workId) : 0;
  const navigate = useNavigate();
  const qc = useQueryClient();
  const sheet = useQuery({ ...sheetQuery(id), enabled: !!id, staleTime: 0 });
  const [reason, setReason] = useState<{ work: OutcomeTarget; outcome: ReasonOutcome } | null>(null);

  if (!id) return <Result status="404" title="作品编号应为 10 位数字" />;
  if (sheet.isLoading)
    return (
      <Card title={route.label}>
        <Skeleton active />
      </Card>
    );
  if (sheet.isError || !sheet.data) {
    return (
      <div data-testid="review-detail-error">
        <Result
          status="404"
          title={sheet.error?.message ?? "作品不存在或不在您负责的形式审查中"}
          extra={<Button onClick={() => navigate(-1)}>返回</Button>}
        />
      </div>
    );
  }
  const s = sheet.data;
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: reviewKeys.all });
  };

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="review-detail">
      <Card
        title={
          <Space>
            <Button
              type="text"
              icon={<ArrowLeftOutlined />}
              aria-label="返回"
              onClick={() => (window.history.length > 1 ? navigate(-1) : navigate(reviewListPath(s.reviewContest.id)))}
            />
            <span>
              {route.label}：《{s.name}》
            </span>
          </Space>
        }
        extra={
          <Space wrap>
            <OutcomeButtons
              size="middle"
              work={{ ...s }}
              outcomes={s.outcomes}
              onDone={refresh}
              onReason={(work, outcome) => setReason({ work, outcome })}
            />
            <Button icon={<ThunderboltOutlined />} onClick={() => navigate(fastReviewPath(s.reviewContest.id, s.id))}>
              从此快速审核
            </Button>
          </Space>
        }
      >
        <CurrentDecision sheet={s} />
        <SheetFacts sheet={s} />
        {!s.outcomes.length && <Alert type="info" showIcon message="该作品当前没有可给出的形式审查结论" />}
      </Card>
      <Row gutter={16}>
        <Col xs={24} lg={15}>
          <Space direction="vertical" size={16} style={{ width: "100%" }}>
            <Card title="作品信息" size="small">
              <SheetFields sheet={s} />
            </Card>
            <Card title="附件" size="small">
              <SheetFiles sheet={s} />
            </Card>
          </Space>
        </Col>
        <Col xs={24} lg={9}>
          <Space direction="vertical" size={16} style={{ width: "100%" }}>
            <SheetDupPanel workId={s.id} />
            <Card title="检查清单" size="small">
              <Checklist items={s.checklist} />
            </Card>
            <Card title="审查记录" size="small">
              <SheetHistory sheet={s} />
            </Card>
          </Space>
        </Col>
      </Row>
      <OutcomeModal
        target={reason?.work ?? null}
        outcome={reason?.outcome ?? null}
        onClose={() => setReason(null)}
        onDone={refresh}
      />
    </Space>
  );
}
