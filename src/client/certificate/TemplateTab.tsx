/**
 * The 证书模板 tab of both print pages: per contest and award kind (作品获奖/优秀指导教师/优秀
 * 组织奖), the orientation, a background image (the scan of the printed form), the field list
 * with each field's properties, and a live preview of the sample certificate through the same
 * CertificateSheet the print view uses (fields can be dragged on it). checkLayout's problems
 * show beside their fields and keep 保存 disabled (the server checks again); 恢复默认 goes back
 * to the built-in layout; 预览 PDF asks the server for the sample certificate as a PDF.
 * The editor's state is in use-template-editor.ts, its cards in TemplateCards.tsx.
 */
import { useState } from "react";
import { Alert, Col, Row, Segmented, Space, Spin } from "antd";
import { AWARD_KINDS, AWARD_KIND_CERT_NAMES, type AwardKind } from "../../shared/certificate/layout";
import type { CertContest, TemplateView } from "../../shared/certificate/print-schema";
import { useTemplates } from "./print-api";
import { FieldPropsCard, FieldsCard, PaperCard, PreviewCard } from "./TemplateCards";
import { useTemplateEditor } from "./use-template-editor";

export function TemplateTab({ contest }: { contest: CertContest }) {
  const templates = useTemplates(contest.id);
  const [kind, setKind] = useState<AwardKind>("work");
  const view = templates.data?.find((t) => t.awardKind === kind);
  return (
    <Space direction="vertical" size={12} style={{ width: "100%" }}>
      <Segmented<AwardKind>
        value={kind}
        onChange={setKind}
        options={AWARD_KINDS.map((k) => ({ value: k, label: AWARD_KIND_CERT_NAMES[k] }))}
        data-testid="cert-template-kind"
      />
      {templates.isError && <Alert type="error" showIcon message={templates.error.message} />}
      {templates.isPending && <Spin />}
      {view && <TemplateEditor key={`${contest.id}:${kind}:${view.updatedAt ?? "default"}`} contestId={contest.id} view={view} />}
    </Space>
  );
}

export { reorient } from "./use-template-editor";

function TemplateEditor({ contestId, view }: { contestId: number; view: TemplateView }) {
  const ed = useTemplateEditor(contestId, view);
  return (
    <Row gutter={16} data-testid="cert-template-editor">
      <Col xs={24} xl={9}>
        <PaperCard ed={ed} />
        <FieldsCard ed={ed} />
        <FieldPropsCard ed={ed} />
      </Col>
      <Col xs={24} xl={15}>
        <PreviewCard ed={ed} view={view} />
      </Col>
    </Row>
  );
}
